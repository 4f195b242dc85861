#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC2086
#
# guest-check.sh - the checks, run inside the test VM by /init.
#
# Each check prints "CHECK <n> <name>: PASS|FAIL <detail>" to the console
# and to /dev/ttyS1 (read by run.sh), then "CHECKS DONE".  A check's details
# go to the console only, indented.  Settings from the kernel command line:
#   chk_expect=avx2|ssse3|sse2|neon	implementation the module should choose
#   chk_stress=SECONDS		length of the stress check (default 15)
#   chk_results=FILE		where verdicts also go (default /dev/ttyS1)
#   chk_intree=MODULE		the in-tree SIMD ChaCha (default chacha-x86_64)
#   chk_checks=N,N,...		only these checks (default: 1 to 10)
#   chk_keepregs=N		check 11: N requests that must keep the calling
#				task's zmm16-31 and k1-k7 (AVX-512 CPUs)
#   chk_prio=N			check 1: the module's default priority, and a
#				reason for it in dmesg (arm64); the checks then
#				load it with priority=400

# Busybox's sh runs its own applets first: use kmod's module tools instead.
for t in modprobe modinfo insmod rmmod lsmod; do
	eval "$t() { /sbin/$t \"\$@\"; }"
done

MOD=chacha20_simd
SFX=${chk_expect:-avx2}-oot	# our drivers: chacha20-avx2-oot, ...
ALGS="chacha20 xchacha20 xchacha12"
STRESS=${chk_stress:-15}
PRIO=${chk_prio:-}
CHECKS=$(echo "${chk_checks:-1,2,3,4,5,6,7,8,9,10}" | tr , ' ')
[ -z "${chk_keepregs:-}" ] || CHECKS="$CHECKS 11"
ADIANTUM="adiantum(xchacha12,aes)"
RESULTS=${chk_results:-/dev/ttyS1}
# The kernel's own drivers we compare with: *-generic (module chacha_generic,
# beside the SIMD module chacha-x86_64) up to Linux 6.15; from 6.16 on,
# *-lib (module chacha, crypto/chacha.c), which runs the in-tree SIMD
# library itself.  Found by alias, without loading anything.
if modprobe -n -q crypto-chacha20-generic; then
	REF=generic INTREE=${chk_intree:-chacha-x86_64}
elif modprobe -n -q crypto-chacha20-lib; then
	REF=lib INTREE=
else
	REF=generic INTREE=${chk_intree:-chacha-x86_64}	# the checks then say what is missing
fi

say() {
	echo "$*"
	echo "$*" >"$RESULTS" 2>/dev/null
}

fail() {
	echo "$*"
	return 1
}

# run_check N NAME FUNCTION: the verdict's detail is the last line printed.
run_check() {
	local n=$1 name=$2 rc detail

	shift 2
	case " $CHECKS " in
	*" $n "*) ;;
	*) return 0 ;;
	esac
	echo "--- check $n $name (uptime $(cut -d' ' -f1 /proc/uptime) s)"
	"$@" >/tmp/check.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/check.out
	detail=$(grep -v '^ *$' /tmp/check.out | tail -n 1 | cut -c1-300)
	if [ $rc -eq 0 ]; then
		say "CHECK $n $name: PASS $detail"
	else
		say "CHECK $n $name: FAIL $detail"
	fi
}

# One line per /proc/crypto entry: name driver module priority selftest
crypto_table() {
	awk -F' *: ' '
		$1 == "name" { n = $2 }
		$1 == "driver" { d = $2 }
		$1 == "module" { m = $2 }
		$1 == "priority" { p = $2 }
		$1 == "selftest" { s = $2 }
		NF == 0 && n != "" { print n, d, m, p, s; n = "" }
		END { if (n != "") print n, d, m, p, s }' /proc/crypto
}

drivers_of() {
	crypto_table | awk -v n="$1" '$1 == n { print $2 }' | tr '\n' ' '
}

loaded() {
	grep -q "^$1 " /proc/modules
}

# tested DRIVER...: wait (up to 120 s in all) until each driver is in
# /proc/crypto once, self-tested.  From 6.16 on the crypto manager tests a
# new driver after registration returns; meanwhile its test larval (module
# "kernel", selftest "unknown") stands beside it under the same name.
tested() {
	local d t=0

	for d in "$@"; do
		until [ "$(crypto_table | awk -v d="$d" '$2 == d { print $5 }')" = passed ]; do
			[ $t -lt 120 ] || fail "$d: not self-tested after 120 s" ||
				return
			sleep 1
			t=$((t + 1))
		done
	done
}

# load_mod: modprobe the module and wait for its drivers' self-tests
load_mod() {
	modprobe $MOD && tested chacha20-$SFX xchacha20-$SFX xchacha12-$SFX
}

# ac CMD ARGS: afalg-check with a time limit; prints its output, then
# "afalg-check CMD: RESULT ..."; sets AC_PASSED to its count of passes.
ac() {
	local rc res

	AC_PASSED=0
	[ -x /bin/afalg-check ] || fail "afalg-check is missing" || return
	timeout 300 afalg-check "$@" >/tmp/ac.out 2>&1
	rc=$?
	grep -v '^RESULT' /tmp/ac.out
	res=$(grep '^RESULT' /tmp/ac.out)
	AC_PASSED=$(echo "$res" | sed -n 's/^RESULT OK: \([0-9]*\) passed.*/\1/p')
	[ $rc -eq 0 ] ||
		res="$res; first: $(grep -m1 '^FAIL' /tmp/ac.out)"
	echo "afalg-check $1: ${res:-no RESULT line, exit $rc}"
	return $rc
}

# dm_create NAME KEY: an Adiantum mapping over /dev/ram0
dm_create() {
	local sectors

	sectors=$(blockdev --getsz /dev/ram0) &&
	DM_DISABLE_UDEV=1 dmsetup create "$1" --table \
		"0 $sectors crypt capi:$ADIANTUM-plain64 $2 0 /dev/ram0 0"
}

dm_remove() {
	DM_DISABLE_UDEV=1 dmsetup remove "$1"
}

# adiantum_uses STREAM_DRIVER: an Adiantum instance is built on it
adiantum_uses() {
	drivers_of "$ADIANTUM" | grep -q "adiantum($1," ||
		fail "no $ADIANTUM on $1 (have: $(drivers_of "$ADIANTUM"))"
}

check_load() {
	local a row others

	! loaded $MOD || fail "$MOD loaded before the check" || return
	# A kernel lookup of "chacha20" must pull the module in by its alias
	# (tcrypt alg= only asks crypto_has_alg(), then exits with EAGAIN).
	modprobe tcrypt alg=chacha20 type=5 2>/dev/null
	grep -q '^-q -- crypto-chacha20$' /tmp/modprobe-requests ||
		fail "no request_module(crypto-chacha20)" || return
	loaded $MOD || fail "crypto-chacha20 did not load $MOD" || return
	echo "loaded on request_module(crypto-chacha20)"
	# Until its self-tests end, a test larval holds the module (6.16+).
	tested chacha20-$SFX xchacha20-$SFX xchacha12-$SFX || return
	[ -z "$PRIO" ] || default_prio || return
	modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	load_mod || fail "modprobe $MOD failed" || return
	modprobe crypto-chacha20-$REF ||
		fail "modprobe crypto-chacha20-$REF failed" || return
	tested chacha20-$REF xchacha20-$REF xchacha12-$REF || return
	[ -z "$INTREE" ] || modprobe $INTREE 2>/dev/null ||
		echo "the in-tree $INTREE does not load on this CPU"
	for a in $ALGS; do
		row=$(crypto_table | awk -v d="$a-$SFX" '$2 == d')
		[ -n "$row" ] ||
			fail "no $a-$SFX; $a drivers: $(drivers_of "$a")" ||
			return
		set -- $row
		[ "$3" = $MOD ] || fail "$2 comes from module $3" || return
		[ "$5" = passed ] || fail "$2: selftest $5" || return
		others=$(crypto_table | awk -v n="$a" -v d="$2" \
			'$1 == n && $2 != d { printf " %s=%s", $2, $4 }')
		crypto_table | awk -v n="$a" -v d="$2" -v p="$4" '
			$1 == n && $2 != d && $4 >= p { bad = 1 }
			END { exit bad }' ||
			fail "$2 priority $4 is not the highest:$others" ||
			return
		echo "$2 priority $4, selftest passed; others:$others"
	done
	echo "$ALGS: *-$SFX loaded, self-tested, highest priority${PRIO:+ with priority=400 (default $PRIO)}"
}

# The policy (arm64: 400 only where a core of ours is modelled faster than
# the kernel's): the drivers as loaded by default are at $PRIO and dmesg
# says why.  The other checks test the module's data path, so from here
# on every modprobe gives it priority=400, above the in-tree drivers.
default_prio() {
	local a p why

	for a in $ALGS; do
		p=$(crypto_table | awk -v d="$a-$SFX" '$2 == d { print $4 }')
		[ "$p" = "$PRIO" ] ||
			fail "$a-$SFX priority ${p:-?} by default, expected $PRIO" ||
			return
	done
	why=$(dmesg | grep -o "$MOD: using ${SFX%-oot}, priority $PRIO (.*)" |
		tail -n 1)
	[ -n "$why" ] || fail "dmesg gives no reason for priority $PRIO:" \
		"$(dmesg | grep "$MOD: using" | tail -n 1)" || return
	echo "default priority $PRIO: $why"
	echo "options $MOD priority=400" >>/etc/modprobe.d/$MOD.conf
}

check_dmesg() {
	local bad taint
	local re='alg: |WARNING|BUG|Oops|Call Trace|RIP:|general protection'

	re="$re|UBSAN|refcount_t|list_(add|del) corruption|CFI failure"
	bad=$(dmesg | grep -E "$re" |
		grep -v -E 'alg: No test for|alg: self-tests for .* passed' |
		grep -v 'alg: full crypto tests enabled' |	# 7.x's SELFTESTS_FULL
		# The boot's report on the CPU's own RETBleed exposure (Bochs'
		# Skylake-X, tools/bochs), a pr_warn(), not a WARN() splat.
		grep -v 'RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable')
	# Taint flags: B bad page (32), D died/oops (128), W warning (512).
	taint=$(cat /proc/sys/kernel/tainted)
	[ -z "$bad" ] || fail "dmesg: $(echo "$bad" | head -n 3 | tr '\n' '|')" ||
		return
	[ $((taint & (32 | 128 | 512))) -eq 0 ] ||
		fail "kernel tainted $taint (warning/oops/bad page)" || return
	echo "no alg:/WARNING/BUG/Oops in $(dmesg | wc -l) lines, taint $taint"
}

check_compare() {
	local a total=0

	for a in $ALGS; do
		ac compare "$a-$SFX" "$a-$REF" || return
		total=$((total + AC_PASSED))
	done
	ac vector --driver "chacha20-$SFX" || return
	echo "$((total + AC_PASSED)) cases: $ALGS = *-$REF, RFC 8439 vector"
}

check_badinput() {
	ac badinput chacha20-$SFX xchacha20-$SFX xchacha12-$SFX --ref $REF || return
	echo "$AC_PASSED cases: bad key and IV lengths, empty requests"
}

check_stress() {
	ac stress "$SFX" "$STRESS" 4 --ref $REF || return
	sed -n 's/^PASS //p' /tmp/ac.out | head -n 1
}

check_tcrypt() {
	local before drv

	before=$(dmesg | wc -l)
	if modprobe tcrypt mode=214 sec=1 >/tmp/tcrypt.err 2>&1; then
		fail "tcrypt stayed loaded"
		return
	fi
	grep -q 'Resource temporarily unavailable' /tmp/tcrypt.err ||
		fail "tcrypt: $(cat /tmp/tcrypt.err)" || return
	dmesg | tail -n +$((before + 1)) >/tmp/tcrypt.log
	cat /tmp/tcrypt.log
	! grep -q 'tests failed' /tmp/tcrypt.log ||
		fail "tcrypt reports failed tests" || return
	drv=$(sed -n 's/.*testing speed of .*chacha20 (\([^)]*\)).*/\1/p' \
		/tmp/tcrypt.log | head -n 1)
	[ "$drv" = "chacha20-$SFX" ] ||
		fail "tcrypt tested '$drv', not chacha20-$SFX" || return
	echo "tcrypt mode=214 used $drv" \
		"($(grep -c 'operations in' /tmp/tcrypt.log) results)"
}

check_aead() {
	local d

	ac aead chacha20-$SFX --ref $REF || return
	d=$(drivers_of "rfc7539(chacha20,poly1305)")
	echo "$d" | grep -q "rfc7539(chacha20-$SFX," ||
		fail "no rfc7539 instance on chacha20-$SFX (have: $d)" || return
	echo "$AC_PASSED cases; instances: $d"
}

check_keepregs() {
	ac keepregs chacha20-$SFX "$chk_keepregs" --ref $REF || return
	ac keepregs xchacha12-$SFX "$chk_keepregs" --ref $REF || return
	sed -n 's/^PASS //p' /tmp/ac.out | head -n 1
}

check_unload_busy() {
	local left

	dm_create busy "$KEY" || fail "dmsetup create failed" || return
	adiantum_uses xchacha12-$SFX || return
	if modprobe -r $MOD 2>/tmp/rm.err; then
		fail "modprobe -r $MOD succeeded while dm-crypt used it"
		return
	fi
	loaded $MOD || fail "$MOD went away while in use" || return
	echo "refused while mapped: $(cat /tmp/rm.err)"
	dm_remove busy || fail "dmsetup remove failed" || return
	modprobe -r $MOD || fail "modprobe -r $MOD failed when idle" || return
	! loaded $MOD || fail "$MOD still loaded" || return
	left=$(crypto_table | grep -- "-$SFX")
	[ -z "$left" ] || fail "left in /proc/crypto: $left" || return
	load_mod || fail "reloading $MOD failed" || return
	echo "modprobe -r refused while a dm-crypt mapping used it, worked when idle"
}

# sha256 of the first N 64 KiB blocks of a device (page cache dropped)
dev_sum() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$1" bs=64k count="$2" 2>/dev/null | sha256sum | cut -c1-64
}

check_dmcrypt() {
	local n=64 want got	# n x 64 KiB

	dm_create data "$KEY" || fail "dmsetup create failed" || return
	adiantum_uses xchacha12-$SFX || return
	dd if=/dev/urandom of=/tmp/plain bs=64k count=$n 2>/dev/null
	want=$(sha256sum </tmp/plain | cut -c1-64)
	dd if=/tmp/plain of=/dev/mapper/data bs=64k conv=fsync 2>/dev/null ||
		fail "writing /dev/mapper/data failed" || return
	[ "$(dev_sum /dev/mapper/data $n)" = "$want" ] ||
		fail "read back through xchacha12-$SFX differs" || return
	[ "$(dev_sum /dev/ram0 $n)" != "$want" ] ||
		fail "/dev/ram0 holds the plaintext" || return
	dm_remove data || fail "dmsetup remove failed" || return
	modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	[ -z "$INTREE" ] || modprobe -r $INTREE 2>/dev/null
	dm_create data "$KEY" || fail "dmsetup create ($REF) failed" ||
		return
	adiantum_uses xchacha12-$REF || return
	got=$(dev_sum /dev/mapper/data $n)
	dm_remove data
	[ "$got" = "$want" ] ||
		fail "xchacha12-$REF reads back other data than xchacha12-$SFX wrote" ||
		return
	echo "4 MiB written via $ADIANTUM on xchacha12-$SFX read back" \
		"identically via xchacha12-$REF"
}

# refcnt DRIVER: /proc/crypto's reference count of one driver (0 if absent)
refcnt() {
	awk -F' *: ' -v d="$1" '$1 == "driver" { x = $2 }
		$1 == "refcnt" && x == d { r = $2 } END { print r + 0 }' /proc/crypto
}

# cs ARGS: cryptsetup without udev, its output on the console
cs() {
	DM_DISABLE_UDEV=1 timeout 300 /sbin/cryptsetup "$@"
}

# A LUKS2 round trip with Debian's cryptsetup (cryptsetup-bin), the way
# people use Adiantum: format and write through the module's xchacha12,
# read back through xchacha12-generic (or -lib); then cryptsetup benchmark.  Leaves
# no mapping and the module loaded, whatever happens.
check_cryptsetup() {
	local rc

	luks_round_trip
	rc=$?
	[ ! -e /dev/mapper/luks ] || cs close luks
	loaded $MOD || load_mod
	return $rc
}

luks_round_trip() {
	local dev=/dev/ram1 n=64 want got before held off raw zero
	local luks="--type luks2 -c xchacha12,aes-adiantum-plain64 -s 256"
	local kdf="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"

	[ -x /sbin/cryptsetup ] || fail "cryptsetup is not in the initramfs" ||
		return
	cs --version
	mkdir -p /run/cryptsetup
	head -c 64 /dev/urandom >/tmp/luks.key
	loaded $MOD || fail "$MOD is not loaded" || return
	# Argon2 takes minutes under TCG; PBKDF2 at its minimum cost.
	cs luksFormat $luks $kdf --batch-mode --key-file /tmp/luks.key $dev ||
		fail "cryptsetup luksFormat failed" || return
	before=$(refcnt xchacha12-$SFX)
	cs open --key-file /tmp/luks.key $dev luks ||
		fail "cryptsetup open failed" || return
	DM_DISABLE_UDEV=1 dmsetup table luks | sed 's/:32:logon:[^ ]*/<key>/'
	held=$(refcnt xchacha12-$SFX)
	echo "xchacha12-$SFX refcnt $before before open, $held while open"
	DM_DISABLE_UDEV=1 dmsetup table luks | grep -q -E \
		' crypt (xchacha12,aes-adiantum|capi:adiantum\(xchacha12,aes\))-plain64 ' ||
		fail "the mapping is not Adiantum" || return
	adiantum_uses xchacha12-$SFX || return
	[ "$held" -gt "$before" ] ||
		fail "the mapping holds no reference to xchacha12-$SFX" ||
		return
	dd if=/dev/urandom of=/tmp/plain bs=64k count=$n 2>/dev/null
	want=$(sha256sum </tmp/plain | cut -c1-64)
	dd if=/tmp/plain of=/dev/mapper/luks bs=64k conv=fsync 2>/dev/null ||
		fail "writing /dev/mapper/luks failed" || return
	[ "$(dev_sum /dev/mapper/luks $n)" = "$want" ] ||
		fail "read back through xchacha12-$SFX differs" || return
	cs close luks || fail "cryptsetup close failed" || return
	# On the disk, where luksDump says the data starts: neither the
	# plaintext nor untouched zeros.
	off=$(cs luksDump $dev |
		sed -n 's/^[[:space:]]*offset: *\([0-9]*\) \[bytes\]/\1/p' |
		head -n 1)
	[ -n "$off" ] || fail "no data offset in luksDump" || return
	raw=$(dd if=$dev bs=64k skip=$((off / 65536)) count=$n 2>/dev/null |
		sha256sum | cut -c1-64)
	zero=$(dd if=/dev/zero bs=64k count=$n 2>/dev/null | sha256sum |
		cut -c1-64)
	[ "$raw" != "$want" ] && [ "$raw" != "$zero" ] ||
		fail "$dev at $off holds the plaintext or nothing" || return
	echo "$dev from byte $off: ciphertext"

	# Reopen with the module gone: the kernel's own driver decrypts.
	modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	[ -z "$INTREE" ] || modprobe -r $INTREE 2>/dev/null
	cs open --key-file /tmp/luks.key $dev luks ||
		fail "cryptsetup open ($REF) failed" || return
	adiantum_uses xchacha12-$REF || return
	got=$(dev_sum /dev/mapper/luks $n)
	cs close luks
	[ "$got" = "$want" ] ||
		fail "xchacha12-$REF reads back other data than xchacha12-$SFX wrote" ||
		return
	echo "LUKS2 4 MiB written via xchacha12-$SFX read back identically via xchacha12-$REF"

	# cryptsetup benchmark: its Adiantum instance is built on the module.
	load_mod || fail "reloading $MOD failed" || return
	! drivers_of "$ADIANTUM" | grep -q "adiantum(xchacha12-$SFX," ||
		fail "an Adiantum instance on $SFX exists before the benchmark" ||
		return
	cs benchmark -c xchacha12,aes-adiantum-plain64 -s 256 ||
		fail "cryptsetup benchmark failed" || return
	echo "(QEMU TCG: these MiB/s say nothing about speed)"
	adiantum_uses xchacha12-$SFX || return
	echo "LUKS2 xchacha12,aes-adiantum-plain64: $SFX wrote, $REF read" \
		"back identically; cryptsetup benchmark ran on xchacha12-$SFX"
}

echo "guest-check: kernel $(uname -r), expecting *-$SFX, reference *-$REF"
echo "guest-check: uname -v: $(uname -v)"	# SMP PREEMPT_RT on -rt kernels
grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'sse2|ssse3|avx2|avx512f' |
	tr '\n' ' '
echo
KEY=$(head -c 32 /dev/urandom | xxd -p -c 64)
# ram0 for dm-crypt; ram1 for LUKS2, whose default header takes 16 MiB.
modprobe brd rd_nr=2 rd_size=32768
modprobe dm-crypt
# From 7.x on, AF_ALG binds only an allowlist of algorithms (cryptsetup's
# Adiantum among them) unless the sysctl crypto.af_alg_restrict is 0.
modprobe af_alg
if [ -e /proc/sys/crypto/af_alg_restrict ]; then
	echo "crypto.af_alg_restrict was $(cat /proc/sys/crypto/af_alg_restrict); 0 for afalg-check"
	echo 0 >/proc/sys/crypto/af_alg_restrict
fi

run_check 1 load check_load
run_check 3 compare check_compare
run_check 4 badinput check_badinput
run_check 5 stress check_stress
run_check 6 tcrypt check_tcrypt
run_check 7 aead check_aead
run_check 11 keepregs check_keepregs
run_check 10 cryptsetup-luks2 check_cryptsetup
run_check 9 unload-busy check_unload_busy
run_check 8 dm-crypt-adiantum check_dmcrypt
run_check 2 dmesg check_dmesg
say "CHECKS DONE"
echo "=== dmesg"
dmesg
echo "=== end of dmesg"
