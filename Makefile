# SPDX-License-Identifier: MIT
# tinyperf: one non-recursive GNU Makefile.
#   the device recorder, configured by Kconfig:  make <board>_defconfig && make
#   the host toolchain for the build machine:    make host
#   everything a newcomer needs:                 make demo / make check
# 'make help' lists the targets and variables.

MAKEFLAGS += -r --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:

srctree := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

# O= (or KBUILD_OUTPUT) puts .config and every output in another directory.
ifeq ("$(origin O)", "command line")
  objtree := $(abspath $(O))
else ifneq ($(KBUILD_OUTPUT),)
  objtree := $(abspath $(KBUILD_OUTPUT))
else
  objtree := $(srctree)
endif

# V=1 prints whole command lines.
ifeq ("$(origin V)", "command line")
  TP_VERBOSE := $(V)
endif
ifeq ($(TP_VERBOSE),1)
  Q :=
  quiet = @true
else
  Q := @
  quiet = @printf '  %-8s %s\n'
endif

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
INSTALL ?= install
HOSTCC ?= cc
TP_DL_DIR ?= $(objtree)/dl

KCONFIG_CONF ?= kconfig-conf
KCONFIG_MCONF ?= kconfig-mconf
KCONFIG_NCONF ?= kconfig-nconf
# The Kconfig engine (README "Kconfig engines"): kconfig-frontends where kconfig-conf is on
# PATH (what configured this project from the start), else Kconfiglib through
# scripts/kconfig.py with the first of python3, /usr/bin/python3 that has it. Both write the
# same .config, auto.conf and autoconf.h (tests/kconfig/run.sh). KCONFIG_ENGINE=frontends
# or kconfiglib forces one. Never installed by the build: 'make deps' does, as root.
find-kconfiglib = $(firstword $(foreach p,python3 /usr/bin/python3,$(shell $(p) -c 'import kconfiglib' >/dev/null 2>&1 && echo $(p))))
KCONFIG_PYTHON ?= $(eval KCONFIG_PYTHON := $$(find-kconfiglib))$(KCONFIG_PYTHON)
KCONFIG_ENGINE ?= $(eval KCONFIG_ENGINE := $$(if $$(shell command -v $$(KCONFIG_CONF)),frontends,$$(if $$(KCONFIG_PYTHON),kconfiglib,none)))$(KCONFIG_ENGINE)

