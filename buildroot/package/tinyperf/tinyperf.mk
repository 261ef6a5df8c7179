# SPDX-License-Identifier: MIT
################################################################################
#
# tinyperf
#
################################################################################

TINYPERF_VERSION = 0.1.0
TINYPERF_SITE = https://github.com/tinyperf/tinyperf/releases/download/v$(TINYPERF_VERSION)
TINYPERF_LICENSE = MIT
TINYPERF_LICENSE_FILES = LICENSE
TINYPERF_INSTALL_STAGING = YES

# The recorder's arch comes from the board defconfig of its arch; the
# sub-options and the fragments are merged into it.
TINYPERF_ARCH = $(strip \
	$(if $(BR2_x86_64),x86_64) \
	$(if $(BR2_i386),i386) \
	$(if $(BR2_arm),armv7) \
	$(if $(BR2_aarch64),aarch64) \
	$(if $(BR2_mipsel),mipsel) \
	$(if $(BR2_mips),mips))
TINYPERF_KCONFIG_DEFCONFIG = qemu-$(TINYPERF_ARCH)_defconfig
TINYPERF_KCONFIG_FRAGMENT_FILES = \
	$(call qstrip,$(BR2_PACKAGE_TINYPERF_CONFIG_FRAGMENT_FILES))
TINYPERF_KCONFIG_EDITORS = menuconfig

ifeq ($(BR2_PACKAGE_TINYPERF_PACK),y)
TINYPERF_DEPENDENCIES += host-xz
endif

ifeq ($(BR2_PACKAGE_TINYPERF_LIBC_FREESTANDING),y)
TINYPERF_LIBC = FREESTANDING
else
TINYPERF_LIBC = TOOLCHAIN_LIBC
endif

# BR2_PACKAGE_TINYPERF_<X> sets the recorder's CONFIG_REC_<X>
TINYPERF_FEATURES = STREAMS FLIGHT CALLGRAPH_DWARF STAT STAT_EXTRA TRACEPOINTS EMBED_SYMBOLS \
	KSYMS_CACHE EMBED_MINIDEBUGINFO BUILDID_CACHE LIST PACK

define TINYPERF_KCONFIG_FIXUP_CMDS
	$(foreach l,MUSL TOOLCHAIN_LIBC FREESTANDING,\
		$(call KCONFIG_DISABLE_OPT,CONFIG_SHIM_$(l))$(sep))
	$(call KCONFIG_ENABLE_OPT,CONFIG_SHIM_$(TINYPERF_LIBC))
	$(if $(BR2_PACKAGE_TINYPERF_STATIC),\
		$(call KCONFIG_ENABLE_OPT,CONFIG_SHIM_STATIC),\
		$(call KCONFIG_DISABLE_OPT,CONFIG_SHIM_STATIC))
	$(foreach f,$(TINYPERF_FEATURES),\
		$(if $(BR2_PACKAGE_TINYPERF_$(f)),\
			$(call KCONFIG_ENABLE_OPT,CONFIG_REC_$(f)),\
			$(call KCONFIG_DISABLE_OPT,CONFIG_REC_$(f)))$(sep))
endef

# CC and the flags are Buildroot's; the Makefile adds only what the
# recorder's code needs.
TINYPERF_MAKE_OPTS = \
	CROSS_COMPILE="$(TARGET_CROSS)" \
	CC="$(TARGET_CC)" \
	CFLAGS="$(TARGET_CFLAGS)" \
	LDFLAGS="$(TARGET_LDFLAGS)" \
	STRIP="$(TARGET_STRIP)" \
	PREFIX=/usr

define TINYPERF_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(TINYPERF_MAKE_OPTS)
endef

# unstripped in staging, for the host tool's --sysroot output/staging
define TINYPERF_INSTALL_STAGING_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(TINYPERF_MAKE_OPTS) \
		DESTDIR=$(STAGING_DIR) install
endef

define TINYPERF_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(TINYPERF_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) install
endef

# The host tools. Buildroot has no capstone: annotate's disassembly is
# left out (HOST_CAPSTONE=n).
HOST_TINYPERF_DEPENDENCIES = host-elfutils host-libarchive host-ncurses \
	host-zlib

HOST_TINYPERF_MAKE_OPTS = \
	HOSTCC="$(HOSTCC)" \
	HOST_CFLAGS="$(HOST_CFLAGS)" \
	HOST_LDFLAGS="$(HOST_LDFLAGS)" \
	HOST_CAPSTONE=n \
	PREFIX=$(HOST_DIR)

define HOST_TINYPERF_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_TINYPERF_MAKE_OPTS) host
endef

define HOST_TINYPERF_INSTALL_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_TINYPERF_MAKE_OPTS) host-install
endef

$(eval $(kconfig-package))
$(eval $(host-generic-package))
