#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --kernel 6.1|6.12 [--cpu MODEL] [--full|--chacha] [--timeout SECONDS]
#
# Run cryptsetup's own tests/mode-test (its Adiantum lines) and
# tests/luks2-integrity-test (chacha20 with poly1305), from Debian 12's
# cryptsetup source package and unchanged, in a QEMU guest (TCG) of that
# Debian kernel with chacha20_simd loaded, against Debian's cryptsetup.
# Prints one verdict per check, every sub-test that did not run and why,
# then "N passed, N failed"; exits non-zero on any failure.
#   --cpu MODEL		the guest's CPU (default max: the module's AVX2 code)
#   --full		put the kernel modules for every line of the scripts
#			in the image (twofish, serpent, lrw, sha512, gcm,
#			ccm, aegis128): several times as long under TCG;
#			without it those lines are listed as not run
#   --chacha		only the scripts' ChaCha lines (make check): each
#			script cut down by chacha-lines.awk to its
#			prerequisites, its Adiantum or chacha20/poly1305
#			lines and its cleanup; the lines left out are
#			listed as not run
#   --timeout SECONDS	limit for the guest (default 1800; --full: 3600;
#			--chacha: 900)
# CHACHA_SRC=DIR builds the module from DIR (tools/vm/build-module.sh; with
# CHACHA_BUILD_TAG=name in a build directory of its own).
# Logs: $CHACHA_CACHE/peer-runs/<kernel>[-full|-chacha][-<tag>]/ (build.log, console.log,
# results.log: the guest's raw report, and one file per section of it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

usage() {
	sed -n '4,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 2
}

kernel='' cpu=max timeout='' variant=lean
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--cpu) cpu=$2 ;;
	--timeout) timeout=$2 ;;
	--full) variant=full; shift; continue ;;
	--chacha) variant=chacha; shift; continue ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$kernel" ] || usage
case $variant in
lean) : "${timeout:=1800}" ;;
full) : "${timeout:=3600}" ;;
chacha) : "${timeout:=900}" ;;
esac
case $kernel in *-arm64) die "arm64 guests are not supported yet" ;; esac

tag=$kernel
[ $variant = lean ] || tag+=-$variant
out=$cache/peer-runs/$tag${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
rm -rf "$out"
mkdir -p "$out"

# ---------------------------------------------------------------- build
t0=$(now)
load_kernel "$kernel"
{
	src=$("$debfetch" source cryptsetup | tail -n 1) &&
		ko=$("$vm_dir/build-module.sh" "$kernel") &&
		initrd=$("$here/mkinitramfs.sh" "$kernel" "$ko" "$src/tests" \
			$variant)
} 2>"$out/build.log" || {
	tail -n 30 "$out/build.log" >&2
	die "build failed (log: $out/build.log)"
}
t1=$(now)
log "built in $((t1 - t0)) s: $KVER, $initrd; tests from $src"

# ---------------------------------------------------------------- guest
# Console (kernel messages) on ttyS0, the guest's report on ttyS1; QEMU
# and the command line's start from tools/lib.sh (qemu_cmd, boot_cmdline).
log "booting $KVER on -cpu $cpu (TCG); the tests take minutes"
: >"$out/console.log"
: >"$out/results.log"
qemu_cmd amd64 "$cpu" 2 1G
timeout "$timeout" nice -n 10 "${qemu[@]}" -nographic -monitor none \
	-serial "file:$out/console.log" -serial "file:$out/results.log" \
	-kernel "$VMLINUZ" -initrd "$initrd" \
	-append "$(boot_cmdline amd64) quiet log_buf_len=1M" \
	</dev/null >"$out/qemu.log" 2>&1 &
vm=$!
# timeout runs in a process group of its own: a stopped run.sh must stop
# the guest too.
trap 'kill $vm 2>/dev/null || true' EXIT
# A killed bash runs no EXIT trap unless the signal is trapped.
trap 'exit 143' INT TERM
# Live progress: the ChaCha lines and each script's end.
tail -n +1 -s 1 --pid=$vm -f "$out/results.log" | tr -d '\r' |
	grep --line-buffered -E '^(x?chacha[0-9]+,|\[chacha20-|@@END (mode|luks2))' >&2 || true
rc=0
wait $vm || rc=$?
[ $rc -ne 124 ] || log "timeout: the guest ran for $timeout s"
[ $rc -eq 0 ] || log "qemu exited with $rc"
t2=$(now)
tr -d '\r' <"$out/results.log" >"$out/report.txt"

# section NAME: the lines of the guest's section NAME
section() {
	awk -v n="$1" '$0 == "@@BEGIN " n { on = 1; next }
		index($0, "@@END " n " ") == 1 { on = 0 } on' "$out/report.txt"
}
# status NAME: "STATUS [SECONDS]" of section NAME, empty if it never ended
status() {
	sed -n "s/^@@END $1 //p" "$out/report.txt"
}
for s in modprobe-module proc-crypto-before mode-test luks2-integrity-test \
	proc-crypto-after lsmod dmesg; do
	section "$s" >"$out/$s.txt"
done
# drivers: "name driver priority selftest" of each /proc/crypto entry
drivers() {
	awk -v RS= '{
		name = drv = prio = st = "?"
		n = split($0, l, "\n")
		for (i = 1; i <= n; i++) {
			k = l[i]; sub(/[ \t]*:.*/, "", k)
			v = l[i]; sub(/^[^:]*:[ \t]*/, "", v)
			if (k == "name") name = v
			if (k == "driver") drv = v
			if (k == "priority") prio = v
			if (k == "selftest") st = v
		}
		print name, drv, prio, st
	}' "$1"
}

# ---------------------------------------------------------------- verdicts
pass=0 fail=0
# verdict N NAME OK DETAIL...: OK is 0 for a pass
verdict() {
	local n=$1 name=$2 ok=$3 res=FAIL
	shift 3
	if [ "$ok" = 0 ]; then
		res=PASS pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	echo "CHECK $n $name: $res $*" | tee -a "$out/verdicts.txt"
}

# 1. The module loaded, and for chacha20, xchacha20 and xchacha12 the
# driver of highest priority is one of its own and passed the kernel's
# self-tests (a driver that failed them stays listed but is never used).
ok=0 det=''
[ "$(status modprobe-module)" = 0 ] || ok=1
for a in chacha20 xchacha20 xchacha12; do
	top=$(drivers "$out/proc-crypto-before.txt" |
		awk -v a=$a '$1 == a' | sort -k3,3nr | head -n 1)
	read -r _ drv prio st <<<"${top:-? none ? ?}"
	[[ $drv =~ ^$a-[a-z0-9]+-oot$ ]] && [ "$st" = passed ] || ok=1
	det+=" $a: $drv (priority $prio, selftest $st);"
done
msg=$(head -n 3 "$out/modprobe-module.txt" | paste -sd' ')
verdict 1 module-loaded $ok "modprobe chacha20_simd: status" \
	"$(status modprobe-module | cut -d' ' -f1)${msg:+ ($msg)};${det%;}"

# mode_parts LINE: which of the four parts of a mode-test line ran and
# passed, e.g. "PLAIN ok, LUKS1 ok, LUKS2 ok, CHECKSUM ok"
mode_parts() {
	local l=$1 r=''
	case $l in
	*'PLAIN:[table OK][status OK]'*) r+='PLAIN ok' ;;
	*'[n/a]'*) r+='PLAIN n/a' ;;
	*) r+='PLAIN failed' ;;
	esac
	case $l in
	*' LUKS1:[table OK][status OK]'*) r+=', LUKS1 ok' ;;
	*' LUKS1:'*) r+=', LUKS1 failed' ;;
	*) r+=', LUKS1 not run' ;;
	esac
	case $l in
	*' LUKS2:[table OK][status OK]'*) r+=', LUKS2 ok' ;;
	*' LUKS2:'*) r+=', LUKS2 failed' ;;
	*) r+=', LUKS2 not run' ;;
	esac
	case $l in
	*' CHECKSUM:[OK]'*) r+=', CHECKSUM ok' ;;
	*' CHECKSUM:'*) r+=', CHECKSUM failed' ;;
	*) r+=', CHECKSUM not run' ;;
	esac
	echo "$r"
}

# 2. mode-test: exit 0, and both Adiantum lines ran every part and
# passed (the script itself passes with "[n/a]" lines: a cipher the
# kernel cannot build is skipped, not failed).
read -r mrc msec _ <<<"$(status mode-test) ? ?"
ok=0 det="exit $mrc (${msec} s)"
[ "$mrc" = 0 ] || ok=1
for c in xchacha12,aes-adiantum-plain64 xchacha20,aes-adiantum-plain64; do
	l=$(grep -m1 "^$c " "$out/mode-test.txt") || l=''
	p=$(mode_parts "$l")
	[ -n "$l" ] || p='no line'
	[ "$p" = 'PLAIN ok, LUKS1 ok, LUKS2 ok, CHECKSUM ok' ] || ok=1
	det+="; $c: $p"
done
verdict 2 mode-test-adiantum $ok "$det"

# 3. luks2-integrity-test: exit 0, and its four chacha20/poly1305 lines
# ran to the end: format, activate, checksum, corruption detected, OK.
read -r irc isec _ <<<"$(status luks2-integrity-test) ? ?"
ok=0 det="exit $irc (${isec} s)"
[ "$irc" = 0 ] || ok=1
for c in chacha20-plain64:poly1305:256:512 chacha20-random:poly1305:256:512 \
	chacha20-plain64:poly1305:256:4096 chacha20-random:poly1305:256:4096; do
	l=$(grep -m1 -F "[$c]" "$out/luks2-integrity-test.txt") || l=''
	case $l in
	"[$c][FORMAT][ACTIVATE][CHECKSUM][REMOVE][DETECT_CORRUPTION][OK]")
		det+="; $c OK" ;;
	'') det+="; $c: no line"; ok=1 ;;
	*'[N/A]'*) det+="; $c: N/A (not run)"; ok=1 ;;
	*) det+="; $c: $l"; ok=1 ;;
	esac
done
verdict 3 luks2-integrity-chacha20 $ok "$det"

# 4. The instances the tests made stay registered after use: Adiantum
# over both xchacha variants must be built on the module's drivers, none
# on the kernel's own; rfc7539(chacha20,poly1305) is the module's own AEAD
# (rfc7539-<isa>-<poly1305>-oot), so no rfc7539 instance at all.
inst=$(drivers "$out/proc-crypto-after.txt" |
	awk '$2 ~ /^(adiantum|rfc7539|rfc7539esp)\(/ { print $2 }' | sort -u)
ok=0 det=''
aead=$(drivers "$out/proc-crypto-after.txt" |
	awk '$1 == "rfc7539(chacha20,poly1305)" && $2 ~ /^rfc7539-[a-z0-9]+-[a-z0-9]+-oot$/ && $4 == "passed" { print $2 }')
[ -n "$aead" ] || { ok=1; det+=" no rfc7539-<isa>-<poly1305>-oot;"; }
inst=$(printf '%s\n%s' "$inst" "$aead" | sed '/^$/d')
for want in adiantum:xchacha12 adiantum:xchacha20; do
	grep -Eq "^${want%:*}\(${want#*:}-[a-z0-9]+-oot," <<<"$inst" || {
		ok=1
		det+=" no ${want%:*}(${want#*:}-<isa>-oot,...);"
	}
done
intree=$(grep -Ev '^[a-z0-9]+\((x?chacha[0-9]+)-[a-z0-9]+-oot,|^rfc7539-[a-z0-9]+-[a-z0-9]+-oot$' <<<"$inst" |
	paste -sd' ') || true
[ -z "$intree" ] || { ok=1; det+=" NOT on the module: $intree;"; }
used=$(awk '$1 == "chacha20_simd" { print $3 }' "$out/lsmod.txt")
instl=$(paste -sd' ' <<<"$inst")
verdict 4 instances-on-module $ok "${det# }${det:+ }instances:" \
	"${instl:-none};" \
	"chacha20_simd used by ${used:-?}"

