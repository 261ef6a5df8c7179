# SPDX-License-Identifier: MIT
# Booting one board: its QEMU command line, and a boot under timeout with one retry.
# Sourced by run.sh after board_load. A boot is good when QEMU powered off by itself (rc 0),
# init printed "TP-INIT: done" and the archive came out over virtio-serial.
# shellcheck shell=sh

# qemu_cmd KERNEL INITRD RUNDIR: the command words, one per line (arguments hold no newline)
qemu_cmd() {
	qc_k=$1 qc_initrd=$2 qc_d=$3
	echo "$B_QEMU"
	for qc_w in $B_MACHINE; do echo "$qc_w"; done
	# -nographic would put the monitor on the console's stdio, where the binary frames of
	# serial-con could hit its escape character: the console goes to a file instead
	printf '%s\n' -nographic -no-reboot -monitor none -serial "file:$qc_d/console.log"
	[ -z "$B_UART2" ] || printf '%s\n' -serial "file:$qc_d/uart2.bin"
	printf '%s\n' -kernel "$qc_k" -initrd "$qc_initrd" -append "$(board_append)"
	case $B_VIRTIO in
	mmio) echo -device; echo virtio-serial-device ;;
	pci) echo -device; echo virtio-serial-pci ;;
	esac
	printf '%s\n' -chardev "file,id=vout,path=$qc_d/vport.cpio" -device virtserialport,chardev=vout,name=out
}

# one attempt: 0 when good; the reason in $d/reason otherwise
boot_once() {
	bo_k=$1 bo_initrd=$2 bo_d=$3
	rm -f "$bo_d/console.log" "$bo_d/uart2.bin" "$bo_d/vport.cpio" "$bo_d/reason"
	rm -rf "$bo_d/files" && mkdir -p "$bo_d/files"
	qemu_cmd "$bo_k" "$bo_initrd" "$bo_d" >"$bo_d/qemu.cmd"
	bo_t0=$(date +%s.%N)
	# shellcheck disable=SC2046
	(IFS='
'; exec timeout -k 5 "$B_TIMEOUT" $(cat "$bo_d/qemu.cmd")) </dev/null >"$bo_d/qemu.out" 2>&1
	bo_rc=$?
	echo "$bo_t0 $(date +%s.%N)" | awk '{ printf "%.1f\n", $2 - $1 }' >"$bo_d/boot.secs"
	if [ $bo_rc -eq 124 ] || [ $bo_rc -eq 137 ]; then
		echo "timed out after ${B_TIMEOUT}s" >"$bo_d/reason"
	elif [ $bo_rc -ne 0 ]; then
		echo "QEMU exited with $bo_rc: $(head -c 300 "$bo_d/qemu.out" | tr '\n' ' ')" >"$bo_d/reason"
	elif ! grep -aq '^TP-INIT: done' "$bo_d/console.log"; then
		echo "the guest stopped before init was done" >"$bo_d/reason"
	elif ! [ -s "$bo_d/vport.cpio" ] || ! (cd "$bo_d/files" && cpio -idm --quiet <"$bo_d/vport.cpio" 2>"$bo_d/cpio.err"); then
		echo "no archive over virtio-serial: $(cat "$bo_d/cpio.err" 2>/dev/null)" >"$bo_d/reason"
	elif ! [ -s "$bo_d/files/steps.txt" ]; then
		echo "the archive lacks steps.txt" >"$bo_d/reason"
	fi
	! [ -s "$bo_d/reason" ]
}

# boot_board KERNEL INITRD RUNDIR: writes $d/attempts (1 or 2) and $d/boot.ok when good; a
# failed first attempt's console is kept as console.try1.log
boot_board() {
	bb_k=$1 bb_initrd=$2 bb_d=$3
	mkdir -p "$bb_d"
	rm -f "$bb_d/boot.ok" "$bb_d/console.try1.log" "$bb_d/reason.try1"
	echo 1 >"$bb_d/attempts"
	if boot_once "$bb_k" "$bb_initrd" "$bb_d"; then
		touch "$bb_d/boot.ok"
		return 0
	fi
	cp "$bb_d/console.log" "$bb_d/console.try1.log" 2>/dev/null
	cp "$bb_d/reason" "$bb_d/reason.try1"
	echo 2 >"$bb_d/attempts"
	boot_once "$bb_k" "$bb_initrd" "$bb_d" && touch "$bb_d/boot.ok"
}
