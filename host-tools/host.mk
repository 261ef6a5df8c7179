# SPDX-License-Identifier: MIT
# The host toolchain: host-tools/ commands + their library, perfdata/ and the hosted libc-shim,
# compiled for the build machine with HOSTCC (never the cross compiler).
# HOST_SANITIZE=1 (or CONFIG_HOST_SANITIZE) builds with ASan and UBSan. HOST_CAPSTONE=n builds
# without Capstone (Buildroot has no capstone): annotate then says it cannot disassemble.

HOST_CFLAGS ?= -O2 -g
HOST_LDFLAGS ?=
host-obj := $(objtree)/host-obj$(if $(filter 1 y,$(HOST_SANITIZE) $(CONFIG_HOST_SANITIZE)),-san)
host-bin := $(objtree)/host$(if $(filter 1 y,$(HOST_SANITIZE) $(CONFIG_HOST_SANITIZE)),-san)

# (in a variable: the commas in it would split the arguments of $(if))
host-san-flags := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TP_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -I$(srctree) -DCONFIG_SHIM_HOSTED=1 \
	-DTP_VERSION='"$(VERSION)"' \
	$(if $(filter 1 y,$(HOST_SANITIZE) $(CONFIG_HOST_SANITIZE)),$(host-san-flags))
HOST_CAPSTONE ?= y
TP_HOST_LIBS := -ldw -lelf -lz -lm
# libarchive, Capstone and ncurses are opened (dlopen) by the commands using them only
# (lib/common/dl.h); the unit tests that build tars themselves link libarchive
TP_HOST_TEST_LIBS := $(TP_HOST_LIBS) -larchive

# The libraries' headers, looked for before anything compiles: what is missing is one line
# naming the Debian packages (the build installs nothing; 'make deps' does).
host-headers := elfutils/libdw.h:libdw-dev libelf.h:libelf-dev archive.h:libarchive-dev \
	capstone/capstone.h:libcapstone-dev zlib.h:zlib1g-dev ncurses.h:libncurses-dev
host-hash := \#
ifneq ($(filter host host-install host-tests,$(MAKECMDGOALS)),)
  host-missing := $(strip $(shell for h in $(host-headers); do \
	echo "$(host-hash)include <$${h%%:*}>" | $(HOSTCC) $(HOST_CFLAGS) -E -x c - >/dev/null 2>&1 || \
	printf '%s ' "$${h$(host-hash)*:}"; done))
  ifneq ($(host-missing),)
    $(error tinyperf: make host needs the headers of $(host-missing): install them ('sudo make deps' does))
  endif
endif

# (the shim's tp_strerror() is left out: host-tools/lib/common/error.c has the host's, the same
# declaration, for errno values and the library's TP codes alike)
host-src := $(wildcard $(srctree)/host-tools/*.c) $(wildcard $(srctree)/host-tools/cli/*.c) \
	$(filter-out %/annotate/disasm$(if $(filter n,$(HOST_CAPSTONE)),,-none).c,\
		$(wildcard $(srctree)/host-tools/lib/*/*.c)) \
	$(wildcard $(srctree)/perfdata/*.c) \
	$(filter-out %/strerror.c,$(wildcard $(srctree)/libc-shim/common/*.c)) \
	$(wildcard $(srctree)/libc-shim/hosted/*.c)
host-objs := $(patsubst $(srctree)/%.c,$(host-obj)/%.o,$(host-src))

$(host-obj)/%.o: $(srctree)/%.c
	$(quiet) HOSTCC $(patsubst $(srctree)/%,%,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOSTCC) $(TP_HOST_CFLAGS) $(HOST_CFLAGS) -MMD -MP -c -o $@ $<

$(host-bin)/tinyperf: $(host-objs)
	$(quiet) HOSTLD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOSTCC) $(TP_HOST_CFLAGS) $(HOST_CFLAGS) $(HOST_LDFLAGS) -o $@ $^ $(TP_HOST_LIBS)

# Host unit tests link the same objects as the tool, minus its main.
host-lib-objs := $(filter-out $(host-obj)/host-tools/main.o $(host-obj)/host-tools/cmd-%.o \
	$(host-obj)/host-tools/cli/%.o,$(host-objs))
# (a test may #include parts of itself: -MMD records them, in host-obj where the .d are read)
test-deps = -MMD -MP -MF $(host-obj)/tests/$(notdir $@).d
$(host-bin)/tests/%: $(srctree)/tests/unit/%.c $(host-lib-objs)
	$(quiet) HOSTLD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D) $(host-obj)/tests
	$(Q)$(HOSTCC) $(TP_HOST_CFLAGS) $(HOST_CFLAGS) $(HOST_LDFLAGS) $(test-deps) -o $@ $< $(host-lib-objs) $(TP_HOST_TEST_LIBS)

# The recorder pieces with logic worth testing on the host (arena, synthesis, DSO tracking,
# build-ids) are compiled again for it, only for tests/unit/test-rec-*.c: the host tool itself
# never links recorder code. A static pattern rule: it takes precedence over the one above.
host-rec-objs := $(patsubst %.c,$(host-obj)/recorder/%.o,$(host-test-y))
host-rec-tests := $(patsubst $(srctree)/tests/unit/%.c,$(host-bin)/tests/%,\
	$(wildcard $(srctree)/tests/unit/test-rec-*.c))
$(host-rec-tests): $(host-bin)/tests/%: $(srctree)/tests/unit/%.c $(host-lib-objs) $(host-rec-objs)
	$(quiet) HOSTLD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D) $(host-obj)/tests
	$(Q)$(HOSTCC) $(TP_HOST_CFLAGS) $(HOST_CFLAGS) $(HOST_LDFLAGS) $(test-deps) -o $@ $< $(host-rec-objs) \
		$(host-lib-objs) $(TP_HOST_TEST_LIBS)

host-unit-tests := $(patsubst $(srctree)/tests/unit/%.c,$(host-bin)/tests/%,$(wildcard $(srctree)/tests/unit/test-*.c))

host: $(host-bin)/tinyperf
host-tests: $(host-bin)/tinyperf $(host-unit-tests)

host-install: $(host-bin)/tinyperf
	$(INSTALL) -D -m 0755 $< $(DESTDIR)$(BINDIR)/tinyperf

-include $(shell find $(host-obj) -name '*.d' 2>/dev/null)
.PHONY: host host-tests host-install
