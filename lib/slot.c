// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Slots: the bays of SES enclosures and PCIe slots, as identities of the
 * disks in them ("slot:ENCLOSURE_ID/SLOT", "slot:pcie/NAME") and as a list
 * with their state and LEDs.
 *
 * The kernel's enclosure class (drivers/misc/enclosure.c, fed by ses.c)
 * makes sys/class/enclosure/H:C:T:L, named after the SES device, with
 * "id" (the enclosure's logical id, %#llx) and one directory per
 * component, named by its descriptor (duplicates suffixed -1, -2, ...) or
 * by number, with "slot", "status", "locate", "fault", "type" and, for a
 * bay with a disk, a "device" link to the disk's scsi_device, which links
 * back as "enclosure_device:COMPONENT". PCIe slots are
 * sys/bus/pci/slots/NAME with "address" (domain:bus:device) and, with a
 * hotplug driver, "attention" (0 off, 1 on, 2 blink) and "adapter".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "internal.h"

/* The slot identity of the SES component open as @cfd, NULL when it shows none valid. */
static char *ses_identity(int cfd)
{
	_cleanup_free_ char *id = read_attr_at(cfd, "../id", false);
	_cleanup_free_ char *slot = read_attr_at(cfd, "slot", false);
	char *v = id && slot ? xasprintf("%s/%s", id, slot) : NULL;

	if (v && da_identity_check(DA_ID_SLOT, v, NULL) < 0) {
		free(v);
		return NULL;
	}
	return v;
}

int slot_ses_identities(struct da_device *d, int sdev_fd)
{
	struct strv comps = {};
	int r = 0;

	read_dir_names(sdev_fd, ".", "enclosure_device:", &comps);
	for (size_t i = 0; r >= 0 && i < comps.n; i++) {
		int cfd = openat(sdev_fd, comps.v[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		char *v;

		if (cfd < 0)
			continue;
		v = ses_identity(cfd);
		close(cfd);
		if (v && !device_list_has(d, DEV_IDS + DA_ID_SLOT, v))
			r = device_take(d, DEV_IDS + DA_ID_SLOT, v);
		else
			free(v);
	}
	strv_free(&comps);
	return r;
}

int slot_pcie_read(const struct da_ctx *ctx, struct strv *ret)
{
	_cleanup_free_ char *dir = da_ctx_sys(ctx, "bus/pci/slots");
	struct strv names = {};
	int dfd, r = 0;

	if (!dir)
		return -ENOMEM;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	read_dir_names(dfd, ".", "", &names);
	strv_sort_natural(&names);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/address", names.v[i]);
		char *addr = p ? read_attr_at(dfd, p, false) : NULL;

		if (!addr)
			continue;
		r = strv_push(ret, names.v[i]);
		r = r < 0 ? r : strv_consume(ret, addr);
	}
	strv_free(&names);
	close(dfd);
	return r;
}

/* The PCI function ("0000:01:00.0") of the controller whose device path @path holds
 * .../FUNCTION/nvme/nvmeN; @len bytes of it in *ret_len. */
static const char *nvme_function(const char *path, size_t *ret_len)
{
	const char *end = strstr(path, "/nvme/nvme"), *start = end;

	while (start && start > path && start[-1] != '/')
		start--;
	if (!start || start == end)
		return NULL;
	*ret_len = end - start;
	return start;
}

/* Add the slot of PCI function @fn (@len bytes) from @pcie (name, address pairs) to @d. */
static int add_pcie_slot(struct da_device *d, const char *fn, size_t len, const struct strv *pcie)
{
	const char *dot = memrchr(fn, '.', len);

	for (size_t i = 0; dot && i + 1 < pcie->n; i += 2) {
		const char *addr = pcie->v[i + 1];

		if (strlen(addr) == (size_t)(dot - fn) && strncasecmp(addr, fn, dot - fn) == 0) {
			_cleanup_free_ char *v = xasprintf("pcie/%s", pcie->v[i]);

			if (!v)
				return -ENOMEM;
			if (da_identity_check(DA_ID_SLOT, v, NULL) < 0 ||
			    device_list_has(d, DEV_IDS + DA_ID_SLOT, v))
				return 0;
			return device_push(d, DEV_IDS + DA_ID_SLOT, v);
		}
	}
	return 0;
}

int slot_pcie_identities(struct da_device *d, int dfd, const struct strv *pcie)
{
	struct strv ctrls = {};
	const char *fn;
	size_t len;
	int r = 0;

	if (!pcie->n || !d->syspath)
		return 0;
	fn = nvme_function(d->syspath, &len);
	if (fn)
		return add_pcie_slot(d, fn, len, pcie);
	/* A multipath namespace: the subsystem above it links to each of its controllers. */
	read_dir_names(dfd, "..", "nvme", &ctrls);
	for (size_t i = 0; r >= 0 && i < ctrls.n; i++) {
		_cleanup_free_ char *p = xasprintf("../%s", ctrls.v[i]);
		_cleanup_free_ char *target = p ? read_link_at(dfd, p) : NULL;

		if (target && (fn = nvme_function(target, &len)))
			r = add_pcie_slot(d, fn, len, pcie);
	}
	strv_free(&ctrls);
	return r;
}

/* Read the slots of disk @d (its directory @dir); @pcie is filled on first need. */
static int device_read_slots(const struct da_ctx *ctx, struct da_device *d, const char *dir,
			     struct strv *pcie)
{
	int dfd, sfd, r = 0;

	/* Bays hold SCSI disks (SES) and NVMe drives (PCIe slots). */
	if (!d->hctl && !streq(d->tran, "nvme"))
		return 0;
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	if (d->hctl) {
		sfd = openat(dfd, "device", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sfd >= 0) {
			r = slot_ses_identities(d, sfd);
			close(sfd);
		}
	} else {
		if (!pcie->n)
			r = slot_pcie_read(ctx, pcie);
		if (r >= 0)
			r = slot_pcie_identities(d, dfd, pcie);
	}
	close(dfd);
	return r;
}

DA_EXPORT int da_devlist_read_slots(const struct da_ctx *ctx, struct da_devlist *l)
{
	struct strv pcie = {};
	int r = 0;

	for (size_t i = 0; r >= 0 && i < l->n; i++) {
		struct da_device *d = l->v[i];
		_cleanup_free_ char *dir = NULL;

		if (d->devtype != DA_DEV_DISK || !d->syspath)
			continue;
		/* udev gives the device's path under sys/, a scan its real directory. */
		dir = strncmp(d->syspath, "/devices/", 9) == 0
			      ? da_ctx_sys(ctx, "%s", d->syspath + 1)
			      : strdup(d->syspath);
		r = dir ? device_read_slots(ctx, d, dir, &pcie) : -ENOMEM;
	}
	strv_free(&pcie);
	return r;
}

int slot_device_has(const struct da_ctx *ctx, const char *kname, const char *value)
{
	_cleanup_free_ char *link = da_ctx_sys(ctx, "class/block/%s", kname);
	_cleanup_free_ char *sdev = NULL, *target = NULL;
	struct da_device d = { .kname = (char *)kname, .devtype = DA_DEV_DISK };
	struct strv pcie = {};
	int r;

	if (!link || !(d.syspath = resolve_link(link)))
		return link ? 0 : -ENOMEM;
	/* From the real directory: "device" is relative to it, not to the class link. */
	sdev = xasprintf("%s/device", d.syspath);
	target = sdev ? resolve_link(sdev) : NULL;
	d.hctl = target ? hctl_of(target) : NULL;
	if (!d.hctl && strstr(d.syspath, "/nvme"))
		d.tran = "nvme";
	r = device_read_slots(ctx, &d, d.syspath, &pcie);
	if (r >= 0)
		r = da_device_has_identity(&d, DA_ID_SLOT, value);
	strv_free(&pcie);
	device_release(&d);
	return r;
}

/* -------------------------------------------------------------------------
 * The slots of the machine, empty ones too, with their state.
 */
struct da_slotlist {
	struct da_slot *v;
	size_t n;
};

static void slot_free(struct da_slot *s)
{
	free((char *)s->identity);
	free((char *)s->enclosure);
	free((char *)s->enclosure_id);
	free((char *)s->label);
	free((char *)s->number);
	free((char *)s->status);
	free((char *)s->hctl);
	free((char *)s->pci);
	free((char *)s->syspath);
	for (int i = 0; i < _DA_LED_MAX; i++)
		free((char *)s->led_file[i]);
}

DA_EXPORT void da_slotlist_free(struct da_slotlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		slot_free(&l->v[i]);
	free(l->v);
	free(l);
}

static struct da_slot *slot_new(struct da_slotlist *l)
{
	if (ARRAY_GROW(l->v, l->n) < 0)
		return NULL;
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	for (int i = 0; i < _DA_LED_MAX; i++)
		l->v[l->n].led[i] = -1;
	return &l->v[l->n++];
}

/* An LED's state from its file, -1 when it cannot be read. */
static int read_led(const char *file)
{
	_cleanup_free_ char *v = file ? read_attr_at(AT_FDCWD, file, false) : NULL;
	unsigned int n;

	return v && parse_uint(v, &n) == 0 ? (int)n : -1;
}

static int bay_cmp(const void *pa, const void *pb)
{
	const struct da_slot *a = pa, *b = pb;
	int c = strverscmp(a->number ? a->number : "", b->number ? b->number : "");

	return c ? c : strverscmp(a->label, b->label);
}

/* The SES components of enclosure @name (sys/class/enclosure/@name). */
static int read_enclosure(const struct da_ctx *ctx, const char *name, struct da_diag *diag,
			  struct da_slotlist *l)
{
	_cleanup_free_ char *link = da_ctx_sys(ctx, "class/enclosure/%s", name);
	_cleanup_free_ char *dir = link ? resolve_link(link) : NULL;
	_cleanup_free_ char *id = NULL;
	struct strv comps = {};
	size_t first;
	int dfd, r = 0;

	if (!link || (!dir && !(dir = strdup(link))))
		return -ENOMEM;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return da_diag_add(diag, link, 0, true, "enclosure skipped: %s", strerror(errno));
	id = read_attr_at(dfd, "id", false);
	read_dir_names(dfd, ".", "", &comps);
	first = l->n;
	for (size_t i = 0; r >= 0 && i < comps.n; i++) {
		int cfd = openat(dfd, comps.v[i], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		_cleanup_free_ char *type = cfd >= 0 ? read_attr_at(cfd, "type", false) : NULL;
		_cleanup_free_ char *target = NULL;
		struct da_slot *s;

		/* Components are the directories with a "type": not power/, device, subsystem. */
		if (!type || (!streq(type, "device") && !streq(type, "array device"))) {
			if (cfd >= 0)
				close(cfd);
			continue;
		}
		s = slot_new(l);
		if (!s) {
			close(cfd);
			r = -ENOMEM;
			break;
		}
		s->kind = DA_SLOT_SES;
		s->enclosure = strdup(name);
		s->enclosure_id = id ? strdup(id) : NULL;
		s->label = strdup(comps.v[i]);
		s->number = read_attr_at(cfd, "slot", false);
		s->identity = ses_identity(cfd);
		s->status = read_attr_at(cfd, "status", false);
		s->syspath = xasprintf("%s/%s", dir, comps.v[i]);
		target = read_link_at(cfd, "device");
		s->hctl = target ? strdup(path_basename(target)) : NULL;
		s->led_file[DA_LED_LOCATE] = s->syspath ? xasprintf("%s/locate", s->syspath) : NULL;
		s->led_file[DA_LED_FAULT] = s->syspath ? xasprintf("%s/fault", s->syspath) : NULL;
		for (int k = 0; k < _DA_LED_MAX; k++)
			s->led[k] = read_led(s->led_file[k]);
		close(cfd);
		if (!s->enclosure || !s->label || !s->syspath || (target && !s->hctl))
			r = -ENOMEM;
		else if (!s->identity)
			r = da_diag_add(diag, s->syspath, 0, true,
					"slot has no valid identity (enclosure id or slot number)");
	}
	strv_free(&comps);
	close(dfd);
	if (r >= 0 && l->n > first)
		qsort(l->v + first, l->n - first, sizeof(*l->v), bay_cmp);
	return r;
}

/* NPEM's LED of @led in the leds/ of PCI device directory @dev, if it has one. */
static char *npem_led(const char *dev, enum da_led led)
{
	static const char *const names[_DA_LED_MAX] = { "locate", "fail" };
	_cleanup_free_ char *leds = xasprintf("%s/leds", dev);
	char *file = NULL;
	struct dirent *de;
	DIR *dp = leds ? opendir(leds) : NULL;

	if (!dp)
		return NULL;
	while (!file && (de = readdir(dp))) {
		const char *tail = strstr(de->d_name, ":enclosure:");

		if (tail && streq(tail + 11, names[led]))
			file = xasprintf("%s/%s/brightness", leds, de->d_name);
	}
	closedir(dp);
	return file;
}

/* The PCI device directory of the first function in slot address @addr, NULL when empty. */
static char *pcie_function(const struct da_ctx *ctx, const char *addr)
{
	_cleanup_free_ char *link = da_ctx_sys(ctx, "bus/pci/devices/%s.0", addr);

	return link ? resolve_link(link) : NULL;
}

static int read_pcie_slots(const struct da_ctx *ctx, struct da_slotlist *l)
{
	struct strv pcie = {};
	int r = slot_pcie_read(ctx, &pcie);

	for (size_t i = 0; r >= 0 && i + 1 < pcie.n; i += 2) {
		_cleanup_free_ char *fn = pcie_function(ctx, pcie.v[i + 1]);
		_cleanup_free_ char *adapter = NULL, *port = NULL;
		struct da_slot *s = slot_new(l);

		if (!s) {
			r = -ENOMEM;
			break;
		}
		s->kind = DA_SLOT_PCIE;
		s->enclosure = strdup("pcie");
		s->label = strdup(pcie.v[i]);
		s->number = strdup(pcie.v[i]);
		s->identity = xasprintf("pcie/%s", pcie.v[i]);
		s->pci = strdup(pcie.v[i + 1]);
		s->syspath = da_ctx_sys(ctx, "bus/pci/slots/%s", pcie.v[i]);
		if (!s->enclosure || !s->label || !s->number || !s->identity || !s->pci ||
		    !s->syspath) {
			r = -ENOMEM;
			break;
		}
		/* "adapter" is the slot's presence detect, where the hotplug driver has it. */
		adapter = read_attr(s->syspath, "adapter");
		s->status = strdup(adapter ? streq(adapter, "0") ? "empty" : "OK"
				   : fn	   ? "OK"
					   : "empty");
		/* NPEM (the slot's port or the function itself) where there is one, else attention.
		 */
		port = fn ? strdup(fn) : NULL;
		if (port && strrchr(port, '/'))
			*strrchr(port, '/') = '\0';
		for (int k = 0; k < _DA_LED_MAX; k++) {
			s->led_file[k] = port ? npem_led(port, k) : NULL;
			if (!s->led_file[k] && fn)
				s->led_file[k] = npem_led(fn, k);
			s->led[k] = read_led(s->led_file[k]);
		}
		if (!s->led_file[DA_LED_LOCATE] && !s->led_file[DA_LED_FAULT]) {
			int att;

			s->led_file[DA_LED_LOCATE] = xasprintf("%s/attention", s->syspath);
			att = read_led(s->led_file[DA_LED_LOCATE]);
			if (att < 0) {
				free((char *)s->led_file[DA_LED_LOCATE]);
				s->led_file[DA_LED_LOCATE] = NULL;
				continue;
			}
			s->led_file[DA_LED_FAULT] = strdup(s->led_file[DA_LED_LOCATE]);
			s->attention = true;
			s->led[DA_LED_LOCATE] = att == DA_ATTENTION_BLINK;
			s->led[DA_LED_FAULT] = att == DA_ATTENTION_ON;
		}
	}
	strv_free(&pcie);
	return r;
}

DA_EXPORT int da_slots_scan(const struct da_ctx *ctx, struct da_diag *diag,
			    struct da_slotlist **ret_list)
{
	_cleanup_free_ char *dir = da_ctx_sys(ctx, "class/enclosure");
	struct da_slotlist *l = calloc(1, sizeof(*l));
	struct strv encs = {};
	int dfd, r = 0;

	if (!dir || !l) {
		free(l);
		return -ENOMEM;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		read_dir_names(dfd, ".", "", &encs);
		close(dfd);
	}
	strv_sort_natural(&encs);
	for (size_t i = 0; r >= 0 && i < encs.n; i++)
		r = read_enclosure(ctx, encs.v[i], diag, l);
	strv_free(&encs);
	if (r >= 0)
		r = read_pcie_slots(ctx, l);
	/* Two enclosures that report one id cannot be told apart by it. */
	for (size_t i = 0; r >= 0 && i < l->n; i++)
		for (size_t j = 0; j < l->n; j++)
			if (l->v[i].enclosure_id && l->v[j].enclosure_id &&
			    !streq(l->v[i].enclosure, l->v[j].enclosure) &&
			    strcasecmp(l->v[i].enclosure_id, l->v[j].enclosure_id) == 0) {
				l->v[i].shared_id = true;
				break;
			}
	if (r < 0) {
		da_slotlist_free(l);
		return r;
	}
	*ret_list = l;
	return 0;
}

DA_EXPORT size_t da_slotlist_count(const struct da_slotlist *l)
{
	return l ? l->n : 0;
}

DA_EXPORT const struct da_slot *da_slotlist_get(const struct da_slotlist *l, size_t i)
{
	return l && i < l->n ? &l->v[i] : NULL;
}

DA_EXPORT const struct da_slot *da_slotlist_find(const struct da_slotlist *l, const char *identity,
						 size_t i)
{
	for (size_t k = 0; l && k < l->n; k++)
		if (l->v[k].identity && da_id_value_equal(DA_ID_SLOT, l->v[k].identity, identity) &&
		    i-- == 0)
			return &l->v[k];
	return NULL;
}

DA_EXPORT int da_slot_set_led(const struct da_slot *s, enum da_led led, bool on)
{
	const char *file = led >= 0 && led < _DA_LED_MAX ? s->led_file[led] : NULL;
	int want, r;

	if (!file)
		return -EOPNOTSUPP;
	/* One attention indicator: locate blinks it, fault lights it. */
	if (s->attention) {
		int now = read_led(file);

		want = on ? led == DA_LED_LOCATE ? DA_ATTENTION_BLINK : DA_ATTENTION_ON
			  : DA_ATTENTION_OFF;
		/* Off only clears what this LED set: a fault stays lit after locate --off. */
		if (!on && now != (led == DA_LED_LOCATE ? DA_ATTENTION_BLINK : DA_ATTENTION_ON))
			return 0;
	} else {
		want = on;
	}
	r = write_string(file, want == DA_ATTENTION_BLINK ? "2" : want ? "1" : "0");
	if (r < 0)
		return r;
	/* An enclosure may take the write and ignore it: what reads back is what is lit. */
	return read_led(file) == want ? 0 : -EIO;
}
