# The front door: make, make check, make run, make install, make bench.
# meson does the building; this file only names the usual entry points.
BUILDDIR ?= build
PREFIX ?= /usr/local
DESTDIR ?=
MESON_OPTS ?=

.PHONY: all deps check run install uninstall kernel-check system-check scale-check ui-check deb deb-check bench asan-check fuzz format clean

all: $(BUILDDIR)/build.ninja
	ninja -C $(BUILDDIR)

deps:
	@scripts/install-deps build

$(BUILDDIR)/build.ninja: | deps
	meson setup $(BUILDDIR) --prefix=$(PREFIX) $(MESON_OPTS)

# Every fast suite: unit, golden CLI tests on the fixture machines, fuzz smoke.
check: deps all
	meson test -C $(BUILDDIR) --no-suite slow --print-errorlogs

# The main job: the disks of this machine with their aliases.
run: all
	$(BUILDDIR)/src/diskalias list

install: all
	meson configure $(BUILDDIR) --prefix=$(PREFIX) >/dev/null
	meson install -C $(BUILDDIR) $(if $(DESTDIR),--destdir $(DESTDIR))

# The kernel patch series, built and tested under QEMU.
kernel-check:
	@scripts/install-deps kernel
	$(MAKE) -C kernel check

# udev rules and the helper in a real guest with real systemd-udevd.
system-check: all
	@scripts/install-deps system
	tests/system/run-all

# Coldplug of 1,000 disks under QEMU, with and without the rules (slow: not in CI).
scale-check: all
	@scripts/install-deps system
	tests/scale/run

# The Cockpit page in headless Chromium against Debian's cockpit-ws
# (make check skips it where they are not installed).
ui-check: all
	@scripts/install-deps ui
	meson test -C $(BUILDDIR) --suite ui --print-errorlogs

# The Debian packages (diskalias, libdiskalias0, libdiskalias-dev) in build-deb/.
deb:
	@scripts/install-deps deb
	scripts/make-deb build-deb

# The packages checked, installed, upgraded and purged in a Debian 12 chroot,
# and the root named by alias in early boot under QEMU.
deb-check:
	@scripts/install-deps deb
	tests/debian/run

bench: all
	@scripts/install-deps bench
	bench/run

# The test suites again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
asan-check: deps
	@test -f build-asan/build.ninja || meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false $(MESON_OPTS)
	ninja -C build-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C build-asan --no-suite slow --print-errorlogs

# Each fuzz target under libFuzzer for FUZZ_RUNS executions (10 million); not in CI.
fuzz:
	@scripts/install-deps fuzz
	tests/fuzz/campaign

# Write every C file as .clang-format says (make check fails on one that is not).
format: deps
	find include lib shared src tests kernel/tests -name '*.[ch]' | xargs clang-format -i

clean:
	rm -rf $(BUILDDIR) build-asan build-fuzz build-deb
