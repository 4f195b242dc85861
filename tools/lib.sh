# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
#
# The settings and helpers every script under tools/ shares (sourced, not
# run): the cache directory, kernels by name (load_kernel), initramfs
# staging and packing, booting a guest under QEMU or Bochs (boot_cmdline,
# qemu_cmd, bochs_boot), the rows of tools/rows, the dmesg verdict
# (lib-posix.sh, which the guests source too), die.  $top_dir is the
# source tree, $vm_dir tools/vm.

top_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
vm_dir=$top_dir/tools/vm
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
debfetch=$top_dir/tools/debfetch.sh

# shellcheck source=lib-posix.sh
. "$top_dir/tools/lib-posix.sh"

log() { echo "${0##*/}: $*" >&2; }
die() { log "$*"; exit 1; }

# kernel_arch KERNEL: the Debian architecture of a kernel name
# (6.1, 6.12, 6.1-rt: amd64; 6.1-arm64, 6.12-arm64, 6.1-rt-arm64: arm64).
kernel_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# load_kernel 6.1|6.12|7.3|7.3-gcc|6.1-rt|6.12-rt[-arm64]: fetch or build
# (cached) and set KVER, VMLINUZ, HEADERS, KROOT, KARCH, and KLLVM (the
# LLVM= of a clang kernel, 7.3; empty for gcc); 7.3-gcc sets only KVER,
# HEADERS and KLLVM (a tree for module builds).  The directory is exported, so that
# child scripts skip the apt lookup.
load_kernel() {
	local var=CHACHA_KDIR_${1//[.-]/_} dir

	if [ -z "${!var:-}" ]; then
		dir=$("$vm_dir/fetch-kernel.sh" "$1") || die "cannot fetch kernel $1"
		export "$var=$dir"
	fi
	KLLVM=''	# kernel.env files written before clang kernels lack it
	# shellcheck source=/dev/null
	. "${!var}/kernel.env"
	KARCH=$(kernel_arch "$1")
}

# copy_sources SRC DIR: the module's sources into the build directory DIR:
# the files git lists in SRC, tracked or untracked but not ignored, or every
# file of SRC outside git, minus build products.  Only a file whose
# contents differ is copied, stamped now, so that make rebuilds what it
# touches and nothing else; a file SRC no longer has is removed.  One
# sha1sum of each side, not a process per file: make check copies the tree
# some fifty times.
copy_sources() {
	local src=$1 dir=$2

	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$src" ls-files --cached --others --exclude-standard
	else
		(cd "$src" && find . -type f | sed 's|^\./||')
	fi | grep -Ev '\.(o|ko|mod|mod\.c|cmd|a|order|symvers)$' |
		(cd "$src" && while read -r f; do [ ! -f "$f" ] || echo "$f"; done) |
		sort >"$dir/.files.new"
	if [ -f "$dir/.files" ]; then
		comm -23 "$dir/.files" "$dir/.files.new" |
			(cd "$dir" && xargs -r -d '\n' rm -f --)
	fi
	# A file missing in DIR has no line on its side, so it differs.
	comm -23 <(cd "$src" && xargs -r -d '\n' sha1sum -- <"$dir/.files.new" | sort) \
		<(cd "$dir" && xargs -r -d '\n' sha1sum -- <"$dir/.files.new" 2>/dev/null | sort) |
		cut -c43- | (cd "$src" && xargs -r -d '\n' cp --parents -t "$dir" --)
	mv "$dir/.files.new" "$dir/.files"
}

# stage_tool STAGE ARCH TOOL [DIR]: DIR/TOOL.c (DIR tools/vm by default:
# afalg-check, fscrypt-check; tools/ipsec: ktls-check, ymm-check,
# ping-sweep), static, for ARCH (amd64 or arm64), (re)built by
# tools/static-tool.mk into the cache, one build at a time (other
# initramfs builds may run beside this one), copied to STAGE/bin;
# non-zero, with a warning, if it does not build (the checks that use it
# then fail).
stage_tool() {
	local bin=$cache/$3 cc=gcc dir=${4:-$vm_dir}

	[ "$2" = amd64 ] || { bin+=-$2; cc=aarch64-linux-gnu-gcc; }
	mkdir -p "$cache" "$1/bin"
	if ! flock "$bin.lock" make -s -f "$top_dir/tools/static-tool.mk" \
		SRC="$dir/$3.c" OUT="$bin" TOOL_CC="$cc" >&2; then
		rm -f "$bin"
		log "warning: $3 does not build"
		return 1
	fi
	cp "$bin" "$1/bin/$3"
}

# stage_kmods STAGE MODULE...: the modules of kernel KVER (from KROOT) and
# all modprobe says they depend on, unpacked (the guest then needs no xz,
# nor zstd), into STAGE/lib/modules/KVER, with the index files depmod
# needs; a module the kernel lacks (built in, or absent) is only noted.
# Used by every initramfs builder (tools/vm, tools/ipsec, tools/peer-tests).
stage_kmods() {
	local mdir=$1/lib/modules/$KVER m f rel
	shift
	mkdir -p "$mdir"
	for m in "$@"; do
		modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>/dev/null ||
			log "note: no module $m in $KVER (built in or absent)"
	done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r f; do
		rel=${f#"$KROOT/lib/modules/$KVER/"}
		mkdir -p "$mdir/$(dirname "$rel")"
		case $f in
		*.xz) xz -dc "$f" >"$mdir/${rel%.xz}" ;;
		*.zst) zstd -qdc "$f" >"$mdir/${rel%.zst}" ;;
		*) cp "$f" "$mdir/$rel" ;;
		esac
	done
	cp "$KROOT/lib/modules/$KVER"/modules.{builtin,builtin.modinfo,order} \
		"$mdir/"
}

