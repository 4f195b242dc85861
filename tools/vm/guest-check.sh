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
#   chk_consumers=1		checks 12 (fscrypt) and 13 (dm-integrity)
#   chk_fsboot=1|2|3		check 12 in three boots (7.x, run.sh): which
#				one this is; its verdict is "CHECK 12.N"
#   chk_fsdisk=DEV		check 12's filesystem on DEV, a disk the host
#				keeps from boot to boot (default: ram2, and the
#				image travels on the results port)
#   chk_prio=N			check 1: the module's default priority, and a
#				reason for it in dmesg (arm64); the checks then
#				load it with priority=400

# kernel_reports, crypto_table: the dmesg verdict and the /proc/crypto
# reader every runner shares.
# shellcheck source=../lib-posix.sh
. /bin/lib-posix.sh

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
[ -z "${chk_consumers:-}" ] || CHECKS="$CHECKS 12 13"
FS_BOOT=${chk_fsboot:-}
FS_DISK=${chk_fsdisk:-}
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
# N.M: part M of check N (run if N is asked for), the host judges N.
run_check() {
	local n=$1 name=$2 rc detail

	shift 2
	case " $CHECKS " in
	*" ${n%.*} "*) ;;
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

# crypto_table (lib-posix.sh): one line per /proc/crypto entry, "name
# driver module priority selftest refcnt".

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

# our_aeads: the module's AEAD drivers (arm64: none by default on an
# emulated CPU, both with priority=)
our_aeads() {
	crypto_table | awk -v m=$MOD '$1 ~ /^rfc7539/ && $3 == m { print $2 }' |
		sort -u
}

# load_mod: modprobe the module and wait for its drivers' self-tests (from
# 6.16 on a driver under test holds the module: modprobe -r would fail)
load_mod() {
	modprobe $MOD &&
		tested chacha20-$SFX xchacha20-$SFX xchacha12-$SFX $(our_aeads)
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
	local a row others aeads

	! loaded $MOD || fail "$MOD loaded before the check" || return
	# A kernel lookup of "chacha20" must pull the module in by its alias
	# (tcrypt alg= only asks crypto_has_alg(), then exits with EAGAIN).
	modprobe tcrypt alg=chacha20 type=5 2>/dev/null
	grep -q '^-q -- crypto-chacha20$' /tmp/modprobe-requests ||
		fail "no request_module(crypto-chacha20)" || return
	loaded $MOD || fail "crypto-chacha20 did not load $MOD" || return
	echo "loaded on request_module(crypto-chacha20)"
	# Until its self-tests end, a test larval holds the module (6.16+).
	tested chacha20-$SFX xchacha20-$SFX xchacha12-$SFX $(our_aeads) ||
		return
	[ -z "$PRIO" ] || default_prio || return
	aeads=$(our_aeads)
	modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	# An AEAD driver's name must load the module too (MODULE_ALIAS_CRYPTO).
	if [ -n "$aeads" ]; then
		set -- $aeads
		{ modprobe "crypto-$1" && loaded $MOD; } ||
			fail "modprobe crypto-$1 did not load $MOD" || return
		tested chacha20-$SFX xchacha20-$SFX xchacha12-$SFX $aeads ||
			return
		echo "loaded by the alias crypto-$1"
		modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	fi
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
	# arm64: the AEADs only where modelled faster than the template,
	# never at 250; with priority= (below) they are there.
	if [ "$PRIO" = 250 ]; then
		[ -z "$(our_aeads)" ] ||
			fail "AEADs at priority 250: $(our_aeads)" || return
		why=$(dmesg | grep -o "$MOD: no ChaCha20-Poly1305 on ${SFX%-oot} (.*)" |
			tail -n 1)
		[ -n "$why" ] || fail "dmesg gives no reason for no AEAD:" \
			"$(dmesg | grep "$MOD: .*ChaCha20-Poly1305" | tail -n 1)" ||
			return
		echo "no AEAD by default: $why"
	fi
	echo "options $MOD priority=400" >>/etc/modprobe.d/$MOD.conf
}

