// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias metrics: the aliases as Prometheus metrics, in the text format
 * node_exporter's textfile collector reads. diskalias_disk_info carries the
 * kernel name in the label node_exporter's node_disk_* series use
 * (device), so a query joins them to give throughput by alias.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

#define TEXTFILE_NAME "diskalias.prom"

static const char metrics_usage[] =
	"Usage:\n"
	" diskalias metrics [options]\n"
	"\n"
	"Print the aliases as Prometheus metrics: diskalias_disk_info (one series\n"
	"per named disk or partition, joinable with node_exporter's node_disk_*\n"
	"by its device label), diskalias_alias_present, and the counts of missing\n"
	"and ambiguous aliases and of table problems.\n"
	"\n"
	"Options:\n"
	"     --textfile <dir>  write them to <dir>/" TEXTFILE_NAME " for node_exporter's\n"
	"                       textfile collector (on Debian\n"
	"                       /var/lib/prometheus/node-exporter), replacing the file\n"
	"                       whole, never leaving half of one\n";

/* What the output is written in: pieces of this size. */
#define SPILL_AT (64 << 10)

/* @s as a label value: valid UTF-8, with '\', '"' and newlines escaped. */
static int add_label_value(struct strbuf *sb, const char *s)
{
	_cleanup_free_ char *valid = utf8_replace_invalid(s);
	int r = 0;

	for (const char *p = valid ? valid : s; *p && r >= 0; p++) {
		if (*p == '\\' || *p == '"')
			r = strbuf_addf(sb, "\\%c", *p);
		else if (*p == '\n')
			r = strbuf_addstr(sb, "\\n");
		else
			r = strbuf_add(sb, p, 1);
	}
	return r;
}

/* NAME{KEY="VALUE",...} N, the labels given as NULL-terminated key, value pairs. */
static int add_sample(struct strbuf *sb, const char *name, const char *const *labels,
		      unsigned long value)
{
	int r = strbuf_addstr(sb, name);

	for (size_t i = 0; labels && labels[i] && r >= 0; i += 2) {
		r = strbuf_addf(sb, "%s%s=\"", i == 0 ? "{" : ",", labels[i]);
		if (r >= 0)
			r = add_label_value(sb, labels[i + 1] ? labels[i + 1] : "");
		if (r >= 0)
			r = strbuf_addstr(sb, "\"");
	}
	if (r >= 0 && labels && labels[0])
		r = strbuf_addstr(sb, "}");
	return r < 0 ? r : strbuf_addf(sb, " %lu\n", value);
}

static int add_family(struct strbuf *sb, const char *name, const char *help)
{
	return strbuf_addf(sb, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* Every aliased device's info series: device, primary alias, all of them, identity, slot. */
static int add_disk_info(struct strbuf *sb, int fd, const struct tool *t)
{
	int r = add_family(sb, "diskalias_disk_info",
			   "A disk or partition with an alias; join on device with node_disk_*.");

	for (size_t i = 0; r >= 0 && i < da_devlist_count(t->list); i++) {
		const struct da_device *d = da_devlist_get(t->list, i);
		const struct da_alias *a = da_map_device_alias(t->map, d, 0);
		struct strbuf all = STRBUF_INIT;
		const char *name;

		if (!da_map_device_name(t->map, d, 0))
			continue;
		for (size_t k = 0; r >= 0 && (name = da_map_device_name(t->map, d, k)); k++)
			r = strbuf_addf(&all, "%s%s", k ? "," : "", name);
		if (r >= 0) {
			const char *const labels[] = {
				"device",   da_device_kname(d),
				"alias",    da_map_device_name(t->map, d, 0),
				"aliases",  all.buf,
				"identity", a ? da_alias_identity(a) : "",
				"slot",	    da_device_identity(d, DA_ID_PATH, 0),
				NULL,
			};

			r = add_sample(sb, "diskalias_disk_info", labels, 1);
		}
		strbuf_release(&all);
		if (r >= 0)
			r = strbuf_spill(sb, fd, NULL, SPILL_AT);
	}
	return r;
}

/*
 * The metrics, written to @fd through @sb as they are made: at 10,000
 * aliases they are 6 MB, which need not be held whole. 0, -ENOMEM or the
 * write's -errno.
 */
static int metrics_text(const struct tool *t, struct strbuf *sb, int fd)
{
	size_t missing = 0, ambiguous = 0;
	int r = add_disk_info(sb, fd, t);

	if (r >= 0)
		r = add_family(sb, "diskalias_alias_present",
			       "1 when the disk of the alias is present, else 0.");
	for (size_t i = 0; r >= 0 && i < da_table_count(t->table); i++) {
		const struct da_alias *a = da_table_get(t->table, i);
		enum da_alias_state state = da_map_alias_state(t->map, i, NULL);
		const char *const labels[] = {
			"alias", da_alias_name(a), "identity", da_alias_identity(a), NULL,
		};

		missing += state == DA_ALIAS_MISSING;
		ambiguous += state == DA_ALIAS_AMBIGUOUS;
		r = add_sample(sb, "diskalias_alias_present", labels, state == DA_ALIAS_PRESENT);
		if (r >= 0)
			r = strbuf_spill(sb, fd, NULL, SPILL_AT);
	}
	if (r >= 0)
		r = add_family(sb, "diskalias_aliases_missing",
			       "Aliases whose disk is not present.");
	if (r >= 0)
		r = add_sample(sb, "diskalias_aliases_missing", NULL, missing);
	if (r >= 0)
		r = add_family(sb, "diskalias_aliases_ambiguous",
			       "Aliases whose identity matches several devices: they name none.");
	if (r >= 0)
		r = add_sample(sb, "diskalias_aliases_ambiguous", NULL, ambiguous);
	if (r >= 0)
		r = add_family(sb, "diskalias_table_problems",
			       "Lines of the alias table that bind nothing (see diskalias check).");
	if (r >= 0)
		r = add_sample(sb, "diskalias_table_problems", NULL, t->table_problems);
	return r < 0 ? r : strbuf_spill(sb, fd, NULL, 0);
}

/*
 * The metrics into @dir/TEXTFILE_NAME: a new file renamed over the old
 * once whole, as the collector asks. 0, or -1 with a message.
 */
static int write_textfile(const struct tool *t, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = NULL;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, r;

	if (dfd < 0) {
		errmsg("%s: %s", dir, strerror(errno));
		return -1;
	}
	fd = temp_file_at(dfd, TEXTFILE_NAME, &tmp);
	r = fd < 0 ? fd : metrics_text(t, &sb, fd);
	if (fd >= 0)
		r = temp_file_commit(dfd, fd, tmp, TEXTFILE_NAME, 0644, -1, -1, false, r);
	close(dfd);
	strbuf_release(&sb);
	if (r < 0) {
		errmsg("%s/%s: %s", dir, TEXTFILE_NAME, strerror(-r));
		return -1;
	}
	return 0;
}

int cmd_metrics(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "textfile", required_argument, NULL, 'T' },
		GLOBAL_LONG_OPTS,
		{},
	};
	struct strbuf sb = STRBUF_INIT;
	const char *dir = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'T':
			dir = optarg;
			break;
		default:
			r = tool_common_option(t, c, metrics_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_MAP) < 0)
		return EXIT_FAIL;
	if (dir)
		return write_textfile(t, dir) < 0 ? EXIT_FAIL : EXIT_OK;
	r = metrics_text(t, &sb, STDOUT_FILENO);
	strbuf_release(&sb);
	if (r == -ENOMEM)
		errmsg("out of memory");
	else if (r < 0 && r != -EPIPE)
		errmsg("write error on standard output: %s", strerror(-r));
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