# ko_deps KO: the kernel modules KO needs (its modinfo "depends"; on
# x86-64 the kernel's Poly1305 library), one a word, for stage_kmods.
ko_deps() {
	modinfo -F depends "$1" | tr , ' '
}

# stage_prog STAGE FILE DIR: a dynamically linked program into STAGE/DIR,
# with every library ldd names (and the loader) at its own path.
stage_prog() {
	local lib
	cp "$2" "$1/$3/"
	ldd "$2" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
		while read -r lib; do
			mkdir -p "$1$(dirname "$lib")"
			cp -L "$lib" "$1$lib"
		done
}

# stage_arm64 OUT "PKGS" DST=SRC[:SRC...] ...: Debian 12's arm64 packages
# PKGS (debfetch.sh -a arm64), and from them each program DST (a path in
# OUT) copied from the first SRC a package holds, then every shared
# library they need (readelf's DT_NEEDED, transitively) into
# OUT/lib/aarch64-linux-gnu.  Skipped when OUT is complete for the same
# package versions.  For arm64 guests' initramfs images.
stage_arm64() {
	local out=$1 pkgs=$2 dirs key spec src todo next f so lib
	local readelf=${CHACHA_CROSS:-aarch64-linux-gnu-}readelf
	shift 2
	command -v "$readelf" >/dev/null ||
		die "$readelf missing (apt-get install binutils-aarch64-linux-gnu)"
	# shellcheck disable=SC2086 # one word per package
	dirs=$("$debfetch" -a arm64 get $pkgs) || die "cannot fetch $pkgs"
	key=$(echo "$dirs" | sha256sum | cut -c1-16)
	[ ! -e "$out/.done-$key" ] || return 0
	rm -rf "$out"
	mkdir -p "$out/lib/aarch64-linux-gnu"
	todo=''
	for spec in "$@"; do
		src=$(arm64_find "$dirs" "${spec#*=}") ||
			die "${spec#*=} is in none of: $pkgs"
		mkdir -p "$(dirname "$out/${spec%%=*}")"
		cp -L "$src" "$out/${spec%%=*}"
		todo+=" $out/${spec%%=*}"
	done
	while [ -n "$todo" ]; do
		next=''
		for f in $todo; do
			for so in $("$readelf" -d "$f" |
				sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				lib=$out/lib/aarch64-linux-gnu/$so
				[ -e "$lib" ] && continue
				src=$(arm64_find "$dirs" \
					"lib/aarch64-linux-gnu/$so:usr/lib/aarch64-linux-gnu/$so") ||
					die "$so (needed by ${f##*/}) is in none of: $pkgs"
				cp -L "$src" "$lib"
				next+=" $lib"
			done
		done
		todo=$next
	done
	touch "$out/.done-$key"
}

# arm64_find DIRS SRC[:SRC...]: the first SRC found under one of DIRS.
arm64_find() {
	local d r

	for r in ${2//:/ }; do
		for d in $1; do
			[ -e "$d/$r" ] && { echo "$d/$r"; return 0; }
		done
	done
	return 1
}

# pack_initramfs STAGE DIR NAME KEEP: STAGE as a gzipped cpio archive,
# DIR/NAME-<hash of the archive>.cpio.gz, its path printed.  Fixed owner,
# times and order, so the same inputs give the same image, which is then
# not written again; of the images DIR/NAME-*, the KEEP newest stay.
pack_initramfs() {
	local stage=$1 dir=$2 name=$3 keep=$4 tmp out
	find "$stage" -exec touch -h -d @0 {} +
	mkdir -p "$dir"
	tmp=$(mktemp "$dir/.cpio.XXXXXX")
	(cd "$stage" && find . | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --reproducible --quiet) >"$tmp"
	out=$dir/$name-$(sha256sum <"$tmp" | cut -c1-16).cpio.gz
	if [ -e "$out" ]; then
		rm -f "$tmp"
	else
		gzip -1 -n <"$tmp" >"$out.new" && mv "$out.new" "$out"
		rm -f "$tmp"
		log "wrote $out ($(du -h "$out" | cut -f1))"
		find "$dir" -name "$name-*.cpio.gz" -printf '%T@ %p\n' |
			sort -rn | tail -n +$((keep + 1)) | cut -d' ' -f2- |
			xargs -r rm -f
	fi
	echo "$out"
}

# CHACHA_PLANT=ubsan|cfi: every runner's guests write a made-up kernel
# report into their log at boot (lib-posix.sh's plant_report), which the
# dmesg verdict must fail; this kernel parameter asks for it.
plant_param=${CHACHA_PLANT:+chk_plant=$CHACHA_PLANT}

# Seconds since the epoch, for timings.
now() { date +%s; }

# ---------------------------------------------------------------- booting
# Every runner boots its guests through these: the kernel command line's
# start (boot_cmdline), QEMU's command line's start (qemu_cmd) or Bochs
# (bochs_boot); the guests end through lib-posix.sh's guest_stop.

# boot_cmdline ARCH: the start of every guest's kernel command line, for
# ARCH amd64 or arm64: the console on the first UART (arm64: ttyAMA0, the
# only one of QEMU's virt), panic=-1 (a panic reboots at once, and a reboot
# ends the run: QEMU's -no-reboot, bochs_boot's panic watch), the planted
# report's parameter if CHACHA_PLANT asks for one, and on x86-64 no5lvl,
# 4-level paging.  With 5-level paging (QEMU's -cpu max has LA57; Bochs'
# CPUs have not) a KASAN kernel (7.3, 6.12's KUnit kernel) can report a
# false "wild-memory-access" at boot: identify_cpu() clears boot_cpu_data's
# feature bits before it reads them again, pgtable_l5_enabled() is LA57's
# bit, so for that window KASAN's shadow bounds assume 4 levels, and an
# interrupt then taking an irq_desc lock in the 5-level direct map
# (ff11...) is reported.  Seen once in CI, in get_cpu_vendor(), before any
# module was loaded.  And no_timer_check: check_timer() counts the 8254's
# ticks over a delay that the TSC, which runs on the host's time, measures.
# A guest starved of the host's cores for that delay sees too few and
# panics ("IO-APIC + timer doesn't work!"); once, with 4 guests on 2 cores.
boot_cmdline() {
	case $1 in
	amd64) echo "console=ttyS0 panic=-1 no5lvl no_timer_check${plant_param:+ $plant_param}" ;;
	arm64) echo "console=ttyAMA0 panic=-1${plant_param:+ $plant_param}" ;;
	*) die "boot_cmdline: no architecture $1" ;;
	esac
}

