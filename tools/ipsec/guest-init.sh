#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of an IPsec guest.  It mounts the basics, loads the NIC's driver,
# brings up lo, and then serves the host on the second serial port
# (ttyS1): each line the host sends is one shell command, run here with
# its output and errors sent back, followed by a line "@@END <status>".
# The line "@@QUIT" ends the guest.  All the tunnel's logic is on the host
# (tools/ipsec/run.sh); this side knows nothing of the checks.
/bin/busybox --install -s
export PATH=/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
echo /sbin/modprobe >/proc/sys/kernel/modprobe
hostname "${ipsec_name:-guest}"

# Debian's busybox runs its own applets before anything in PATH: these
# names must mean the Debian programs in /sbin (iproute2, kmod).
ip() { /sbin/ip "$@"; }
modprobe() { /sbin/modprobe "$@"; }

modprobe virtio_net 2>/dev/null || true
modprobe virtio_pci 2>/dev/null || true
ip link set lo up

exec 3<>/dev/ttyS1
stty -F /dev/ttyS1 raw -echo
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
sync
sleep 1
# 7.x test kernels have no ACPI: reboot, which -no-reboot turns into an exit.
[ -d /sys/firmware/acpi ] || reboot -f
poweroff -f
echo o >/proc/sysrq-trigger
sleep 60
