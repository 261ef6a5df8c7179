SUMMARY = "Tiny static perf.data recorder for embedded Linux, and its host tools"
DESCRIPTION = "tinyperf record: one small static binary that samples the system \
through perf_event_open() and writes perf.data, with no kernel tree and no \
libtraceevent. tinyperf-native and nativesdk-tinyperf: the host tools \
(report, script, annotate, flamegraph, top...) that resolve its recordings \
against a sysroot or the image's debug filesystem."
HOMEPAGE = "https://github.com/tinyperf/tinyperf"
SECTION = "devel"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://LICENSE;md5=b952ea76c0e7762072a9c5e6dbdc2591"

# the release tarball: 'make dist' of the v${PV} tag
SRC_URI = "https://github.com/tinyperf/tinyperf/releases/download/v${PV}/tinyperf-${PV}.tar.gz"
SRC_URI[sha256sum] = "00acc414de3c15a23336f558e569975f0e3d45d0e3579f7f233b8114dd9d0ae3"

# The recorder: x86, ARMv7-A hard-float, AArch64, MIPS32 o32 (not R6)
COMPATIBLE_HOST:class-target = "(x86_64|i.86|aarch64|arm|mips|mipsel)(-.*)?-linux.*"
COMPATIBLE_HOST:class-target:armv4 = "null"
COMPATIBLE_HOST:class-target:armv5 = "null"
COMPATIBLE_HOST:class-target:armv6 = "null"

# The recorder is configured with Kconfig (the Kconfiglib engine); the host
# tools need no configuration but build with elfutils, libarchive, zlib, ncurses.
DEPENDS:append:class-target = " python3-kconfiglib-native"
DEPENDS:append:class-native = " elfutils-native libarchive-native zlib-native ncurses-native"
DEPENDS:append:class-nativesdk = " nativesdk-elfutils nativesdk-libarchive nativesdk-zlib nativesdk-ncurses"
# libarchive, ncurses (and capstone) are opened with dlopen by the commands that use them,
# so the shared-library scan does not see them: the SDK package names them
RDEPENDS:${PN}:append:class-nativesdk = " nativesdk-libarchive nativesdk-ncurses-libncursesw"

B = "${WORKDIR}/build"
EXTRA_OEMAKE = "-C ${S} O=${B} V=1 PREFIX=${prefix}"

# The recorder's optional features (recorder/Kconfig: CONFIG_REC_*); static
# links the recorder statically against the image's C library.
PACKAGECONFIG ??= "streams flight callgraph-dwarf stat stat-extra tracepoints embed-symbols ksyms-cache list"
PACKAGECONFIG[streams] = ""
PACKAGECONFIG[flight] = ""
PACKAGECONFIG[callgraph-dwarf] = ""
PACKAGECONFIG[stat] = ""
PACKAGECONFIG[stat-extra] = ""
PACKAGECONFIG[tracepoints] = ""
PACKAGECONFIG[embed-symbols] = ""
PACKAGECONFIG[ksyms-cache] = ""
PACKAGECONFIG[minidebuginfo] = ""
PACKAGECONFIG[buildid-cache] = ""
PACKAGECONFIG[list] = ""
PACKAGECONFIG[pack] = ",,xz-native"
PACKAGECONFIG[static] = ""
# The host tools: annotate's disassembler (capstone is in meta-oe)
PACKAGECONFIG:class-native ??= ""
PACKAGECONFIG:class-nativesdk ??= ""
PACKAGECONFIG[capstone] = "HOST_CAPSTONE=y,HOST_CAPSTONE=n,capstone,capstone"

TINYPERF_BOARD = "${@{'x86_64': 'qemu-x86_64', 'i586': 'qemu-i386', 'i686': 'qemu-i386', \
    'arm': 'qemu-armv7', 'aarch64': 'qemu-aarch64', 'mips': 'qemu-mips', \
    'mipsel': 'qemu-mipsel'}.get(d.getVar('TARGET_ARCH'), '')}"

def tinyperf_opt(d, flag, symbol):
    if bb.utils.contains('PACKAGECONFIG', flag, True, False, d):
        return 'CONFIG_%s=y' % symbol
    return '# CONFIG_%s is not set' % symbol

do_configure() {
	mkdir -p ${B}
	cat > ${B}/yocto.config <<EOF
CONFIG_SHIM_TOOLCHAIN_LIBC=y
${@tinyperf_opt(d, 'static', 'SHIM_STATIC')}
${@tinyperf_opt(d, 'streams', 'REC_STREAMS')}
${@tinyperf_opt(d, 'flight', 'REC_FLIGHT')}
${@tinyperf_opt(d, 'callgraph-dwarf', 'REC_CALLGRAPH_DWARF')}
${@tinyperf_opt(d, 'stat', 'REC_STAT')}
${@tinyperf_opt(d, 'stat-extra', 'REC_STAT_EXTRA')}
${@tinyperf_opt(d, 'tracepoints', 'REC_TRACEPOINTS')}
${@tinyperf_opt(d, 'embed-symbols', 'REC_EMBED_SYMBOLS')}
${@tinyperf_opt(d, 'ksyms-cache', 'REC_KSYMS_CACHE')}
${@tinyperf_opt(d, 'minidebuginfo', 'REC_EMBED_MINIDEBUGINFO')}
${@tinyperf_opt(d, 'buildid-cache', 'REC_BUILDID_CACHE')}
${@tinyperf_opt(d, 'list', 'REC_LIST')}
${@tinyperf_opt(d, 'pack', 'REC_PACK')}
EOF
	oe_runmake ${TINYPERF_BOARD}_defconfig KCONFIG_FRAGMENTS=${B}/yocto.config
}

do_compile() {
	oe_runmake
}

do_install() {
	oe_runmake install DESTDIR=${D}
}

# -native and nativesdk-: the host tools, with the compiler and flags of their class
TINYPERF_HOST_MAKE = "HOSTCC='${CC}' HOST_CFLAGS='${CFLAGS}' HOST_LDFLAGS='${LDFLAGS}' ${PACKAGECONFIG_CONFARGS}"

do_configure:class-native() {
	:
}
do_configure:class-nativesdk() {
	:
}
do_compile:class-native() {
	oe_runmake ${TINYPERF_HOST_MAKE} host
}
do_compile:class-nativesdk() {
	oe_runmake ${TINYPERF_HOST_MAKE} host
}
do_install:class-native() {
	oe_runmake ${TINYPERF_HOST_MAKE} host-install DESTDIR=${D}
}
do_install:class-nativesdk() {
	oe_runmake ${TINYPERF_HOST_MAKE} host-install DESTDIR=${D}
}

BBCLASSEXTEND = "native nativesdk"