# qemu_cmd ARCH CPU VCPUS MEMORY: set qemu=(...), the start of every QEMU
# command line: the binary for ARCH (amd64, arm64: -M virt), TCG with one
# thread for all vCPUs, -cpu CPU, -smp VCPUS, -m MEMORY and -no-reboot (the
# guest's reboot or panic ends QEMU); the caller adds its serial ports
# (the console's first), devices, -kernel, -initrd and -append.  One TCG
# thread: with multi-threaded TCG, QEMU 7.2 now and then runs a stale int3
# of the kernel's live code patching (text_poke_bp) and the guest dies
# with "Oops: int3" (seen at boot; static keys flip later too, e.g. on
# module loads).
qemu_cmd() {
	case $1 in
	amd64) qemu=(qemu-system-x86_64) ;;
	arm64) qemu=(qemu-system-aarch64 -M virt) ;;
	*) die "qemu_cmd: no architecture $1" ;;
	esac
	# shellcheck disable=SC2054 # the commas are QEMU's
	qemu+=(-accel tcg,thread=single -cpu "$2" -smp "$3" -m "$4" -no-reboot)
}

# bochs_boot DIR MODEL KERNEL INITRD APPEND TIMEOUT DONE
#
# Boot KERNEL with INITRD and the command line APPEND under Bochs 3.0
# (tools/bochs/build.sh) with CPU model MODEL: an isolinux CD (isolinux,
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

