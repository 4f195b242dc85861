#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of the test VM: mount the basics, route the kernel's module requests
# through a logging modprobe (kmod), run the checks (or the demo; the
# kernel command line's chk_* words arrive here as environment variables),
# then power off.
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

cat >/sbin/modprobe-logged <<'EOT'
#!/bin/sh
echo "$*" >>/tmp/modprobe-requests
exec /sbin/modprobe "$@"
EOT
chmod 755 /sbin/modprobe-logged
echo /sbin/modprobe-logged >/proc/sys/kernel/modprobe

# chk_modparams=impl=ssse3,priority=500 -> options for every modprobe.
if [ -n "${chk_modparams:-}" ]; then
	echo "options chacha20_simd $(echo "$chk_modparams" | tr , ' ')" \
		>/etc/modprobe.d/chacha20_simd.conf
fi

case ${chk_mode:-check} in
demo) guest-demo.sh ;;
*) guest-check.sh ;;
esac

guest_stop
