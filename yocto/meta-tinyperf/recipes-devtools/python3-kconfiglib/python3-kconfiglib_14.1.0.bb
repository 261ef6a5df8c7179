SUMMARY = "Kconfiglib: a Kconfig implementation in Python"
DESCRIPTION = "The Kconfig engine tinyperf configures its recorder with \
(olddefconfig, savedefconfig, menuconfig). openembedded-core has none; \
meta-python carries the same version, and takes over when its layer has \
the higher priority."
HOMEPAGE = "https://github.com/ulfalizer/Kconfiglib"
LICENSE = "ISC"
LIC_FILES_CHKSUM = "file://LICENSE.txt;md5=712177a72a3937909543eda3ad1bfb7c"

SRC_URI[sha256sum] = "bed2cc2216f538eca4255a83a4588d8823563cdd50114f86cf1a2674e602c93c"

inherit pypi setuptools3

BBCLASSEXTEND = "native nativesdk"