# The check numbers guest-check.sh reports on every boot (a missing one
# counts as failed): those of its run_check lines, but for the ones a
# row's options add (keepregs=: 11; consumers: 12 and 13).
vm_optional="keepregs fscrypt-adiantum dm-integrity"
vm_checks=$(awk -v opt=" $vm_optional " '
	$1 == "run_check" && $2 ~ /^[0-9]+$/ && index(opt, " " $3 " ") == 0 {
		print $2
	}' "$vm_dir/guest-check.sh" | sort -n | tr '\n' ' ')
vm_checks=${vm_checks% }

# rows [FIELD=VALUES ...]: the lines of tools/rows (the rows, its header
# says what each field is) whose fields all match, one of VALUES (a list,
# spaces or commas) each; FIELD is name, job, runner, kernel, cpu, expect
# or checks.  A selection that matches nothing is an error (a misspelt
# name must not leave rows out unseen), and so is a row naming a check
# guest-check.sh does not have.
rows() {
	local line f k want ok n=0
	local name job runner kernel cpu expect checks options

	while read -r line; do
		case $line in '' | '#'*) continue ;; esac
		read -r name job runner kernel cpu expect checks options \
			<<<"$line"
		ok=1
		for f; do
			k=${f%%=*} want=" ${f#*=} "
			[[ "${want//,/ }" = *" ${!k} "* ]] || ok=0
		done
		[ $ok = 1 ] || continue
		# a misspelt check fails before any row boots
		[ "$checks" = all ] || check_numbers "$checks" >/dev/null ||
			return 1
		echo "$line"
		n=$((n + 1))
	done <"$top_dir/tools/rows"
	[ $n -gt 0 ] || die "no row of tools/rows has $*"
}

# check_numbers NAMES: the numbers guest-check.sh gives the checks NAMES
# (a comma list of the names of its run_check lines, or all: $vm_checks).
check_numbers() {
	local name num out=''

	for name in ${1//,/ }; do
		if [ "$name" = all ]; then
			num=$vm_checks
		else
			num=$(sed -n "s/^[[:space:]]*run_check \([0-9]*\)[^ ]* $name .*/\1/p" \
				"$vm_dir/guest-check.sh" | head -n 1)
			[ -n "$num" ] || die "tools/vm/guest-check.sh has no check $name"
		fi
		out+=" $num"
	done
	echo "${out# }"
}

# row_options WORDS: a row's options as run.sh arguments, one a line:
# consumers -> --consumers, prio=250 -> --prio 250, noslowtests ->
# --append $noslowtests.
row_options() {
	local o

	for o; do
		case $o in
		noslowtests) printf '%s\n' --append "$noslowtests" ;;
		*=*) printf '%s\n' "--${o%%=*}" "${o#*=}" ;;
		*) printf '%s\n' "--$o" ;;
		esac
	done
}

# row_count CHECKS OPTIONS...: how many checks a vm or bochs row reports.
row_count() {
	local n o

	n=$(check_numbers "$1" | wc -w)
	shift
	for o; do
		case $o in
		consumers) n=$((n + 2)) ;;	# 12, 13
		keepregs=*) n=$((n + 1)) ;;	# 11
		esac
	done
	echo "$n"
}

# row_args LINE: a line of tools/rows into name, runner, kernel, cpu,
# expect, checks and options (an array of the row's options), and the
# runner's arguments for it into args (an array): row_options', and for a
# VM or Bochs row whose checks are not all, --checks with their numbers;
# nchecks, the verdicts such a row's run must print (row_count; empty for
# other runners).
row_args() {
	read -r name _ runner kernel cpu expect checks options <<<"$1"
	read -ra options <<<"$options"
	mapfile -t args < <(row_options "${options[@]}")
	nchecks=''
	case $runner in
	vm | bochs)
		[ "$checks" = all ] ||
			args+=(--checks "$(check_numbers "$checks")")
		nchecks=$(row_count "$checks" "${options[@]}")
		;;
	esac
}

# row_value KEY: the value of the option KEY=VALUE among the options
# row_args read (empty if the row has none)
row_value() {
	local o

	for o in "${options[@]}"; do
		case $o in "$1"=*) echo "${o#*=}" ;; esac
	done
}

# A 7.x test kernel's parameter for boots that need not fuzz: its crypto
# manager still runs the test vectors of every registration, but not the
# fuzzing against the kernel's own driver (CRYPTO_SELFTESTS_FULL), a third
# of a row's time in a KASAN kernel under emulation.  For rows whose
# implementation KUnit fuzzes (forced, 1000 iterations), and boots that
# serve only the kernel's own drivers.
noslowtests=cryptomgr.noslowtests=1

# judge_verdicts DIR: count the guest's verdicts in DIR/results.log (into
# DIR/verdicts), name each missing one, and set pass and fail.
judge_verdicts() {
	local n
	tr -d '\r' <"$1/results.log" >"$1/verdicts"
	pass=0 fail=0
	for n in $vm_checks; do
		if grep -q "^CHECK $n [^:]*: PASS" "$1/verdicts"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			grep -q "^CHECK $n " "$1/verdicts" ||
				echo "CHECK $n ?: FAIL no verdict from the guest"
		fi
	done
	grep -q '^CHECKS DONE' "$1/verdicts" ||
		log "the guest did not finish; see $1/console.log"
}
