#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of an IPsec guest.  It mounts the basics, loads the NIC's driver,
# brings up lo, and then serves the host on its command channel: the
# second serial port (ttyS1) on x86-64; where the machine has a single UART
# (arm64 virt) a virtio serial port named ipsec.ctl, as the kernel command
# line's ipsec_ctl=virtio says.  Each line the host sends is one shell command, run here with
# its output and errors sent back, followed by a line "@@END <status>".
# The line "@@QUIT" ends the guest.  All the tunnel's logic is on the host
# (tools/ipsec/run.sh); this side knows nothing of the checks.
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# The runners' dmesg verdict (kernel_reports), and CHACHA_PLANT's made-up
# report when the command line asks for one.
# shellcheck source=../lib-posix.sh
. /bin/lib-posix.sh
plant_report
echo /sbin/modprobe >/proc/sys/kernel/modprobe
hostname "${ipsec_name:-guest}"

# Debian's busybox runs its own applets before anything in PATH: these
# names must mean the Debian programs in /sbin (iproute2, kmod).
ip() { /sbin/ip "$@"; }
modprobe() { /sbin/modprobe "$@"; }

modprobe virtio_net 2>/dev/null || true
modprobe virtio_pci 2>/dev/null || true
ip link set lo up

if [ "${ipsec_ctl:-}" = virtio ]; then
	# A virtio serial port (not a console: every /dev/hvcN node exists
	# from boot, hvc_xen's included, and which one is ours would be a
	# guess), found by its name once virtio_console has probed it.
	modprobe virtio_console
	ctl=''
	i=0
	while [ -z "$ctl" ] && [ $i -lt 100 ]; do
		for f in /sys/class/virtio-ports/*/name; do
			[ "$(cat "$f" 2>/dev/null)" = ipsec.ctl ] || continue
			f=${f%/name}
			ctl=/dev/${f##*/}
		done
		[ -n "$ctl" ] && [ -e "$ctl" ] || ctl=''
		[ -n "$ctl" ] || sleep 0.1
		i=$((i + 1))
	done
	[ -n "$ctl" ] || echo "ipsec: no virtio port named ipsec.ctl" >&2
	exec 3<>"${ctl:-/dev/null}"
else
	ctl=/dev/ttyS1
	exec 3<>"$ctl"
	stty -F "$ctl" raw -echo
fi
echo "@@READY $(uname -r)" >&3
while IFS= read -r cmd <&3; do
	[ "$cmd" = "@@QUIT" ] && break
	(eval "$cmd") </dev/null >/tmp/.out 2>&1
	rc=$?
	# The marker on a line of its own.
	[ -z "$(tail -c 1 /tmp/.out)" ] || echo >>/tmp/.out
	cat /tmp/.out >&3
	echo "@@END $rc" >&3
done

echo "@@BYE" >&3
guest_stop