check_dmesg() {
	local bad taint

	bad=$(dmesg | kernel_reports)
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

# aead_top NAME: AEAD_TOP=the module's driver of NAME, if it is the
# highest of NAME's drivers and self-tested; else fails, saying why
aead_top() {
	local row others

	AEAD_TOP=
	row=$(crypto_table | awk -v n="$1" -v m=$MOD '$1 == n && $3 == m')
	[ -n "$row" ] || fail "no $1 from $MOD; drivers: $(drivers_of "$1")" ||
		return
	set -- $row
	tested "$2" || return
	others=$(crypto_table | awk -v n="$1" -v d="$2" \
		'$1 == n && $2 != d { printf " %s=%s", $2, $4 }')
	crypto_table | awk -v n="$1" -v d="$2" -v p="$4" '
		$1 == n && $2 != d && $4 >= p { bad = 1 }
		END { exit bad }' ||
		fail "$2 priority $4 is not the highest:$others" || return
	echo "$2 priority $4, self-tested; others:$others"
	AEAD_TOP=$2
}

# The module's AEADs win both lookups and match the template on the
# reference drivers; the template on the module's chacha20 matches too.
check_aead() {
	local d rfc esp n t

	loaded $MOD || load_mod || fail "modprobe $MOD failed" || return
	# The template's instances on the module's chacha20 and the best
	# poly1305 (6.x: poly1305-simd, -neon; 7.x has only the library's)
	# exist now, and still lose both lookups.
	for t in rfc7539 rfc7539esp; do
		ac bind aead "$t(chacha20-$SFX,poly1305-simd)" \
			"$t(chacha20-$SFX,poly1305-neon)" \
			"$t(chacha20-$SFX,poly1305-generic)" || return
	done
	aead_top "rfc7539(chacha20,poly1305)" || return
	rfc=$AEAD_TOP
	aead_top "rfc7539esp(chacha20,poly1305)" || return
	esp=$AEAD_TOP
	ac chachapoly "$rfc" "$esp" --ref $REF || return
	n=$AC_PASSED
	ac wycheproof /wycheproof-chacha20poly1305.txt "$rfc" || return
	n=$((n + AC_PASSED))
	ac aead chacha20-$SFX --ref $REF || return
	d=$(drivers_of "rfc7539(chacha20,poly1305)")
	echo "$d" | grep -q "rfc7539(chacha20-$SFX," ||
		fail "no rfc7539 instance on chacha20-$SFX (have: $d)" || return
	echo "$((n + AC_PASSED)) cases; $rfc and $esp on top; drivers: $d"
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
refcnt() { crypto_refcnt "$1"; }

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

# --- Checks 12 and 13 (chk_consumers=1): the kernel's own consumers of
# the module's drivers, fscrypt and dm-crypt's AEAD over dm-integrity.

# fc ARGS: fscrypt-check
fc() {
	/bin/fscrypt-check "$@"
}

# The files of one set, "size:name-length" each: every size around the
# ChaCha block and the 4 KiB filesystem block, and names from 1 byte to
# ext4's limit of 255.
FS_FILES="0:255 1:1 15:16 16:17 17:32 255:64 256:100 257:2 4095:255
	4096:200 4097:31 65613:128 1048909:254"
FS_MARK=fscrypt-plaintext	# in every name and content line

# fs_name I LEN: file I's name, LEN bytes; the marker where it fits
fs_name() {
	local head

	if [ "$2" -ge 40 ]; then
		head=$FS_MARK-name-$1-
	else
		head=$1
	fi
	echo "$head$(head -c $(($2 - ${#head})) /dev/zero | tr '\0' n)"
}

# fs_write DIR SET: the files of a set; their names and sums into
# /tmp/fs.SET.names and /tmp/fs.SET.sums
fs_write() {
	local f i=0 size len name

	for f in $FS_FILES; do
		size=${f%:*} len=${f#*:}
		name=$(fs_name $i "$len")
		yes "$FS_MARK-content-$2-$i" | head -c "$size" >"$1/$name" ||
			fail "writing $size bytes to a $len-byte name failed" ||
			return
		i=$((i + 1))
	done
	sync
	(cd "$1" && printf '%s\n' *) | sort >/tmp/fs.$2.names
	(cd "$1" && sha256sum -- *) | sort >/tmp/fs.$2.sums
	echo "set $2: $(wc -l </tmp/fs.$2.names) files, $(du -s "$1" | cut -f1) KiB"
}

# fs_verify DIR SET: the same names, the same contents
fs_verify() {
	(cd "$1" && printf '%s\n' *) | sort >/tmp/fs.names
	cmp -s /tmp/fs.names /tmp/fs.$2.names ||
		fail "set $2: names differ: $(diff /tmp/fs.$2.names /tmp/fs.names | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')" ||
		return
	(cd "$1" && sha256sum -- *) | sort >/tmp/fs.sums
	cmp -s /tmp/fs.sums /tmp/fs.$2.sums ||
		fail "set $2: contents differ in: $(diff /tmp/fs.$2.sums /tmp/fs.sums | sed -n 's/^+[0-9a-f]\{64\}  *\(.\{1,40\}\).*/\1/p' | tr '\n' ' ')" ||
		return
	echo "set $2: $(wc -l </tmp/fs.names) names and contents as written"
}

# adiantum_on PATTERN: the driver of the Adiantum instance whose stream
# cipher matches PATTERN (a grep -E expression), and its refcnt
adiantum_on() {
	local d

	d=$(drivers_of "$ADIANTUM" | tr ' ' '\n' | grep -E "^adiantum\($1," |
		head -n 1)
	[ -n "$d" ] || fail "no $ADIANTUM on $1 (have: $(drivers_of "$ADIANTUM"))" ||
		return
	echo "$d refcnt $(refcnt "$d")"
}

# fs_mount: the ext4 on FS_DEV at /mnt/fs, with the keys in /tmp/fs.key*
# (their ids in FS_IDS)
fs_mount() {
	local k id

	mount -t ext4 $FS_DEV /mnt/fs || fail "mount failed" || return
	FS_IDS=
	for k in /tmp/fs.key1 /tmp/fs.key2; do
		[ -e $k ] || continue
		id=$(fc add-key /mnt/fs $k) || fail "adding $k failed" ||
			return
		FS_IDS="$FS_IDS $id"
	done
}

# fs_umount: remove the keys (the kernel says whether files held them),
# then unmount
fs_umount() {
	local id

	for id in $FS_IDS; do
		echo "remove-key $id: $(fc remove-key /mnt/fs $id)"
	done
	umount /mnt/fs || fail "umount failed"
}

# fs_new [MIB]: a new ext4 with encryption on FS_DEV (on its first MIB
# MiB if given), mounted, no keys yet
fs_new() {
	FS_DEV=${FS_DISK:-/dev/ram2} FS_IDS=
	rm -f /tmp/fs.key1 /tmp/fs.key2
	mkfs.ext4 -q -F -b 4096 -O encrypt $FS_DEV ${1:+${1}M} ||
		fail "mkfs.ext4 -O encrypt failed" || return
	mkdir -p /mnt/fs
	fs_mount
}

# fs_keydir SET [direct]: a new key for set SET (/tmp/fs.keySET) added,
# and directory /mnt/fs/dSET made with a v2 Adiantum policy on it
# (mode 9 for contents and names; per-file keys, or DIRECT_KEY)
fs_keydir() {
	local dir=/mnt/fs/d$1 id

	head -c 64 /dev/urandom >/tmp/fs.key$1
	id=$(fc add-key /mnt/fs /tmp/fs.key$1) || fail "add-key $1 failed" ||
		return
	FS_IDS="$FS_IDS $id"
	mkdir $dir
	fc set-policy $dir "$id" $2 ||
		fail "set-policy${2:+ ($2)} failed" || return
	echo "d$1: $(fc get-policy $dir) (mode 9: Adiantum; ${2:-per-file keys})"
	fc get-policy $dir | grep -q '^v2 contents 9 filenames 9 ' ||
		fail "d$1 has not the policy set" || return
}

# fs_grep: how many times the marker is on FS_DEV, in contents and names
fs_grep() {
	printf %s "$FS_MARK-content" >/tmp/fs.pat
	printf %s "$FS_MARK-name" >/tmp/fs.patn
	echo "$(fc find $FS_DEV /tmp/fs.pat | grep -c .)" \
		"$(fc find $FS_DEV /tmp/fs.patn | grep -c .)"
}

# fs_no_plaintext: the marker is nowhere on FS_DEV (unmounted)
fs_no_plaintext() {
	local hits

	hits=$(fs_grep)
	echo "marker in contents, names on $FS_DEV: $hits"
	[ "$hits" = "0 0" ] || fail "$FS_DEV holds plaintext ($hits)"
}

# fs_control: a file outside the encrypted directories, and the same
# search finds it (so that "not found" above means something)
fs_control() {
	local hits

	mount -t ext4 $FS_DEV /mnt/fs || fail "mount failed" || return
	mkdir /mnt/fs/plain
	yes "$FS_MARK-content-control" | head -c 8192 \
		>"/mnt/fs/plain/$(fs_name 99 60)"
	umount /mnt/fs || fail "umount failed" || return
	hits=$(fs_grep)
	echo "with a control file in an unencrypted directory: $hits"
	case $hits in
	0\ *|*\ 0) fail "the search does not find the control file ($hits)" ||
		return ;;
	esac
}

# in_tree: after modprobe -r, the kernel's own drivers loaded, so that
# the next lookup of xchacha12 or chacha20 finds them rather than asking
# request_module(), whose alias would load the module again
in_tree() {
	modprobe crypto-chacha20-$REF ||
		fail "modprobe crypto-chacha20-$REF failed" || return
	tested chacha20-$REF xchacha12-$REF
}

check_fscrypt() {
	local rc

	fscrypt_round_trip
	rc=$?
	! grep -q ' /mnt/fs ' /proc/mounts || umount /mnt/fs
	loaded $MOD || load_mod
	return $rc
}

fscrypt_round_trip() {
	local d held idle

	[ -x /bin/fscrypt-check ] || fail "fscrypt-check is missing" || return
	loaded $MOD || load_mod || fail "modprobe $MOD failed" || return
	fs_new || return

	# Direction 1: written through the module, read through the kernel's.
	fs_keydir 1 || return
	fs_write /mnt/fs/d1 1 || return
	d=$(adiantum_on "xchacha12-$SFX") || fail "$d" || return
	held=${d##* }
	echo "written via $d"
	dmesg | grep 'fscrypt: Adiantum using implementation' | tail -n 2
	fs_umount || return
	idle=$(refcnt "${d% refcnt*}")
	echo "${d% refcnt*}: refcnt $held in use, $idle after umount"
	[ "$held" -gt "$idle" ] ||
		fail "the Adiantum instance on xchacha12-$SFX held no more references in use ($held) than idle ($idle)" ||
		return
	modprobe -r $MOD ||
		fail "modprobe -r $MOD failed after umount: $(grep "^$MOD " /proc/modules)" ||
		return
	[ -z "$INTREE" ] || modprobe -r $INTREE 2>/dev/null
	in_tree || return
	fs_mount || return
	fs_verify /mnt/fs/d1 1 || return
	d=$(adiantum_on 'xchacha12-[a-z0-9]*') || fail "$d" || return
	case $d in
	*-oot,*) fail "read through $d with $MOD unloaded" || return ;;
	esac
	! loaded $MOD || fail "$MOD was loaded again" || return
	echo "set 1 read back via $d"

	# Direction 2: written through the kernel's, read through the module.
	fs_keydir 2 direct || return
	fs_write /mnt/fs/d2 2 || return
	d=$(adiantum_on 'xchacha12-[a-z0-9]*') || fail "$d" || return
	echo "written via $d"
	! loaded $MOD || fail "$MOD was loaded again" || return
	fs_umount || return
	load_mod || fail "modprobe $MOD failed" || return
	fs_mount || return
	fs_verify /mnt/fs/d2 2 || return
	d=$(adiantum_on "xchacha12-$SFX") || fail "$d" || return
	[ "${d##* }" -gt 1 ] || fail "$d: no reference from the files" ||
		return
	echo "set 2 read back via $d"
	fs_verify /mnt/fs/d1 1 || return
	fs_umount || return

	# On the device: no marker; a control file, and the search finds it.
	fs_no_plaintext || return
	fs_control || return
	echo "ext4 Adiantum v2: $SFX wrote, in-tree read; in-tree wrote," \
		"$SFX read; 26 files, no plaintext on the disk"
}

# --- Check 12 on 7.x (chk_fsboot=1, 2, 3): fscrypt encrypts every
# regular file's contents on ext4 through blk-crypto, here
# blk-crypto-fallback, which allocates one Adiantum transform per keyslot
# (100) at the first use of the mode and never frees them.  The stream
# cipher the fallback got at that moment serves the whole boot, and the
# module can no longer be unloaded; so each direction needs a boot of its
# own.  Boot 1 (the row's, after check 13) writes set 1 through the
# module; boot 2, without it, reads set 1 and writes set 2 through the
# kernel's own drivers; boot 3, the module loaded first, reads both.
# The filesystem stays on the virtio disk run.sh gives each of the three
# boots (chk_fsdisk); its keys and the sets' names and sums go from boot
# to boot through the host: sent on the results port between FSIMG lines,
# put back into the initramfs.  Without the disk, the image goes that way
# too.

# adiantum_idle PATTERN: every Adiantum instance whose stream cipher does
# not match PATTERN is unused (refcnt 1: only registered)
adiantum_idle() {
	local d busy=

	for d in $(drivers_of "$ADIANTUM"); do
		echo "$d" | grep -q -E "^adiantum\($1," && continue
		[ "$(refcnt "$d")" -le 1 ] || busy="$busy $d=$(refcnt "$d")"
	done
	[ -z "$busy" ] || fail "in use besides $1:$busy"
}

# fs_held D HELD: D (an Adiantum driver) had HELD references with the
# files in use; after fs_umount, refcnt-1 of them must still be there
# (blk-crypto-fallback's keyslots: contents) and fewer than HELD (the
# directories' own transforms, gone with their keys: names); and fscrypt
# said it gave contents to the fallback
fs_held() {
	local idle

	dmesg | grep 'fscrypt: Adiantum using'
	dmesg | grep -q 'fscrypt: Adiantum using blk-crypto-fallback' ||
		fail "fscrypt does not say it uses blk-crypto-fallback" ||
		return
	idle=$(refcnt "$1")
	echo "$1: refcnt $2 in use, $idle after umount"
	[ "$idle" -gt 1 ] ||
		fail "blk-crypto-fallback holds no transform of $1 (refcnt $idle)" ||
		return
	[ "$2" -gt "$idle" ] ||
		fail "names: $1 held no more references in use ($2) than idle ($idle)"
}

# fs_served SUFFIX WHAT: the sets just handled went through Adiantum on
# xchacha12-SUFFIX and through no other instance; then umount, and
# blk-crypto-fallback still holds that instance (fs_held).  Says "WHAT via
# <instance> refcnt N" and sets FS_DRV to the instance's driver name.
fs_served() {
	local d

	d=$(adiantum_on "xchacha12-$1") || fail "$d" || return
	echo "$2 via $d"
	adiantum_idle "xchacha12-$1" || return
	fs_umount || return
	FS_DRV=${d% refcnt*}
	fs_held "$FS_DRV" "${d##* }"
}

# fs_pack: the keys and the sets' names and sums, and the filesystem's
# image (its FS_MIB MiB) unless it is on FS_DISK, in /tmp/fsimg.tgz
fs_pack() {
	local img=

	sync
	if [ -z "$FS_DISK" ]; then
		dd if=$FS_DEV of=/tmp/fs.img bs=1M count=$FS_MIB 2>/dev/null ||
			fail "reading $FS_DEV failed" || return
		img=fs.img
	fi
	(cd /tmp && tar -czf /tmp/fsimg.tgz $img fs.key* fs.[12].names \
		fs.[12].sums) || fail "packing $FS_DEV failed" || return
	rm -f /tmp/fs.img
	echo "image: $FS_MIB MiB ${FS_DISK:+left on $FS_DISK, }$(wc -c </tmp/fsimg.tgz) bytes gzipped" \
		"(uptime $(cut -d' ' -f1 /proc/uptime) s)"
}

# fs_send: /tmp/fsimg.tgz in base64 to the host, between "FSIMG BEGIN"
# and "FSIMG END <sha256>"; run.sh gives it to the next boot as /fsimg.tgz
fs_send() {
	echo FSIMG BEGIN >"$RESULTS"
	base64 /tmp/fsimg.tgz >"$RESULTS"
	echo "FSIMG END $(sha256sum </tmp/fsimg.tgz | cut -c1-64)" >"$RESULTS"
	echo "sent (uptime $(cut -d' ' -f1 /proc/uptime) s)"
}

# fs_receive: the previous boot's keys and lists into /tmp, its image
# onto FS_DEV unless that is FS_DISK; mounted
fs_receive() {
	FS_DEV=${FS_DISK:-/dev/ram2}
	[ -e /fsimg.tgz ] || fail "no /fsimg.tgz in the initramfs" || return
	tar -xzf /fsimg.tgz -C /tmp || fail "unpacking /fsimg.tgz failed" ||
		return
	if [ -z "$FS_DISK" ]; then
		dd if=/tmp/fs.img of=$FS_DEV bs=1M conv=fsync 2>/dev/null ||
			fail "writing $FS_DEV failed" || return
		rm -f /tmp/fs.img
	fi
	mkdir -p /mnt/fs
	fs_mount
}

# fscrypt_part N: part N of check 12 (7.x), unmounted whatever happens
fscrypt_part() {
	local rc

	[ -x /bin/fscrypt-check ] || fail "fscrypt-check is missing" || return
	fscrypt_boot$1
	rc=$?
	! grep -q ' /mnt/fs ' /proc/mounts || umount /mnt/fs
	return $rc
}

# The filesystem of the three boots: 12 MiB hold both sets beside ext4's
# 4 MiB journal, and less to pack and send than ram2's 32.
FS_MIB=12

# Boot 1: the module loaded before fscrypt's first use.
fscrypt_boot1() {
	loaded $MOD || load_mod || fail "modprobe $MOD failed" || return
	fs_new $FS_MIB || return
	fs_keydir 1 || return
	fs_write /mnt/fs/d1 1 || return
	fs_served "$SFX" "written" || return
	echo "$MOD in use for good: $(grep "^$MOD " /proc/modules)"
	fs_no_plaintext || return
	fs_pack || return
	# The control file goes onto a copy when the disk goes on to boot 2,
	# whose search must find nothing.
	if [ -n "$FS_DISK" ]; then
		dd if=$FS_DISK of=/dev/ram2 bs=1M count=$FS_MIB 2>/dev/null ||
			fail "copying $FS_DISK to ram2 failed" || return
		FS_DEV=/dev/ram2
	fi
	fs_control || return
	fs_send
	echo "boot 1: set 1 written via $FS_DRV (contents through" \
		"blk-crypto-fallback, names), no plaintext on the disk"
}

# Boot 2: the module never loaded; the kernel's own drivers.
fscrypt_boot2() {
	! loaded $MOD || fail "$MOD loaded before the check" || return
	in_tree || return
	fs_receive || return
	fs_verify /mnt/fs/d1 1 || return
	fs_keydir 2 direct || return
	fs_write /mnt/fs/d2 2 || return
	fs_served "$REF" "set 1 read, set 2 written" || return
	! loaded $MOD || fail "$MOD was loaded" || return
	! grep -q -- -oot /proc/crypto ||
		fail "drivers of $MOD, or instances on them, in /proc/crypto" || return
	fs_no_plaintext || return
	fs_pack || return
	fs_send
	check_dmesg || return
	echo "boot 2: set 1 read back, set 2 written via $FS_DRV" \
		"($MOD not loaded)"
}

# Boot 3: the module loaded before fscrypt's first use again.
fscrypt_boot3() {
	load_mod || fail "modprobe $MOD failed" || return
	fs_receive || return
	fs_verify /mnt/fs/d2 2 || return
	fs_verify /mnt/fs/d1 1 || return
	fs_served "$SFX" "sets 1 and 2 read" || return
	check_dmesg || return
	echo "boot 3: set 2 (in-tree's) and set 1 read back via $FS_DRV"
}

# cs_offset DEV: the LUKS2 data offset in bytes
cs_offset() {
	cs luksDump "$1" |
		sed -n 's/^[[:space:]]*offset: *\([0-9]*\) \[bytes\]/\1/p' |
		head -n 1
}

# direct_sum DEV N: sha256 of the first N 64 KiB blocks, read with O_DIRECT
# (no readahead into blocks never written, whose tags would fail: the
# device was formatted without the wipe)
direct_sum() {
	dd if="$1" bs=64k count="$2" iflag=direct 2>/dev/null | sha256sum |
		cut -c1-64
}

# blk DEV I: block I (IT_BS bytes) of DEV, read with O_DIRECT, to stdout
blk() {
	dd if="$1" bs=$IT_BS skip="$2" count=1 iflag=direct 2>/tmp/blk.err
}

check_integrity() {
	local rc

	integrity_round_trip
	rc=$?
	[ ! -e /dev/mapper/integ ] || cs close integ
	loaded $MOD || load_mod
	return $rc
}

integrity_round_trip() {
	local dev=/dev/ram3 n=64 want got off hits k=100 ct i j d
	local luks="--type luks2 --cipher chacha20-random --integrity poly1305"
	local kdf="--pbkdf pbkdf2 --pbkdf-force-iterations 1000"
	local aead="rfc7539(chacha20,poly1305)"

	[ -x /sbin/cryptsetup ] || fail "cryptsetup is not in the initramfs" ||
		return
	[ -x /bin/fscrypt-check ] || fail "fscrypt-check is missing" || return
	modprobe dm-integrity || fail "modprobe dm-integrity failed" || return
	loaded $MOD || load_mod || fail "modprobe $MOD failed" || return
	mkdir -p /run/cryptsetup
	head -c 64 /dev/urandom >/tmp/integ.key
	cs luksFormat $luks $kdf --integrity-no-wipe --batch-mode \
		--key-file /tmp/integ.key $dev ||
		fail "cryptsetup luksFormat --integrity poly1305 failed" || return
	cs open --key-file /tmp/integ.key $dev integ ||
		fail "cryptsetup open failed" || return
	DM_DISABLE_UDEV=1 dmsetup table | sed 's/:32:logon:[^ ]*/<key>/'
	DM_DISABLE_UDEV=1 dmsetup table integ | grep -q \
		" crypt capi:rfc7539(chacha20,poly1305)-random .* integrity:28:aead" ||
		fail "the mapping is not rfc7539 with 28-byte tags" || return
	# The module's own AEAD.
	aead_top "$aead" || return
	d=$AEAD_TOP
	[ "$(refcnt "$d")" -gt 1 ] ||
		fail "$d is not in use (refcnt $(refcnt "$d"))" || return
	echo "$d refcnt $(refcnt "$d")"
	IT_BS=$(cs luksDump $dev | sed -n 's/^[[:space:]]*sector: *\([0-9]*\) \[bytes\]/\1/p' | head -n 1)
	IT_BS=${IT_BS:-512}
	dd if=/dev/urandom of=/tmp/plain bs=64k count=$n 2>/dev/null
	want=$(sha256sum </tmp/plain | cut -c1-64)
	dd if=/tmp/plain of=/dev/mapper/integ bs=64k conv=fsync 2>/dev/null ||
		fail "writing /dev/mapper/integ failed" || return
	[ "$(direct_sum /dev/mapper/integ $n)" = "$want" ] ||
		fail "read back through the module's $aead differs" || return

	# Where block k's ciphertext is on the disk: as dm-integrity gives it
	# to dm-crypt, found on $dev; once, past the LUKS2 header.
	blk /dev/mapper/integ_dif $k >/tmp/ct ||
		fail "reading block $k of integ_dif: $(cat /tmp/blk.err)" ||
		return
	off=$(cs_offset $dev)
	hits=$(fc find $dev /tmp/ct 512)
	echo "$IT_BS-byte block $k: ciphertext on $dev at byte $hits (LUKS2 data from $off)"
	set -- $hits
	[ $# = 1 ] && [ "$1" -ge "$off" ] ||
		fail "block $k's ciphertext is not once past the header: $hits" ||
		return
	cs close integ || fail "cryptsetup close failed" || return

	# The kernel's own drivers read it back.
	modprobe -r $MOD || fail "modprobe -r $MOD failed" || return
	[ -z "$INTREE" ] || modprobe -r $INTREE 2>/dev/null
	in_tree || return
	# The template's instance on the kernel's own drivers, first: with
	# no AEAD registered, a lookup of the plain name would load $MOD by
	# its alias.
	case $SFX in
	neon*) ;;
	*)	ac bind aead "rfc7539(chacha20-simd,poly1305-simd)" \
			"rfc7539(chacha20-lib,poly1305-generic)" \
			"rfc7539(chacha20-$REF,poly1305-generic)" || return ;;
	esac
	cs open --key-file /tmp/integ.key $dev integ ||
		fail "cryptsetup open ($REF) failed" || return
	d=$(drivers_of "$aead" | tr ' ' '\n' | grep '^rfc7539(chacha20-' |
		grep -v -- '-oot,')
	echo "in-tree: $d"
	[ -n "$d" ] || fail "no in-tree $aead instance" || return
	! loaded $MOD || fail "$MOD was loaded again" || return
	got=$(direct_sum /dev/mapper/integ $n)
	[ "$got" = "$want" ] ||
		fail "the in-tree $aead reads back other data than the module's wrote" ||
		return
	echo "4 MiB written via the module's $aead read back identically via $d"
	cs close integ || fail "cryptsetup close failed" || return

	# One flipped byte in block k's ciphertext: that block fails its
	# tag, its neighbours read as written.
	ct=$(head -c 1 /tmp/ct | od -A n -t u1 | tr -d ' ')
	printf '%b' "\\0$(printf %o $(((ct ^ 1) & 255)))" |
		dd of=$dev bs=1 seek="$hits" conv=notrunc,fsync 2>/dev/null ||
		fail "writing $dev failed" || return
	for i in 1 2; do
		[ $i = 1 ] || load_mod || fail "modprobe $MOD failed" || return
		cs open --key-file /tmp/integ.key $dev integ ||
			fail "cryptsetup open failed" || return
		if blk /dev/mapper/integ $k >/tmp/blk; then
			fail "block $k read without error after the corruption ($(wc -c </tmp/blk) bytes)"
			return
		fi
		# dm-crypt fails the bio with BLK_STS_PROTECTION: read()
		# gets EILSEQ ("Invalid or incomplete multibyte or wide
		# character"); plain EIO would do too.
		grep -q -E 'I/O error|Invalid or incomplete multibyte' \
			/tmp/blk.err ||
			fail "block $k: not an I/O error: $(cat /tmp/blk.err)" ||
			return
		IT_ERR=EIO
		! grep -q multibyte /tmp/blk.err || IT_ERR=EILSEQ
		echo "block $k: $IT_ERR, $(wc -c </tmp/blk) bytes read: $(tail -n 1 /tmp/blk.err)"
		for j in $((k - 1)) $((k + 1)); do
			blk /dev/mapper/integ $j >/tmp/blk ||
				fail "block $j: $(cat /tmp/blk.err)" || return
			dd if=/tmp/plain bs=$IT_BS skip=$j count=1 2>/dev/null |
				cmp -s - /tmp/blk ||
				fail "block $j differs from what was written" ||
				return
		done
		d=$(drivers_of "$aead" | tr ' ' '\n' | grep '^rfc7539(chacha20-' | tr '\n' ' ')
		echo "via $d: block $k $IT_ERR, blocks $((k - 1)) and $((k + 1)) as written"
		cs close integ || fail "cryptsetup close failed" || return
	done
	dmesg | grep -i 'integrity\|AEAD' | tail -n 3
	echo "LUKS2 chacha20-random + poly1305 on dm-integrity: $SFX wrote," \
		"in-tree read back; a flipped byte: $IT_ERR (in-tree and $SFX)"
}

echo "guest-check: kernel $(uname -r), expecting *-$SFX, reference *-$REF"
echo "guest-check: uname -v: $(uname -v)"	# SMP PREEMPT_RT on -rt kernels
grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'sse2|ssse3|avx2|avx512f' |
	tr '\n' ' '
echo
KEY=$(head -c 32 /dev/urandom | xxd -p -c 64)
# ram0 for dm-crypt; ram1 for LUKS2, whose default header takes 16 MiB;
# ram2 for ext4 (check 12), ram3 for dm-integrity (13).  brd allocates
# on write: unused ones cost nothing.
modprobe brd rd_nr=4 rd_size=32768
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
if [ -n "$FS_BOOT" ]; then
	# Check 12 leaves the module in use for good (blk-crypto-fallback):
	# 13, which unloads it, first.
	run_check 13 dm-integrity check_integrity
	run_check 12.$FS_BOOT fscrypt-adiantum fscrypt_part $FS_BOOT
else
	run_check 12 fscrypt-adiantum check_fscrypt
	run_check 13 dm-integrity check_integrity
fi
run_check 2 dmesg check_dmesg
say "CHECKS DONE"
echo "=== dmesg"
dmesg
echo "=== end of dmesg"
