# SPDX-License-Identifier: MIT
# The full-system test boards, one table row each: what kernel, what QEMU, which channels.
# Sourced by the harness; board_load BOARD sets the B_* variables below, or returns 1.
# shellcheck shell=sh
#
#   B_CONFIG    boards/<x>_defconfig the recorder, workloads and init are built for
#               (the CROSS_COMPILE comes from its .config, never from here)
#   B_DEBARCH   Debian architecture of the kernel package
#   B_KPKG      the kernel's meta-package, resolved through apt to today's ABI name;
#               "build:NAME" for a kernel built by tests/qemu/kernel-NAME.sh instead
#   B_KBOOT     how QEMU gets the kernel: "file" (boot/vmlinuz-* as shipped) or "pvh"
#               (x86_64: the bzImage decompressed on the host, booted through its PVH note)
#   B_QEMU      QEMU binary, B_MACHINE machine/cpu/smp/memory
#   B_CONSOLE   kernel console device (in the guest)
#   B_VIRTIO    virtio transport of the output port: mmio | pci
#   B_MODULES   modules to load, dependencies first are added from the .ko files
#               ("" when the transport and virtio_console are built in)
#   B_UART2     second UART the framed serial stream can use ("" when the board has one UART)
#   B_ARCH      arch/<x>/ of the recorder (its perf register mask: tests/qemu/check.sh)
#   B_CALLCHAIN "fp" when the kernel walks user frame pointers, or the reason it cannot
#   B_PERF_DWARF "y" when the host's Linux perf unwinds this arch's --call-graph dwarf samples
#   B_WL_CFLAGS extra flags for the workloads (armv7: ARM mode with APCS frames, so the
#               kernel's unwinder can walk them)
#   B_NOFP_CFLAGS extra flags for nofp, the --call-graph dwarf workload (armv7:
#               -funwind-tables, so its own functions have .ARM.exidx entries too: the host
#               unwinds it with those alone in check.sh's EHABI-only copy)
#   B_EVENTS    extra recordings for this board only (a PMU: "cycles")
#   B_TIMEOUT   seconds one boot may take, all recordings included, before it is killed
#               (QEMU_TIMEOUT overrides it for every board)

QEMU_ALL_BOARDS="qemu-x86_64 qemu-i386 qemu-armv7 qemu-aarch64 qemu-mipsel qemu-mips64el qemu-mips"
# the boards whose kernel Debian ships: what 'run.sh' does when QEMU_BOARDS is not set
QEMU_DEFAULT_BOARDS="qemu-x86_64 qemu-i386 qemu-armv7 qemu-aarch64 qemu-mipsel qemu-mips64el"

board_load() {
	B_KBOOT=file B_MODULES= B_UART2= B_CALLCHAIN=fp B_WL_CFLAGS= B_NOFP_CFLAGS= B_EVENTS=
	B_TIMEOUT=${QEMU_TIMEOUT:-120}
	B_PERF_DWARF=
	case $1 in
	qemu-x86_64)
		B_ARCH=x86_64 B_CONFIG=qemu-x86_64 B_DEBARCH=amd64 B_KPKG=linux-image-amd64 B_KBOOT=pvh
		B_PERF_DWARF=y
		B_QEMU=qemu-system-x86_64 B_MACHINE="-M pc -cpu max -smp 2 -m 512"
		B_CONSOLE=ttyS0 B_VIRTIO=pci B_MODULES="virtio_pci virtio_console" B_UART2=ttyS1 ;;
	qemu-i386)
		# the 686 kernel has no CONFIG_PVH: the bzImage decompresses itself (~5 s)
		B_ARCH=i386 B_CONFIG=qemu-i386 B_DEBARCH=i386 B_KPKG=linux-image-686
		B_QEMU=qemu-system-i386 B_MACHINE="-M pc -cpu max -smp 2 -m 512"
		B_CONSOLE=ttyS0 B_VIRTIO=pci B_MODULES="virtio_pci virtio_console" B_UART2=ttyS1 ;;
	qemu-armv7)
		# highmem=off keeps PCI usable by the non-LPAE kernel; virt has a single PL011
		B_ARCH=arm B_CONFIG=qemu-armv7 B_DEBARCH=armhf B_KPKG=linux-image-armmp
		B_QEMU=qemu-system-arm B_MACHINE="-M virt,highmem=off -cpu cortex-a15 -smp 2 -m 512"
		B_CONSOLE=ttyAMA0 B_VIRTIO=mmio B_MODULES="virtio_mmio virtio_console"
		B_WL_CFLAGS="-marm -mapcs-frame" B_NOFP_CFLAGS=-funwind-tables ;;
	qemu-aarch64)
		# cortex-a57 has PMUv3 (cycles from QEMU's virtual clock); -cpu max is 3.5x slower
		B_ARCH=aarch64 B_CONFIG=qemu-aarch64 B_DEBARCH=arm64 B_KPKG=linux-image-arm64
		B_QEMU=qemu-system-aarch64 B_MACHINE="-M virt -cpu cortex-a57 -smp 2 -m 512"
		B_CONSOLE=ttyAMA0 B_VIRTIO=mmio B_MODULES="virtio_mmio virtio_console" B_EVENTS=cycles ;;
	qemu-mipsel)
		# malta SMP (34Kf) breaks the timer under TCG: one 24Kf
		B_ARCH=mips B_CONFIG=qemu-mipsel B_DEBARCH=mipsel B_KPKG=linux-image-4kc-malta
		B_QEMU=qemu-system-mipsel B_MACHINE="-M malta -cpu 24Kf -m 512"
		B_CONSOLE=ttyS0 B_VIRTIO=pci B_MODULES="virtio_pci virtio_console" B_UART2=ttyS1
		B_CALLCHAIN="the MIPS kernel records no user callchain (only the sampled IP)" ;;
	qemu-mips64el)
		# a 64-bit kernel running the o32 mipsel userland (CONFIG_MIPS32_O32)
		B_ARCH=mips B_CONFIG=qemu-mipsel B_DEBARCH=mips64el B_KPKG=linux-image-5kc-malta
		B_QEMU=qemu-system-mips64el B_MACHINE="-M malta -cpu 5KEf -m 512"
		B_CONSOLE=ttyS0 B_VIRTIO=pci B_MODULES="virtio_pci virtio_console" B_UART2=ttyS1
		B_CALLCHAIN="the MIPS kernel records no user callchain (only the sampled IP)" ;;
	qemu-mips)
		# no big-endian MIPS kernel in Debian: built from linux-source-6.1, virtio built in
		B_ARCH=mips B_CONFIG=qemu-mips B_DEBARCH=mips B_KPKG=build:mips-be
		B_QEMU=qemu-system-mips B_MACHINE="-M malta -cpu 24Kf -m 512"
		B_CONSOLE=ttyS0 B_VIRTIO=pci B_UART2=ttyS1
		B_CALLCHAIN="the MIPS kernel records no user callchain (only the sampled IP)" ;;
	*) return 1 ;;
	esac
}

# the kernel arguments every board boots with: crypto self-tests cost ~3.5 s under TCG;
# printk.devkmsg=on lets every message written to /dev/kmsg through (serial-con's noise),
# not 10 per 5 s
board_append() { echo "console=$B_CONSOLE panic=-1 cryptomgr.notests printk.devkmsg=on"; }
