#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of the KUnit VM (tools/kunit/run.sh).  For each implementation in
# kt_impls (kernel command line), load chacha20_simd forced to it, so that
# the crypto manager's self-tests and fuzzing run on it, and unload it;
# then load it as users get it (with the options of kt_modparams, e.g.
# priority=400: see run.sh), and the KUnit module, whose suites print
# their KTAP results to the console.  Lines for the runner start with "KT ".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
# lib-posix.sh: crypto_table, and CHACHA_PLANT's made-up report
# (plant_report) when the command line asks for one.
# shellcheck source=../lib-posix.sh
. /bin/lib-posix.sh
plant_report
# request_module() (the crypto manager's and the tests' references) runs
# busybox's modprobe.
echo /bin/modprobe >/proc/sys/kernel/modprobe
# The KUnit failslab cases inject failures one at a time (fail_nth), into
# slab and page allocations alike; no stack dumps, and allocations that
# may sleep fail too (requests with CRYPTO_TFM_REQ_MAY_SLEEP walk with
# GFP_KERNEL), single pages too (the walk's copy page).
for f in failslab fail_page_alloc; do
	[ -d /sys/kernel/debug/$f ] || continue
	echo 0 >/sys/kernel/debug/$f/verbose
	echo N >/sys/kernel/debug/$f/ignore-gfp-wait
done
[ ! -e /sys/kernel/debug/fail_page_alloc/min-order ] ||
	echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
# kmemleak (kt_kmemleak=1, with kmemleak=on): what boot left unreferenced
# is no concern of ours, so it is marked seen; the automatic scans stop,
# and the one scan at the end counts.
leaks=/sys/kernel/debug/kmemleak
if [ -n "${kt_kmemleak:-}" ]; then
	echo scan=off >$leaks
	echo scan >$leaks
	echo clear >$leaks
fi

# Our drivers' selftest verdicts in /proc/crypto, once every row of them
# says passed, one of them has failed (a new "alg: self-tests for ...
# using ...-oot failed" in dmesg since the count in $fails0: a broken
# module need not wait out the limit), or after 600 s: from 6.16 on the
# crypto manager tests a driver after its registration returns, and until
# the test ends its test larval (selftest "unknown", holding the module)
# stands in /proc/crypto under the same driver name.
verdicts() {
	crypto_table | awk -v what="$1" '
		$2 ~ /-oot$/ { print "KT selftest", what, $2, $5 }'
}
failures() {
	dmesg | grep -c 'alg: self-tests for .* using .*-oot failed'
}
selftests() {
	t=0
	until verdicts "$1" | awk '$5 != "passed" { bad = 1 } END { exit bad || !NR }' ||
		[ "$(failures)" -gt "$fails0" ] || [ $t -ge 600 ]; do
		sleep 1
		t=$((t + 1))
	done
	verdicts "$1"
	echo "KT waited $t s for the self-tests ($1)"
}

# What the module needs from the kernel's modules (the Poly1305 library
# of the AEADs' long requests), which insmod does not load.
for d in $(modinfo -F depends /chacha20_simd.ko | tr , " "); do
	modprobe "$d" || echo "KT modprobe $d failed"
done

# The crypto manager's fuzzing of our AEADs compares them with the
# template on the generic drivers, which it instantiates first and tests
# (at run.sh --fuzz 1000, 8000 inauthentic inputs in C);
# under TCG on a loaded host that took more than the 60 s the lookup waits
# for a larval, and our driver's self-test failed with -ETIMEDOUT (-110).
# So the instances are made here, through AF_ALG, before the module
# loads; a bind that times out is repeated, since the test goes on.
modprobe algif_aead || echo "KT modprobe algif_aead failed"
[ ! -e /proc/sys/crypto/af_alg_restrict ] ||
	echo 0 >/proc/sys/crypto/af_alg_restrict
generic_instances() {
	for t in rfc7539 rfc7539esp; do
		n=0
		until res=$(afalg-check bind aead "$t(chacha20-lib,poly1305-generic)" \
			"$t(chacha20-generic,poly1305-generic)" 2>&1) || [ $n -ge 5 ]; do
			n=$((n + 1))
		done
		echo "KT generic $t$1: $(echo "$res" | grep -E '^(PASS|FAIL)' | tail -n 1), $n retries"
	done
}
generic_instances ''

# Each implementation loads at priority 299, below chacha20-lib's 300: a
# registration that outranks a driver removes the instances built on it
# (crypto_alg_finish_registration, crypto_remove_spawns), so at 400 each
# load killed the instances bound above, and the crypto manager rebuilt
# and re-tested them inside our AEADs' self-tests, under the same 60 s
# larval wait (seen failing, -110, with three emulators on two cores).
# The crypto manager tests every driver whatever its priority.
for i in $(echo "${kt_impls:-}" | tr , " "); do
	fails0=$(failures)
	if insmod /chacha20_simd.ko impl="$i" priority=299 2>/dev/null; then
		selftests "$i"
		# The crypto manager may still hold it for a moment.
		t=0
		until rmmod chacha20_simd 2>/dev/null || [ $t -ge 30 ]; do
			sleep 1
			t=$((t + 1))
		done
		echo "KT impl $i: self-tests ran"
	else
		echo "KT impl $i: not loaded (not in this build, or not on this CPU)"
	fi
done

# The load as users get it registers implementations fuzzed one by one
# above, so its fuzzing would repeat theirs: the kernel's 100 iterations.
# At 400 (arm64) it removes the generic instances again, and the crypto
# manager rebuilds them inside our AEADs' self-tests.  At 1000 iterations
# one such rebuild outlasted the 60 s larval wait (kmemleak, two emulators
# on two cores): its test larval was killed, the instance stayed untested,
# and every KUnit lookup of it failed.  The bind after the load makes
# sure they stand, tested, before the KUnit suites ask for them.
echo 100 >/sys/module/cryptomgr/parameters/fuzz_iterations ||
	echo "KT fuzz_iterations not set"
fails0=$(failures)
# shellcheck disable=SC2046 # one word per option
insmod /chacha20_simd.ko $(echo "${kt_modparams:-}" | tr , " ") &&
	selftests default
generic_instances ' after the load'
dmesg | sed -n 's/.*\(chacha20_simd: using .*\)/KT \1/p' | tail -n 1
# kt_dump=1 (Bochs, whose slow serial port would interleave the kernel's
# lines with ours: the kernel boots with loglevel=1): the KTAP comes from
# dmesg, and the whole of dmesg at the end.
n=$(dmesg | wc -l)
echo "KT kunit start"
insmod /chacha20_simd_kunit.ko ${kt_expect:+expect=$kt_expect}
rc=$?
[ -z "${kt_dump:-}" ] || dmesg | tail -n +$((n + 1))
echo "KT kunit end rc=$rc"
rmmod chacha20_simd_kunit && sleep 1 && rmmod chacha20_simd && echo "KT unloaded"
# Every object left unreferenced since the boot: kmemleak reports an
# object 5 s after its allocation at the earliest, and a second scan
# drops what only looked lost during the first.
if [ -n "${kt_kmemleak:-}" ]; then
	sleep 6
	echo scan >$leaks
	echo scan >$leaks
	echo "KT kmemleak: $(grep -c '^unreferenced object' $leaks) unreferenced objects"
	sed 's/^/KT kmemleak /' $leaks | head -n 100
fi
if [ -n "${kt_dump:-}" ]; then
	echo "KT dmesg start"
	dmesg
	echo "KT dmesg end"
fi
echo "KT DONE"
guest_stop