qstrip = $(strip $(subst ",,$(1)))
dot-config := $(objtree)/.config
autoconf := $(objtree)/include/config/auto.conf
autoheader := $(objtree)/include/generated/autoconf.h

# Goals that need no .config.
no-config-goals := %config help clean distclean mrproper host host-install host-tests check demo sizes \
		   deps check-% matrix dist dist-hashes fuzz fuzz-build
build-goals := $(filter-out $(no-config-goals),$(if $(MAKECMDGOALS),$(MAKECMDGOALS),all))

ifneq ($(build-goals),)
  ifeq ($(wildcard $(dot-config)),)
    $(error tinyperf: no .config in $(objtree): run 'make <board>_defconfig' first ('make help' lists the boards))
  endif
  include $(autoconf)
endif
# The host tools honour CONFIG_HOST_* when a configuration exists, but never need one.
ifneq ($(filter host host-install host-tests,$(MAKECMDGOALS)),)
  -include $(autoconf)
endif

all: $(objtree)/tinyperf $(if $(CONFIG_REC_PACK),$(objtree)/tinyperf.packed)
# the outputs by their short names, wherever O= puts them
tinyperf tinyperf.stripped tinyperf.packed: %: $(objtree)/%
	@:
.PHONY: all tinyperf tinyperf.stripped tinyperf.packed

# ---------------------------------------------------------------------------------------
# Kconfig: kconfig-frontends 4.11 (--silentoldconfig writes auto.conf and autoconf.h) or
# Kconfiglib (scripts/kconfig.py syncconfig), whichever KCONFIG_ENGINE names.

kconfig-files := $(srctree)/Kconfig $(wildcard $(srctree)/*/Kconfig)
kconfig-env := srctree=$(srctree) KCONFIG_CONFIG=.config KCONFIG_NOTIMESTAMP=1 \
	KCONFIG_AUTOCONFIG=include/config/auto.conf KCONFIG_AUTOHEADER=include/generated/autoconf.h \
	KCONFIG_TRISTATE=include/config/tristate.conf
kconfiglib = $(KCONFIG_PYTHON) $(srctree)/scripts/kconfig.py
# kconfig CMD[,ARG]: defconfig,FILE olddefconfig oldconfig savedefconfig,OUT syncconfig
# menuconfig nconfig, run in $(objtree) by the engine; a missing engine stops in one line
kc-frontends-defconfig = $(KCONFIG_CONF) -s --defconfig=$(1) $(srctree)/Kconfig
kc-frontends-olddefconfig = $(KCONFIG_CONF) -s --olddefconfig $(srctree)/Kconfig
kc-frontends-oldconfig = $(KCONFIG_CONF) --oldconfig $(srctree)/Kconfig
kc-frontends-savedefconfig = $(KCONFIG_CONF) --savedefconfig=$(1) $(srctree)/Kconfig
kc-frontends-syncconfig = $(KCONFIG_CONF) -s --olddefconfig $(srctree)/Kconfig && \
	$(kconfig-env) $(KCONFIG_CONF) --silentoldconfig $(srctree)/Kconfig
kc-frontends-menuconfig = $(KCONFIG_MCONF) $(srctree)/Kconfig
kc-frontends-nconfig = $(KCONFIG_NCONF) $(srctree)/Kconfig
kc-kconfiglib-defconfig = $(kconfiglib) defconfig $(1)
kc-kconfiglib-olddefconfig = $(kconfiglib) olddefconfig
kc-kconfiglib-oldconfig = $(kconfiglib) oldconfig
kc-kconfiglib-savedefconfig = $(kconfiglib) savedefconfig $(1)
kc-kconfiglib-syncconfig = $(kconfiglib) syncconfig
# Kconfiglib has one full-screen interface
kc-kconfiglib-menuconfig = $(kconfiglib) menuconfig
kc-kconfiglib-nconfig = $(kconfiglib) menuconfig
kconfig-ok = $(if $(filter frontends,$(KCONFIG_ENGINE)),$(shell command -v $(KCONFIG_CONF)),$(if $(filter kconfiglib,$(KCONFIG_ENGINE)),$(KCONFIG_PYTHON)))
kconfig-why = tinyperf: $(if $(filter none,$(KCONFIG_ENGINE)),no Kconfig engine: install python3-kconfiglib (pip: kconfiglib) or kconfig-frontends-nox ('sudo make deps' installs both),KCONFIG_ENGINE=$(KCONFIG_ENGINE) is not usable here: $(if $(filter frontends,$(KCONFIG_ENGINE)),$(KCONFIG_CONF) is not on PATH (Debian kconfig-frontends-nox),$(if $(filter kconfiglib,$(KCONFIG_ENGINE)),neither python3 nor /usr/bin/python3 can import kconfiglib (Debian python3-kconfiglib),use frontends or kconfiglib)))
kconfig = mkdir -p $(objtree)/include/config $(objtree)/include/generated && cd $(objtree) && \
	$(if $(kconfig-ok),$(kconfig-env) $(call kc-$(KCONFIG_ENGINE)-$(1),$(2)),{ echo "$(kconfig-why)" >&2; exit 1; })
# the configuration goals check first, to stop in one line (a build that must regenerate
# auto.conf stops in its recipe)
ifneq ($(filter %config,$(MAKECMDGOALS)),)
  ifeq ($(kconfig-ok),)
    $(error $(kconfig-why))
  endif
endif

%_defconfig: FORCE
	$(if $(wildcard $(srctree)/boards/$@),,$(error tinyperf: no board '$*' (boards/$@ does not exist): 'make help' lists the boards))
	$(Q)mkdir -p $(objtree)
	$(Q)cat $(srctree)/boards/$@ $(KCONFIG_FRAGMENTS) > $(objtree)/.defconfig.in
	$(Q)$(call kconfig,defconfig,.defconfig.in)
	$(Q)rm -f $(objtree)/.defconfig.in
	@echo "tinyperf: configured for $* in $(objtree)/.config ($(if $(filter kconfiglib,$(KCONFIG_ENGINE)),Kconfiglib,kconfig-frontends))"

olddefconfig oldconfig menuconfig nconfig: FORCE
	$(Q)$(call kconfig,$@)

# auto.conf and autoconf.h for the .config, without building (what a build does first)
syncconfig: FORCE
	$(if $(wildcard $(dot-config)),,$(error tinyperf: no .config in $(objtree): run 'make <board>_defconfig' first))
	$(Q)$(call kconfig,syncconfig)

savedefconfig: FORCE
	$(if $(wildcard $(dot-config)),,$(error tinyperf: no .config to save in $(objtree): run 'make <board>_defconfig' first))
	$(Q)$(call kconfig,savedefconfig,defconfig)
	@echo "tinyperf: wrote $(objtree)/defconfig"

# New options in Kconfig take their defaults without asking (builds run unattended under
# Buildroot, Yocto and CI); 'make oldconfig' asks, 'make menuconfig' shows them.
$(autoconf): $(dot-config) $(kconfig-files)
	$(Q)$(call kconfig,syncconfig)
	$(Q)touch $@

$(autoheader): $(autoconf)

# ---------------------------------------------------------------------------------------
# Toolchain: Kconfig gives the arch facts; CROSS_COMPILE/CC/CFLAGS/LDFLAGS stay the user's.

ARCH_NAME := $(call qstrip,$(CONFIG_ARCH_NAME))
CROSS_COMPILE ?= $(call qstrip,$(CONFIG_ARCH_CROSS_COMPILE))
ifeq ($(origin CC),default)
  CC := $(CROSS_COMPILE)gcc
endif
STRIP ?= $(CROSS_COMPILE)strip
# Default tuning is for size (issue 3, README "Size budgets"): -Oz only pays on x86 (-1.3 KiB;
# +0.2 KiB elsewhere); not inlining small functions saves 0.1-0.7 KiB on every target.
CFLAGS ?= $(if $(filter x86_64 i386,$(ARCH_NAME)),-Oz,-Os) -fno-inline-small-functions -g
LDFLAGS ?=

ifneq ($(build-goals),)
ifneq ($(origin ARCH),undefined)
  ifeq ($(filter $(ARCH),$(call qstrip,$(CONFIG_ARCH_ALIASES))),)
    $(error tinyperf: ARCH=$(ARCH) does not match the configured arch $(ARCH_NAME): run 'make <board>_defconfig' for that arch, or drop ARCH=)
  endif
endif
endif

# Checked at parse time, so that a wrong or missing compiler stops the build with one line
# saying what to do (never installed by the build: 'make deps' does).
toolchain-mk := $(objtree)/include/config/toolchain.mk
ifneq ($(build-goals),)
ifneq ($(wildcard $(autoconf)),)
  # read with $(file) rather than include: make must not try to remake it
  ifneq ($(wildcard $(toolchain-mk)),)
    $(eval $(file < $(toolchain-mk)))
  endif
  ifneq ($(TOOLCHAIN_ID),$(CC)|$(CONFIG_SHIM_MUSL)$(CONFIG_SHIM_MUSL_FROM_SOURCE)|$(CONFIG_ARCH_NAME))
    tc-ok := $(shell mkdir -p $(dir $(toolchain-mk)) && TP_ERR_FILE=$(toolchain-mk).err \
	$(srctree)/scripts/toolchain.sh cc "$(CC)" "$(call qstrip,$(CONFIG_ARCH_CC_MACRO))" \
		"$(if $(filter command environment,$(origin CROSS_COMPILE) $(origin CC)),,$(call qstrip,$(CONFIG_ARCH_DEB_GCC)))" && \
	{ echo 'TOOLCHAIN_ID := $(CC)|$(CONFIG_SHIM_MUSL)$(CONFIG_SHIM_MUSL_FROM_SOURCE)|$(CONFIG_ARCH_NAME)'; \
	$(if $(CONFIG_SHIM_MUSL),TP_ERR_FILE=$(toolchain-mk).err $(srctree)/scripts/toolchain.sh musl "$(call qstrip,$(CONFIG_ARCH_DEB_ARCH))" \
		"$(call qstrip,$(CONFIG_ARCH_MUSL_TRIPLET))" "$(CC)" "$(TP_DL_DIR)" "$(if $(CONFIG_SHIM_MUSL_FROM_SOURCE),y,n)" &&) true; \
	} > $(toolchain-mk).tmp && mv $(toolchain-mk).tmp $(toolchain-mk) && echo ok)
    ifneq ($(tc-ok),ok)
      $(error $(shell cat $(toolchain-mk).err 2>/dev/null || echo "tinyperf: toolchain setup failed"))
    endif
    $(eval $(file < $(toolchain-mk)))
  endif
endif
endif

libgcc = $(shell $(CC) -print-libgcc-file-name)
gcc-include = $(shell $(CC) -print-file-name=include)

# A -mcpu= from a toolchain wrapper or CFLAGS names the core, and so its architecture: the
# arch's -march would contradict it (Buildroot's armv7 wrapper: "switch '-mcpu=cortex-a9'
# conflicts with switch '-march=armv7-a+fp'", an error with -Werror)
arch-cflags := $(call qstrip,$(CONFIG_ARCH_CFLAGS))
ifneq ($(filter -mcpu=%,$(CC) $(CFLAGS)),)
  arch-cflags := $(filter-out -march=%,$(arch-cflags))
endif

TP_CFLAGS := -std=c11 -Wall -Wextra -Werror -I$(srctree) -include $(autoheader) \
	-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-pie -fno-ident -DTP_VERSION='"$(VERSION)"' $(arch-cflags) \
	$(if $(CONFIG_ARCH_ARMV7),$(if $(CONFIG_ARCH_ARM_THUMB),-mthumb,-marm))
TP_CFLAGS += $(if $(CONFIG_REC_LTO),-flto)
# One LTO partition: the whole recorder in one unit, so interprocedural register allocation
# sees every call (between partitions calls follow the full ABI) and inlining is not cut at
# partition borders. Measured on the default recorder, stripped: -72 (armv7) to -520 (x86_64)
# bytes freestanding, -32 (armv7) to -832 (mipsel) with musl.
TP_LDFLAGS := -no-pie -Wl,--gc-sections -Wl,--build-id=sha1 -Wl,-z,noseparate-code \
	$(if $(CONFIG_REC_LTO),-flto=auto -flto-partition=one) \
	$(if $(CONFIG_ARCH_AARCH64),$(if $(CONFIG_ARCH_AARCH64_64K_PAGES),,-Wl,-z,max-page-size=4096))

# musl and freestanding never apply RELRO in a static binary. With RELRO on, or a 4 KiB
# common page size, ld page-aligns the data segment in the file (x86: up to 4 KiB of padding);
# with both off it keeps the segment's offset within the page (measured: x86_64 -1.8 KiB).
static-ldflags := -static -nostdlib -Wl,-z,norelro -Wl,-z,common-page-size=16

# Flags after the user's CFLAGS and LDFLAGS, for what a build system's hardening set cannot
# mean here (tests/build/build-vars.sh replays Buildroot's and Yocto's). A static link stays
# position-dependent: gcc's driver drops -pie when -static is given, so -fPIE -pie in CFLAGS
# and LDFLAGS would only make the code bigger, with no ASLR for it (musl, stripped: x86_64
# +1.5 KB, i386 +4.7, armv7 +3.5, aarch64 +1.3, mips +14.7). musl and freestanding never
# apply RELRO in a static binary, so Yocto's -z relro would only pad it; freestanding has no
# canary (x86 keeps it in TLS, which it never sets up): no stack protector there. musl
# honours -fstack-protector (its libc.a has the canary) and ignores _FORTIFY_SOURCE, as
# freestanding's headers do.
no-relro := -Wl,-z,norelro
TP_CFLAGS_LAST := $(if $(CONFIG_SHIM_FREESTANDING)$(CONFIG_SHIM_MUSL)$(CONFIG_SHIM_STATIC),-fno-pie) \
	$(if $(CONFIG_SHIM_FREESTANDING),-fno-stack-protector)
TP_LDFLAGS_LAST := $(if $(CONFIG_SHIM_FREESTANDING)$(CONFIG_SHIM_MUSL)$(CONFIG_SHIM_STATIC),-no-pie) \
	$(if $(CONFIG_SHIM_FREESTANDING)$(CONFIG_SHIM_MUSL),$(no-relro))

ifeq ($(CONFIG_SHIM_FREESTANDING),y)
  # -ffreestanding implies -fno-builtin, which makes every memcpy(&v, p, 8) and strlen("...")
  # a call: -fbuiltin lets gcc expand them as it does with musl (x86_64 -1.3 KiB). The files
  # that define or test those functions keep -fno-builtin (below).
  TP_CFLAGS += -ffreestanding -fbuiltin -nostdinc -isystem $(gcc-include) -fno-stack-protector \
	-U_FORTIFY_SOURCE
  TP_LDFLAGS += $(static-ldflags)
  link-pre :=
  link-post = $(libgcc)
else ifeq ($(CONFIG_SHIM_MUSL),y)
  TP_CFLAGS += -nostdinc -isystem $(MUSL_INC) -isystem $(gcc-include) -U_FORTIFY_SOURCE
  TP_LDFLAGS += $(static-ldflags)
  # no crtbeginT.o/crtend.o: they register C++ exception frames and transactional-memory
  # clones, neither of which this C program has; musl runs .init_array itself (-0.3 KiB)
  link-pre = $(MUSL_LIB)/crt1.o $(MUSL_LIB)/crti.o
  link-post = -Wl,--start-group $(MUSL_LIB)/libc.a $(libgcc) -Wl,--end-group $(MUSL_LIB)/crtn.o
else
  TP_LDFLAGS += $(if $(CONFIG_SHIM_STATIC),-static)
  link-pre :=
  link-post :=
endif

# ---------------------------------------------------------------------------------------
# Sources: whole files swap with the configuration (obj-$(CONFIG_X) style).

shim-src := $(wildcard $(srctree)/libc-shim/common/*.c) \
	$(wildcard $(srctree)/libc-shim/$(if $(CONFIG_SHIM_FREESTANDING),freestanding,hosted)/*.c)
# The recorder: each folder's Kbuild lists its files, rec-y for every build, rec-$(CONFIG_X)
# for a feature's (its call sites test IS_ENABLED(CONFIG_X)); a new file is linked once a
# Kbuild names it. The same fragments say which files stay MIPS32 (mips16-off-y) and which the
# host unit tests compile (host-test-y, host-tools/host.mk), and the fuzz targets beyond
# those (host-fuzz-y, tests/fuzz/fuzz.mk). Paths are relative to recorder/;
# rec-dirs lists the folders bottom first. perfdata/Kbuild: what the recorder links of it.
rec-dirs := base events track embed out record stat pack
rec-y :=
mips16-off-y :=
host-test-y :=
host-fuzz-y :=
pack-y :=
perfdata-y :=
$(foreach d,$(rec-dirs),$(eval include $(srctree)/recorder/$(d)/Kbuild))
include $(srctree)/perfdata/Kbuild
perfdata-src := $(addprefix $(srctree)/perfdata/,$(sort $(perfdata-y)))
# Linked in the order of their file names, whatever their folder, as the flat tree was: LTO's
# partitions follow the link order, and the folders' order moved the sizes by -152..+48 bytes
rec-sorted = $(foreach n,$(sort $(notdir $(1))),$(filter %/$(n) $(n),$(1)))
recorder-src := $(addprefix $(srctree)/recorder/,$(call rec-sorted,main.c $(rec-y)))

obj := $(objtree)/obj
src2obj = $(patsubst $(srctree)/%.c,$(obj)/%.o,$(1))
shim-obj := $(call src2obj,$(shim-src))
perfdata-obj := $(call src2obj,$(perfdata-src))
recorder-obj := $(call src2obj,$(recorder-src))

# Objects are rebuilt when the flags change (menuconfig, CFLAGS=, another CC): the flags of
# the last build are kept in a stamp file that is rewritten only when they differ.
flags-stamp := $(objtree)/include/config/flags
flags-now := $(CC) $(TP_CFLAGS) $(CFLAGS) $(TP_CFLAGS_LAST) $(TP_LDFLAGS) $(LDFLAGS) \
	$(TP_LDFLAGS_LAST) $(link-pre) $(link-post)
ifneq ($(build-goals),)
ifneq ($(wildcard $(autoconf)),)
  ifneq ($(flags-now),$(file < $(flags-stamp)))
    $(file > $(flags-stamp),$(flags-now))
  endif
endif
endif

$(obj)/%.o: $(srctree)/%.c $(autoheader) $(flags-stamp)
	$(quiet) CC $(patsubst $(srctree)/%,%,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(TP_CFLAGS) $(CFLAGS) $(TP_CFLAGS_LAST) -MMD -MP -c -o $@ $<

# The compiler itself emits calls to memcpy/memset and the 64-bit division helpers, and libgcc
# calls raise(): those must stay real global symbols, so their files are kept out of LTO.
$(obj)/libc-shim/freestanding/string.o $(obj)/libc-shim/freestanding/libgcc.o \
$(obj)/libc-shim/common/div64.o: TP_CFLAGS += -fno-lto

# string.c defines memcpy and the rest: as builtins, gcc could turn them into calls to
# themselves; tests/ must call the implementations, not have gcc fold strlen("abc") to 3
$(obj)/libc-shim/freestanding/string.o $(obj)/tests/%.o: TP_CFLAGS += -fno-builtin

# MIPS16e everywhere but the files whose inline asm needs MIPS32 (syscall, startup, the ring's
# barriers) and tests/arch; -minterlink-mips16 lets MIPS32 code call either kind. Those files
# stay out of LTO: LTO's partitions take one ISA mode from the command lines of all their
# objects (lto-wrapper merges them), so MIPS32 asm inlined there meets the MIPS16 assembler.
mips16-off := $(call src2obj,$(addprefix $(srctree)/,libc-shim/freestanding/sys.c \
	libc-shim/freestanding/start.c libc-shim/freestanding/link.c \
	libc-shim/freestanding/libgcc.c $(addprefix recorder/,$(mips16-off-y))))
ifeq ($(CONFIG_ARCH_MIPS16),y)
TP_CFLAGS += -minterlink-mips16
$(filter-out $(mips16-off),$(recorder-obj) $(perfdata-obj) $(shim-obj)): TP_CFLAGS += -mips16
$(mips16-off) $(obj)/tests/%.o: TP_CFLAGS += -fno-lto
endif

link = $(CC) $(TP_CFLAGS) $(CFLAGS) $(TP_CFLAGS_LAST) $(TP_LDFLAGS) $(LDFLAGS) $(TP_LDFLAGS_LAST) \
	-o $@ $(link-pre) $(1) $(link-post)

$(objtree)/tinyperf: $(recorder-obj) $(perfdata-obj) $(shim-obj) $(flags-stamp)
	$(quiet) LD $(patsubst $(srctree)/%,%,$@)
	$(Q)$(call link,$(filter %.o,$^))

$(objtree)/tinyperf.stripped: $(objtree)/tinyperf
	$(quiet) STRIP $(notdir $@)
	$(Q)$(STRIP) -R .comment -o $@ $<

# CONFIG_REC_PACK: tinyperf.packed, the stripped recorder as a raw LZMA2 payload behind
# recorder/pack/unpack.c, which decodes it into a memory file and executes that
$(obj)/pack/tinyperf.xz: $(objtree)/tinyperf.stripped $(autoheader)
	$(quiet) XZ $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D)
	$(Q)command -v xz >/dev/null || { echo "tinyperf: CONFIG_REC_PACK needs xz: install xz-utils (or say N to REC_PACK in make menuconfig)" >&2; exit 1; }
	$(Q)xz --format=raw --lzma2=$(call qstrip,$(CONFIG_ARCH_PACK_XZ)) -c $< > $@

$(obj)/pack/payload.o: $(srctree)/recorder/pack/payload.S $(obj)/pack/tinyperf.xz
	$(quiet) AS $(patsubst $(srctree)/%,%,$<)
	$(Q)$(CC) $(TP_CFLAGS) $(CFLAGS) $(TP_CFLAGS_LAST) -DTP_PAYLOAD='"$(obj)/pack/tinyperf.xz"' \
		-DTP_PAYLOAD_SIZE=$$(stat -c %s $(objtree)/tinyperf.stripped) -c -o $@ $<

$(objtree)/tinyperf.packed: $(call src2obj,$(addprefix $(srctree)/recorder/,$(pack-y))) \
		$(obj)/pack/payload.o $(shim-obj) $(flags-stamp)
	$(quiet) LD $(patsubst $(objtree)/%,%,$@)
	$(Q)$(call link,$(filter %.o,$^))
	$(Q)$(STRIP) -R .comment $@

# tests/arch: one program exercising every syscall wrapper and barrier; tests/dev: the ring
# reader and the writer. Both built per target and run natively and under qemu-user.
arch-test-src := $(filter-out $(srctree)/tests/arch/abi-check.c,$(wildcard $(srctree)/tests/arch/*.c)) \
	$(if $(CONFIG_SHIM_HOSTED),$(srctree)/tests/arch/abi-check.c)
$(objtree)/test-bin/arch-test: $(call src2obj,$(arch-test-src)) $(shim-obj)
	$(quiet) LD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(call link,$(filter %.o,$^))

$(objtree)/test-bin/test-dev: $(call src2obj,$(wildcard $(srctree)/tests/dev/*.c)) \
		$(obj)/recorder/events/ring.o $(obj)/recorder/events/ring-backward.o $(perfdata-obj) $(shim-obj)
	$(quiet) LD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(call link,$(filter %.o,$^))

# Native where this machine can run the target (x86 here; i386 only where the kernel runs
# 32-bit programs: tests/lib.sh's ia32_ok), and always under qemu-user.
QEMU_USER := $(call qstrip,$(CONFIG_ARCH_QEMU_USER))
native-arch := $(shell uname -m | sed 's/i.86/i386/')
can-run-native := $(filter $(ARCH_NAME),$(native-arch) $(if $(filter x86_64,$(native-arch)),i386))
test-arch: $(objtree)/test-bin/arch-test $(objtree)/test-bin/test-dev
	$(if $(can-run-native),$(Q)if [ $(ARCH_NAME) = $(native-arch) ] || sh -c '. \
		$(srctree)/tests/lib.sh && { ia32_ok || ! echo "[SKIP] native: $$IA32_OFF"; }'; then \
		echo "-- native"; $< && $(objtree)/test-bin/test-dev; fi)
	$(Q)echo "-- $(QEMU_USER)"; $(QEMU_USER) $< && $(QEMU_USER) $(objtree)/test-bin/test-dev
.PHONY: test-arch

# packed (CONFIG_REC_PACK), both install tinyperf.packed: it is the file meant for the device
install: $(objtree)/$(if $(CONFIG_REC_PACK),tinyperf.packed,tinyperf)
	$(INSTALL) -D -m 0755 $< $(DESTDIR)$(BINDIR)/tinyperf

install-strip: $(objtree)/$(if $(CONFIG_REC_PACK),tinyperf.packed,tinyperf.stripped)
	$(INSTALL) -D -m 0755 $< $(DESTDIR)$(BINDIR)/tinyperf

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tinyperf
.PHONY: install install-strip uninstall

-include $(shell find $(obj) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------------------------------
# Host toolchain: built for the build machine with HOSTCC, never from .config's arch.

include $(srctree)/host-tools/host.mk
# The libFuzzer targets (clang): make fuzz-build, make fuzz FUZZ_SECONDS=N.
include $(srctree)/tests/fuzz/fuzz.mk

# ---------------------------------------------------------------------------------------
# The two README commands, and the matrix of targets they build.

deps:
	$(Q)$(srctree)/scripts/deps.sh all

demo:
	$(Q)$(srctree)/scripts/demo.sh

check:
	$(Q)$(srctree)/tests/run.sh

sizes:
	$(Q)$(srctree)/scripts/matrix.sh sizes

# full-system tests alone: the six Debian-kernel guests, or all seven (+ big-endian MIPS,
# whose kernel is built from source once: about 4 minutes)
check-qemu:
	$(Q)$(if $(BOARDS),QEMU_BOARDS="$(BOARDS)") $(srctree)/tests/qemu/run.sh
check-qemu-all:
	$(Q)QEMU_BOARDS=all $(srctree)/tests/qemu/run.sh
# make check with the big-endian MIPS guest too (its kernel is built from linux-source-6.1)
check-full:
	$(Q)QEMU_BOARDS=all $(srctree)/tests/run.sh

# ---------------------------------------------------------------------------------------
# Release tarball: what the Buildroot package and the Yocto recipe fetch. The git-tracked
# tree at DIST_REF (HEAD unless told), under tinyperf-$(VERSION)/; reproducible: git archive
# stamps every file with the commit's time and gzip -n leaves out name and time, so the same
# commit always gives the same sha256. Needs a git checkout (an unpacked tarball is already one).
# dist-hashes writes the tarball's sha256 into the two hash files (buildroot/README.md: only
# for a release, from its tag: a tarball of the tree cannot carry its own hash).
DIST_REF ?= HEAD
dist-name := tinyperf-$(VERSION)
dist-tarball := $(objtree)/$(dist-name).tar.gz
br-hash := $(srctree)/buildroot/package/tinyperf/tinyperf.hash
bb-recipe := $(srctree)/yocto/meta-tinyperf/recipes-devtools/tinyperf/tinyperf_$(VERSION).bb

ifneq ($(filter dist dist-hashes,$(MAKECMDGOALS)),)
  ifeq ($(shell git -C $(srctree) rev-parse --verify -q '$(DIST_REF)^{commit}' 2>/dev/null),)
    $(error tinyperf: make dist needs a git checkout with '$(DIST_REF)' in it ($(srctree) is not one, or has no such commit))
  endif
endif

dist:
	$(Q)mkdir -p $(objtree)
	$(Q)git -C $(srctree) archive --format=tar --prefix=$(dist-name)/ '$(DIST_REF)' | gzip -n -9 > $(dist-tarball).tmp
	$(Q)mv $(dist-tarball).tmp $(dist-tarball)
	$(Q)git -C $(srctree) diff --quiet HEAD -- 2>/dev/null || [ '$(DIST_REF)' != HEAD ] || \
		echo "tinyperf: note: the tarball holds the last commit, not the uncommitted changes" >&2
	@echo "tinyperf: wrote $(dist-tarball) ($(DIST_REF) = $$(git -C $(srctree) rev-parse --short '$(DIST_REF)^{commit}'))"
	@echo "sha256  $$(sha256sum $(dist-tarball) | cut -d' ' -f1)  $(dist-name).tar.gz"

dist-hashes: dist
	$(Q)h=$$(sha256sum $(dist-tarball) | cut -d' ' -f1) && \
	sed -i "s/^sha256  [0-9a-f]\{64\}  $(dist-name)\.tar\.gz\$$/sha256  $$h  $(dist-name).tar.gz/" $(br-hash) && \
	sed -i "s/^SRC_URI\[sha256sum\] = \"[0-9a-f]\{64\}\"\$$/SRC_URI[sha256sum] = \"$$h\"/" $(bb-recipe) && \
	grep -q "^sha256  $$h  $(dist-name)\.tar\.gz\$$" $(br-hash) && grep -q "^SRC_URI\[sha256sum\] = \"$$h\"\$$" $(bb-recipe) || \
		{ echo "tinyperf: could not write the sha256 into $(br-hash) and $(bb-recipe) (no line for $(dist-name).tar.gz)" >&2; exit 1; }
	@echo "tinyperf: wrote the sha256 of $(dist-name).tar.gz ($(DIST_REF)) into $(patsubst $(srctree)/%,%,$(br-hash)) and $(patsubst $(srctree)/%,%,$(bb-recipe))"
.PHONY: dist dist-hashes

clean:
	rm -rf $(objtree)/obj $(objtree)/host-obj* $(objtree)/test-bin $(objtree)/host $(objtree)/host-san \
		$(objtree)/tinyperf $(objtree)/tinyperf.stripped $(objtree)/tinyperf.packed

distclean mrproper: clean
	rm -rf $(objtree)/.config $(objtree)/.config.old $(objtree)/include/config \
		$(objtree)/include/generated $(objtree)/defconfig $(objtree)/.kconfig-ok \
		$(if $(filter $(srctree),$(objtree)),$(srctree)/out)

help:
	@echo 'Configuration:'
	@echo '  <board>_defconfig  - configure for a board in boards/:'
	@for f in $(notdir $(wildcard $(srctree)/boards/*_defconfig)); do echo "                         $$f"; done
	@echo '  menuconfig nconfig - edit .config (kconfig-mconf / kconfig-nconf; Kconfiglib: its menuconfig)'
	@echo '  oldconfig          - update .config, asking about new options'
	@echo '  olddefconfig       - update .config, new options at their defaults'
	@echo '  savedefconfig      - write the minimal ./defconfig for this .config'
	@echo '  syncconfig         - write include/config/auto.conf, include/generated/autoconf.h'
	@echo 'Build:'
	@echo '  all (default)      - the device recorder: $$O/tinyperf (unstripped)'
	@echo '  host               - the host toolchain for this machine: $$O/host/tinyperf'
	@echo '  install            - install the recorder into $$DESTDIR$$PREFIX/bin (unstripped)'
	@echo '  install-strip      - the same, stripped'
	@echo '  tinyperf.packed    - the stripped recorder xz-packed (REC_PACK=y: built by all, and'
	@echo '                       what both installs install)'
	@echo '  host-install       - install the host toolchain into $$DESTDIR$$PREFIX/bin'
	@echo '  test-arch          - run tests/arch for this .config (qemu-user when foreign)'
	@echo '  clean distclean    - remove outputs / outputs and configuration'
	@echo 'Whole project:'
	@echo '  demo               - install deps, build, record a workload, show the report'
	@echo '  check              - install deps, build every target, run the whole test suite'
	@echo '  sizes              - build all six targets x {musl, freestanding} and print sizes'
	@echo '  check-qemu         - only the full-system tests (6 guests, BOARDS="qemu-armv7 ..." to pick)'
	@echo '  check-qemu-all     - the same with the big-endian MIPS guest (kernel built once, ~4 min)'
	@echo '  check-full         - make check with the big-endian MIPS guest'
	@echo '  fuzz               - every libFuzzer target (tests/fuzz/fuzz-*.c) FUZZ_SECONDS=N each'
	@echo '                       (default 600), FUZZ_TARGETS="reader trace" to pick; crashes in'
	@echo '                       $$O/fuzz/<target>/; fuzz-build only builds them ($$O/fuzz/bin)'
	@echo '  deps               - install the Debian packages the above need (root)'
	@echo '  dist               - tinyperf-$(VERSION).tar.gz of the committed tree (DIST_REF=HEAD), its sha256'
	@echo '  dist-hashes        - make dist, then write its sha256 into the Buildroot and Yocto hash files'
	@echo 'Variables: O=DIR V=1 CROSS_COMPILE=PREFIX CC= CFLAGS= LDFLAGS= HOSTCC= ARCH='
	@echo '           DESTDIR= PREFIX= KCONFIG_FRAGMENTS="a.config b.config" TP_DL_DIR=DIR'
	@echo '           KCONFIG_ENGINE=frontends|kconfiglib (default: frontends where installed)'

.PHONY: deps demo check check-qemu check-qemu-all check-full sizes clean distclean mrproper help menuconfig nconfig \
	olddefconfig oldconfig savedefconfig syncconfig FORCE
FORCE:
