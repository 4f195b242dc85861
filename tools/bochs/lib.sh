# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bochs_boot for tools/bochs/run.sh and tools/kunit/run.sh (sourced, not
# run; needs tools/lib.sh).

# bochs_boot DIR MODEL KERNEL INITRD APPEND TIMEOUT DONE
#
# Boot KERNEL with INITRD and the command line APPEND under Bochs 3.0
# (build.sh) with CPU model MODEL: an isolinux CD (isolinux,
# syslinux-common, genisoimage) in DIR/iso, the console on COM1
# (DIR/console.log), COM2 in DIR/results.log.  Stops Bochs once
# DIR/console.log matches the extended regex DONE (before a 7.x test
# kernel without ACPI reboots instead of powering off), when it shows a
# kernel panic (which panic=-1 would turn into a second boot), when Bochs
# exits, or after TIMEOUT seconds.  Returns 0 if DONE was seen.
bochs_boot() {
	local dir=$1 model=$2 kernel=$3 initrd=$4 append=$5 limit=$6 done=$7
	local bochs share f pid t=0 rc=1

	for f in /usr/lib/ISOLINUX/isolinux.bin \
		 /usr/lib/syslinux/modules/bios/ldlinux.c32; do
		[ -f "$f" ] ||
			die "$f missing (apt-get install isolinux syslinux-common)"
	done
	command -v genisoimage >/dev/null ||
		die "genisoimage missing (apt-get install genisoimage)"
	bochs=$("$top_dir/tools/bochs/build.sh")
	share=$(dirname "$bochs")/../share
	rm -rf "$dir/iso"
	mkdir -p "$dir/iso/isolinux"
	cp /usr/lib/ISOLINUX/isolinux.bin \
		/usr/lib/syslinux/modules/bios/ldlinux.c32 "$dir/iso/isolinux/"
	cp "$kernel" "$dir/iso/vmlinuz"
	cp "$initrd" "$dir/iso/initrd"
	cat >"$dir/iso/isolinux/isolinux.cfg" <<EOT
SERIAL 0 115200
DEFAULT linux
PROMPT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd $append
EOT
	genisoimage -quiet -o "$dir/boot.iso" -b isolinux/isolinux.bin \
		-c isolinux/boot.cat -no-emul-boot -boot-load-size 4 \
		-boot-info-table -J -R "$dir/iso"
	cat >"$dir/bochsrc" <<EOT
cpu: model=$model, count=1, ips=400000000
megs: 1024
romimage: file=$share/BIOS-bochs-latest
vgaromimage: file=$share/VGABIOS-lgpl-latest
ata0-master: type=cdrom, path=$dir/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$dir/console.log
com2: enabled=1, mode=file, dev=$dir/results.log
display_library: nogui
clock: sync=none
log: $dir/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
EOT
	: >"$dir/console.log"
	: >"$dir/results.log"
	"$bochs" -q -f "$dir/bochsrc" </dev/null >"$dir/bochs.out" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		if grep -q -E "$done" "$dir/console.log"; then
			sleep 2	# the last lines
			rc=0
			break
		fi
		if grep -q 'Kernel panic - not syncing' "$dir/console.log"; then
			sleep 2
			log "kernel panic: stopped"
			break
		fi
		if [ $t -ge "$limit" ]; then
			log "timeout: Bochs ran for $limit s"
			break
		fi
		sleep 1
		t=$((t + 1))
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	grep -q -E "$done" "$dir/console.log" && rc=0
	return $rc
}
