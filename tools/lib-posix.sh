# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The part of tools/lib.sh that the guests share with the host: sourced by
# tools/lib.sh, and by the guests' scripts (each initramfs has it as
# /bin/lib-posix.sh), so busybox sh, dash and bash alike.
#
#   kernel_reports	the one dmesg verdict of every runner: the lines of
#			stdin (a dmesg, a serial console's log) that report
#			a kernel problem; none means clean
#   plant_report	a made-up report written into the kernel's log when
#			the kernel command line says chk_plant=ubsan or cfi:
#			CHACHA_PLANT=ubsan|cfi in a runner's environment puts
#			it there, to show that the verdict fails
#   crypto_table [FILE]	the one /proc/crypto reader: one line an entry,
#			"name driver module priority selftest refcnt", of
#			/proc/crypto or FILE (- for stdin)
#   crypto_refcnt DRIVER	a driver's refcnt (0 if absent)
#   guest_stop		the end of every guest: sync, let the serial ports
#			send what they hold, power off (or reboot, which
#			QEMU's -no-reboot makes an exit)

# What a kernel prints when something went wrong: a failed crypto manager
# test (alg:), a WARN() or BUG() splat and its register dump, an oops, a
# panic, slab corruption ("BUG kmalloc-64 (...)"), the sanitizers, a
# refcount or list corruption, a kCFI trap, lockdep's and the hung task
# detector's INFO: lines, sleeping in atomic context.  "[^A-Z_]BUG" so
# that DEBUG_* and CONFIG_BUG are not reports.
verdict_bad='alg: |WARNING|(^|[^A-Z_])BUG|Oops|Call Trace|RIP:'
verdict_bad="$verdict_bad|general protection|Kernel panic|UBSAN|KASAN"
verdict_bad="$verdict_bad|refcount_t|list_(add|del) corruption|CFI failure"
verdict_bad="$verdict_bad|INFO: |sleeping function|scheduling while atomic"
verdict_bad="$verdict_bad|DEBUG_LOCKS_WARN_ON"

# Lines that match the above and are not reports: kernels without a test
# vector for a name, the passes and banner of 7.x's SELFTESTS_FULL and of
# 6.x's EXTRA_TESTS, and the boot's note on the CPU's own RETBleed
# exposure (Bochs' Skylake-X), a pr_warn(), not a WARN() splat.
verdict_ok='alg: No test for|alg: self-tests for .* passed'
verdict_ok="$verdict_ok|alg: (extra|full) crypto tests enabled"
verdict_ok="$verdict_ok|RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable"

kernel_reports() {
	tr -d '\r' | grep -E "$verdict_bad" | grep -v -E "$verdict_ok"
}

plant_report() {
	case ${chk_plant:-} in
	ubsan) echo "<3>UBSAN: array-index-out-of-bounds in planted.c:1:2 (chk_plant)" ;;
	cfi) echo "<3>CFI failure at planted+0x0/0x10 (target: planted; expected type: 0x12345678) (chk_plant)" ;;
	*) return 0 ;;
	esac >/dev/kmsg
}

crypto_table() {
	awk -F' *: ' '
		$1 == "name" { n = $2 }
		$1 == "driver" { d = $2 }
		$1 == "module" { m = $2 }
		$1 == "priority" { p = $2 }
		$1 == "selftest" { s = $2 }
		$1 == "refcnt" { r = $2 }
		NF == 0 && n != "" { print n, d, m, p, s, r; n = "" }
		END { if (n != "") print n, d, m, p, s, r }' "${1:-/proc/crypto}"
}

crypto_refcnt() {
	crypto_table | awk -v d="$1" '$2 == d { r = $6 } END { print r + 0 }'
}

# A kernel without ACPI (the self-built 7.x test kernels,
# tools/kernel/test7.config; the KUnit kernels) cannot power off: QEMU's
# -no-reboot turns a reboot into the end instead, and bochs_boot stops on
# the runner's last line before it.  The serial ports first: wait until
# their transmit counts stand still, so that the end does not drop what a
# UART still holds (Bochs' emulated UART is slow).
guest_stop() {
	sync
	_a=$(cat /proc/tty/driver/* 2>/dev/null)
	_b=
	while [ "$_a" != "$_b" ]; do
		_b=$_a
		sleep 1
		_a=$(cat /proc/tty/driver/* 2>/dev/null)
	done
	[ -d /sys/firmware/acpi ] || reboot -f
	poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 60
}