# 5. No kernel report (tools/lib-posix.sh: BUG, WARNING, Oops, KASAN, UBSAN,
# lockdep, kCFI, a failed self-test...) in dmesg or on the console (which
# has the end of a kernel that died).  dm-integrity's "Checksum failed" is
# expected: the test corrupts the device on purpose.
bad=$(cat "$out/dmesg.txt" "$out/console.log" | kernel_reports | sort -u) ||
	true
ok=0
[ -z "$bad" ] || ok=1
[ -s "$out/dmesg.txt" ] || { ok=1; bad="no dmesg from the guest${bad:+|}$bad"; }
[ -n "$bad" ] || bad="no kernel report in $(wc -l <"$out/dmesg.txt") lines"
verdict 5 dmesg-clean $ok "$(head -n 4 <<<"$bad" | paste -sd'|')"

# ---------------------------------------------------------------- not run
# Every mode-test line with a part that did not run, every luks2-
# integrity-test line that printed [N/A], and a skipped script (77), each
# with its reason.  The scripts discard cryptsetup's own messages, so the
# reason is what this image lacks, or else unexplained.
# why LINE: the reason a line did not run
why() {
	if [ $variant = lean ] &&
		grep -Eq 'twofish|serpent|lrw|sha512|gcm|ccm|aegis' <<<"$1"; then
		echo "its kernel module is not in the image (lean; --full adds" \
			"twofish, serpent, lrw, sha512, gcm, ccm, aegis128)"
	else
		echo "unexplained: cryptsetup refused it (the script discards" \
			"its message); see $out/dmesg.txt"
	fi
}
notrun=0 lines=0
while IFS= read -r l; do
	lines=$((lines + 1))
	c=${l%% *}
	p=$(mode_parts "$l")
	case $p in *'n/a'* | *'not run'*) ;; *) continue ;; esac
	echo "NOT RUN mode-test $c: $p: $(why "$c")"
	notrun=$((notrun + 1))
done < <(grep -E '^[a-z0-9_:,-]+ +(PLAIN:|\[n/a\])' "$out/mode-test.txt")
ilines=$(grep -c '^\[.*\]\[FORMAT\]' "$out/luks2-integrity-test.txt") || true
while IFS= read -r l; do
	c=${l%%\]*}]
	echo "NOT RUN luks2-integrity-test $c: [N/A] (luksFormat refused it):" \
		"$(why "$c")"
	notrun=$((notrun + 1))
done < <(grep -F '[N/A]' "$out/luks2-integrity-test.txt")
# --chacha: the scripts' other lines were never in the image.
if [ $variant = chacha ]; then
	for t in mode-test luks2-integrity-test; do
		while IFS= read -r l; do
			echo "NOT RUN $t: $l: left out by --chacha (make check runs" \
				"only the ChaCha lines; make peer-tests runs them all)"
			notrun=$((notrun + 1))
		done < <(awk -v dropped=1 -f "$here/chacha-lines.awk" "$src/tests/$t")
	done
fi
for t in mode-test luks2-integrity-test; do
	[ "$(status $t | cut -d' ' -f1)" != 77 ] ||
		echo "NOT RUN $t: skipped (77): $(tail -n 1 "$out/$t.txt")"
done
# The scripts call `udevadm settle` before each dmsetup remove; there is no
# udev here (libdevmapper makes the nodes itself), so it is not found and
# the script ignores that.
echo "NOTE udevadm: not in the image (no udev in the guest); the scripts" \
	"ignore its absence"
grep -q '^@@DONE' "$out/report.txt" ||
	log "the guest did not finish; see $out/console.log"

echo "PEER-TESTS $KVER -cpu $cpu $variant: mode-test $lines lines," \
	"luks2-integrity-test ${ilines:-0} lines; $notrun not run (listed above);" \
	"build $((t1 - t0)) s, guest $((t2 - t1)) s; logs: $out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
