#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of the peer-test guest.  It loads chacha20_simd, runs cryptsetup's
# own test scripts (/peer-tests, from Debian's source package, unchanged)
# each with Debian's bash in a tmpfs directory of its own, and sends the
# raw material to the host on the second serial port (ttyS1): the module's
# load status, /proc/crypto before and after, each script's output and
# exit status, lsmod and dmesg, each between "@@BEGIN name" and "@@END
# name ..." lines.  The verdicts are the host's (tools/peer-tests/run.sh);
# this side judges nothing.
/bin/busybox --install -s
# Debian's programs (in /usr) before busybox's applets.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# The runners' dmesg verdict (kernel_reports), and CHACHA_PLANT's made-up
# report when the command line asks for one.
# shellcheck source=../lib-posix.sh
. /bin/lib-posix.sh
plant_report
# cryptsetup's lock directory is /run/cryptsetup.
mount -t tmpfs tmpfs /run
mkdir -p /run/cryptsetup
echo /sbin/modprobe >/proc/sys/kernel/modprobe
# No udev runs here: libdevmapper (dmsetup, cryptsetup) then makes the
# /dev/mapper nodes itself instead of waiting for udev to.
export DM_DISABLE_UDEV=1

exec 3>/dev/ttyS1
section() { # NAME COMMAND...: COMMAND's output between markers
	local name=$1
	shift
	echo "@@BEGIN $name" >&3
	"$@" >/tmp/.out 2>&1
	rc=$?
	cat /tmp/.out >&3
	[ -z "$(tail -c 1 /tmp/.out)" ] || echo >&3
	echo "@@END $name $rc" >&3
}

echo "@@READY $(uname -r)" >&3
# The loop driver makes /dev/loop0-7 (and loop-control) as it loads:
# mode-test's `losetup -f` wants a free one.
section modprobe-loop modprobe loop
section modprobe-module modprobe chacha20_simd
section proc-crypto-before cat /proc/crypto

# run_test NAME: one script, as root, in /tmp/NAME, with CRYPTSETUP_PATH
# at Debian's cryptsetup, its output straight to the host (which can show
# progress); then "@@END NAME STATUS SECONDS" on a line of its own.
run_test() {
	local t0 t1
	mkdir -p "/tmp/$1"
	echo "@@BEGIN $1" >&3
	t0=$(date +%s)
	(cd "/tmp/$1" && CRYPTSETUP_PATH=/usr/sbin bash "/peer-tests/$1") \
		</dev/null >&3 2>&1
	rc=$?
	t1=$(date +%s)
	echo >&3
	echo "@@END $1 $rc $((t1 - t0))" >&3
	rm -rf "/tmp/$1"
}
run_test mode-test
run_test luks2-integrity-test

section proc-crypto-after cat /proc/crypto
section lsmod lsmod
section dmesg dmesg
echo "@@DONE" >&3
guest_stop
