# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # run.sh's variables
#
# run.sh --load: both guests at -smp 4, the SAs from ip xfrm as in the
# plain mode, and then for load_secs (60) seconds at once, through the
# tunnel:
#   - 4 TCP flows each way (guest-load.sh tx and rx: one KiB file per
#     flow sent again and again, each copy's SHA-256 taken at the
#     receiver and compared with the sender's);
#   - pings of every size from 1 to 1400 bytes, over and over: ping-sweep
#     in each guest, up to 128 requests out at once, sizes without a
#     reply yet first, and those alone for up to 60 s after the load;
#   - on each of A's CPUs ymm-check, pinned there: ymm0-ymm15 hold
#     known values, checked without pause, so that the softirq encryption
#     on that CPU runs on top of live user vector state;
#   - kTLS on the plain link: 16 connections at once between A (the
#     module's rfc7539) and B (the in-tree drivers), load_ktls_kib KiB
#     each way on each, in records of random sizes from 1 B to 16 KiB
#     (ktls-check -n 16).
# A's AEAD requests are counted by kprobe events in the module's
# chachapoly_small() and chachapoly_walk(), each at the instruction after
# its one call of irq_fpu_usable() (crypto_simd_usable()), with a hist
# trigger keyed on common_flags (TRACE_FLAG_SOFTIRQ) and on that call's
# result (%al), and a second one keyed on the CPU: every request that gets
# past chachapoly_check_ad() takes exactly one of the two, once.  Sourced by run.sh; the checks:
#   22 load-flows	every copy of every flow arrived whole (SHA-256 and
#			size equal), and each flow sent at least one
#   23 load-regs	A has the CPUs it should (4; 1 on a kernel without
#			ACPI, whose MP table from SeaBIOS lists only the
#			boot CPU), and on each the ymm-check ran the whole
#			time (still running at the end, iterations > 0) and
#			saw no change
#   24 load-xfrm	XfrmInStateProtoError and XfrmInNoStates unchanged on
#			both guests
#   25 load-requests	the hist triggers' counts: requests, in softirq,
#			without SIMD, in softirq by CPU (at least one
#			request, at most 1% more dropped)
#   26 load-ktls		every kTLS connection's bytes arrived as sent,
#			both ways, with A's kTLS on the module's rfc7539
#			and B's on an in-tree one
#   27 load-pings	each guest's ping-sweep had a reply for every size
#			and no reply with other data than its request's

# shellcheck disable=SC2034 # run.sh's qemu_cmd takes it
vcpus=1
if [ "$mode" = load ]; then
	vcpus=4
	if [ "$(kernel_arch "$kernel_a")" != amd64 ] ||
		[ "$(kernel_arch "$kernel_b")" != amd64 ]; then
		die "--load: x86-64 guests only"
	fi
fi
load_secs=60
load_kib=256
load_ktls_kib=384
# TRACE_FLAG_SOFTIRQ of include/linux/trace_events.h.
trace_softirq=16

# fpu_probe_sites KO: "FUNCTION OFFSET" for each call of irq_fpu_usable()
# in the module's chachapoly_small() and chachapoly_walk() (a constprop
# clone's name too): OFFSET is that of the instruction after the call,
# where %al holds its result.
fpu_probe_sites() {
	local fn start at
	objdump -dr "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ {
			fn = substr($2, 2, length($2) - 3); start = $1; next
		}
		want && /^ *[0-9a-f]+:\t/ {
			sub(/:.*/, "", $1); print fn, start, $1; want = 0
		}
		/R_X86_64_PLT32\tirq_fpu_usable-0x4/ &&
			fn ~ /^chachapoly_(small|walk)/ { want = 1 }' |
		while read -r fn start at; do
			printf '%s 0x%x\n' "$fn" $((0x$at - 0x$start))
		done
}

# trace_setup: A's kprobe events aead_N at those sites, each with a hist
# trigger keyed on common_flags and simd (%al); prints the sites.
trace_setup() {
	local sites cmd n=0 fn off
	sites=$(fpu_probe_sites "$ko")
	cmd="grep -q ' /sys/kernel/tracing ' /proc/mounts || mount -t tracefs"
	cmd+=" tracefs /sys/kernel/tracing && cd /sys/kernel/tracing"
	while read -r fn off; do
		[ -n "$fn" ] || continue
		cmd+=" && echo 'p:aead_$n chacha20_simd:$fn+$off simd=%ax:u8'"
		cmd+=" >>kprobe_events && echo 'hist:keys=common_flags,simd'"
		cmd+=" >events/kprobes/aead_$n/trigger"
		cmd+=" && echo 'hist:keys=cpu,common_flags'"
		cmd+=" >>events/kprobes/aead_$n/trigger"
		cmd+=" && echo 1 >events/kprobes/aead_$n/enable"
		n=$((n + 1))
	done <<<"$sites"
	[ $n -gt 0 ] || { echo "no irq_fpu_usable() call found in $ko"; return 1; }
	# (7.3's test kernel has neither kprobes nor ftrace.)
	if ! on a "$cmd" >/dev/null; then
		echo "A's kernel took no kprobe event or hist trigger (does it" \
			"have CONFIG_KPROBE_EVENTS and CONFIG_HIST_TRIGGERS?)"
		return 1
	fi
	paste -sd' ' <<<"$sites"
}

# trace_counts: from A's hist files, "requests softirq nosimd
# nosimd_in_softirq dropped cpu0:S0 1:S1 2:S2 3:S3" (dropped: events the
# hist tables had no room for, summed; SN: the requests in softirq on CPU
# N, from a second trigger keyed on the CPU)
trace_counts() {
	on a "cat /sys/kernel/tracing/events/kprobes/aead_*/hist" |
		awk -v sb="$trace_softirq" '
		/hitcount:/ && /{ cpu: / {
			f = $0; sub(/.*common_flags: */, "", f); f += 0
			c = $0; sub(/.*{ cpu: */, "", c); c += 0
			h = $0; sub(/.*hitcount: */, "", h); h += 0
			if (int(f / sb) % 2) bycpu[c] += h
			next
		}
		/hitcount:/ {
			f = $0; sub(/.*common_flags: */, "", f); f += 0
			s = $0; sub(/.*simd: */, "", s); s += 0
			h = $0; sub(/.*hitcount: */, "", h); h += 0
			n += h
			if (int(f / sb) % 2) soft += h
			if (!s) nosimd += h
			if (!s && int(f / sb) % 2) nosoft += h
		}
		/^ *Dropped:/ { drop += $2 }
		END {
			printf "%d %d %d %d %d", n, soft, nosimd, nosoft, drop
			for (c = 0; c < 4; c++)
				printf " %s%d:%d", c ? "" : "cpu", c, bycpu[c]
			print ""
		}'
}

# xfrm_two G: "XfrmInStateProtoError XfrmInNoStates" of guest G
xfrm_two() {
	on "$1" "awk '\$1 == \"XfrmInStateProtoError\" { e = \$2 }" \
		"\$1 == \"XfrmInNoStates\" { n = \$2 } END { print e, n }'" \
		"/proc/net/xfrm_stat"
}

# sa_stats G: "FAILED PACKETS" from one read of G's SAs: the packets
# whose tag failed, and the packets they carried, all SAs together
sa_stats() {
	on "$1" "ip -s xfrm state" | awk '
		$1 == "replay-window" && $5 == "failed" { f += $6 }
		want { p += $2; want = 0 }
		/lifetime current:/ { want = 1 }
		END { print f + 0, p + 0 }'
}

# flow_result G_TX G_RX PORT: "OK sent N" or "BAD ..." for one flow
flow_result() {
	local want res got i
	want=$(on "$1" "cat /tmp/txsum-$3") || want='?'
	res=$(on "$1" "cat /tmp/txres-$3") || res='?'
	# The last copy may still be on its way: up to 30 s for the receiver
	# to have as many as the sender sent.
	for i in $(seq 15); do
		got=$(on "$2" "cat /tmp/sums-$3") || got=''
		[ "$(grep -c . <<<"$got")" -lt "$(cut -d' ' -f2 <<<"$res")" ] ||
			break
		[ "$i" = 15 ] || sleep 2
	done
	if [[ $res =~ ^sent\ ([1-9][0-9]*)\ refused\ [0-9]+$ ]] &&
		[ "$(grep -c . <<<"$got")" = "${BASH_REMATCH[1]}" ] &&
		! grep -qvxF -- "$want" <<<"$got"; then
		echo "OK ${BASH_REMATCH[1]}"
	else
		echo "BAD port $3: $res, received $(grep -c . <<<"$got")," \
			"$(grep -cvxF -- "$want" <<<"$got") of them differing"
	fi
}

load_checks() {
	local x0_a x0_b x1_a x1_b sites p r g ok bad n regs t0 t1 st
	local s u us d pk0 bc online cpus want=$vcpus pings=''

	[ "${kacpi[a]}" = 1 ] || want=1
	cpus=$(seq -s ' ' 0 $((want - 1)))
	online=$(on a "cat /sys/devices/system/cpu/online") || online='?'

	x0_a=$(xfrm_two a) || x0_a='?'
	x0_b=$(xfrm_two b) || x0_b='?'
	sites=$(trace_setup) || sites="none: $sites"
	pk0=$(sa_stats a) || pk0=''
	pk0=${pk0#* }
	echo "trace sites: $sites" >>"$out/session.log"

	t0=$(now)
	# The register checkers first, so that everything after runs on top.
	on a "for c in $cpus; do (ymm-check \$c >/tmp/ymm-\$c.out 2>&1;" \
		"echo \$? >/tmp/ymm-\$c.rc) & done; sleep 1; cat /tmp/ymm-*.out" \
		>/dev/null || true
	# kTLS: B listens, A connects 16 times; both run in the background.
	kt_serve b /tmp/ktls-load.out -n 16 server 5301 43 "${load_ktls_kib}K" ||
		true
	on a "(ktls-check -n 16 client $outer_b 5301 43 ${load_ktls_kib}K" \
		">/tmp/ktls-load.out 2>&1 &)" >/dev/null || true
	for p in 5101 5102 5103 5104; do
		on b "guest-load.sh rx $p" >/dev/null || true
	done
	for p in 5201 5202 5203 5204; do
		on a "guest-load.sh rx $p" >/dev/null || true
	done
	for p in 5101 5102 5103 5104; do
		on a "guest-load.sh tx $inner_b $p $load_kib $load_secs" \
			>/dev/null || true
	done
	for p in 5201 5202 5203 5204; do
		on b "guest-load.sh tx $inner_a $p $load_kib $load_secs" \
			>/dev/null || true
	done
	# Pings: a ping-sweep in each guest.
	on a "guest-load.sh ping $inner_b $load_secs 60" >/dev/null || true
	on b "guest-load.sh ping $inner_a $load_secs 60" >/dev/null || true

	# The senders and pings stop by themselves after load_secs; wait for
	# all of them and for kTLS's verdicts (up to 180 s more).
	for g in a b; do
		on "$g" -t $((load_secs + 240)) "i=0; while [ \$i -lt" \
			"$((load_secs + 180)) ] && { [ \$(ls /tmp/txres-* /tmp/sweep.rc" \
			"2>/dev/null | wc -l) -lt 5 ] || ! grep -q '^RESULT'" \
			"/tmp/ktls-load.out; }; do sleep 1; i=\$((i + 1)); done" \
			>/dev/null || true
	done
	t1=$(now)

	# 23. the register checkers: each still running, then stopped.
	regs=$(on a "for c in $cpus; do if [ -e /tmp/ymm-\$c.rc ]; then" \
		"echo \"cpu \$c ended early, status \$(cat /tmp/ymm-\$c.rc)\"; fi;" \
		"done; kill \$(pidof ymm-check) 2>/dev/null; i=0; while [ \$i -lt" \
		"30 ] && [ \$(ls /tmp/ymm-*.rc 2>/dev/null | wc -l) -lt $want ]; do sleep 1;" \
		"i=\$((i + 1)); done; for c in $cpus; do echo" \
		"\"rc=\$(cat /tmp/ymm-\$c.rc 2>/dev/null)\" \$(tail -n 1" \
		"/tmp/ymm-\$c.out); done") || true
	echo "$regs" >"$out/ymm-check.log"

	# 22. the flows.
	ok=0 bad='' n=0
	for p in 5101 5102 5103 5104 5201 5202 5203 5204; do
		if [ "${p:1:1}" = 1 ]; then
			r=$(flow_result a b "$p")
		else
			r=$(flow_result b a "$p")
		fi
		case $r in
		"OK "*) n=$((n + ${r#OK })) ;;
		*) ok=1 bad+="; $r" ;;
		esac
	done
	# The receivers' last nc -l waits for a connection that never comes.
	for g in a b; do
		on "$g" "touch /tmp/load.stop; kill \$(pidof nc) 2>/dev/null;" \
			"true" >/dev/null || true
	done
	verdict 22 $ok "8 flows (4 each way, $load_kib KiB a copy) for" \
		"$load_secs s: $n copies arrived, every SHA-256 equal to the" \
		"sender's${bad}; load phase $((t1 - t0)) s"

	# 23.
	ok=0
	[ "$(grep -c '^rc=0 ymm-check cpu [0-3]: OK [1-9][0-9]* iterations' \
		<<<"$regs")" = "$want" ] || ok=1
	! grep -q 'ended early' <<<"$regs" || ok=1
	r=0
	[ "$want" = 1 ] || r=0-$((want - 1))
	[ "$online" = "$r" ] || ok=1
	verdict 23 $ok "A's CPUs online: $online (want $want); $(sed -E 's/^rc=([0-9]*) ymm-check (.*)/\2 (exit \1)/' \
		<<<"$regs" | paste -sd';')"

	# 24.
	x1_a=$(xfrm_two a) || x1_a='?'
	x1_b=$(xfrm_two b) || x1_b='?'
	ok=0
	{ [[ $x0_a =~ ^[0-9]+\ [0-9]+$ ]] && [ "$x1_a" = "$x0_a" ] &&
		[[ $x0_b =~ ^[0-9]+\ [0-9]+$ ]] && [ "$x1_b" = "$x0_b" ]; } ||
		ok=1
	# Of those, the packets whose tag failed: each SA's "failed" count.
	# A's packets, for 25, from the same read.
	r=''
	for g in a b; do
		p=$(sa_stats "$g") || p='? ?'
		r+=" ${g^^} ${p% *}"
		[ "$g" = b ] || st=${p#* }
	done
	verdict 24 $ok "XfrmInStateProtoError XfrmInNoStates: A $x0_a ->" \
		"$x1_a, B $x0_b -> $x1_b; of them failing their tag:$r"

	# 25. A's requests, from the hist triggers; and for comparison the
	# packets A's SAs carried meanwhile (one request each).
	r=$(trace_counts) || r=''
	[[ $st =~ ^[0-9]+$ && $pk0 =~ ^[0-9]+$ ]] && st=$((st - pk0)) || st='?'
	# A hist table drops an event that meets its key half inserted by
	# another CPU, after map_size tries (kernel/trace/tracing_map.c).
	# Under TCG a vCPU can stop for a while in that window: one cold run
	# on 6.1 dropped 2 of 16,124.  Up to 1% dropped still counts.
	ok=1
	read -r n s u us d bc <<<"${r:-? ? ? ? ? ?}"
	[[ $r =~ ^[1-9][0-9]*\ [0-9]+\ [0-9]+\ [0-9]+\ [0-9]+\  ]] &&
		[ $((d * 100)) -le "$n" ] && ok=0
	verdict 25 $ok "requests: $n, in softirq $s, without SIMD $u" \
		"($us of them in softirq; in softirq by CPU: $bc;" \
		"hist entries dropped $d; kprobes at" \
		"$sites; packets A's SAs carried meanwhile: $st; kTLS's" \
		"records are most of the rest)"

	# 26. kTLS beside the load, with the drivers of both ends.
	ktls_a=$(on a "cat /tmp/ktls-load.out") || ktls_a=''
	ktls_b=$(on b "cat /tmp/ktls-load.out") || ktls_b=''
	printf '%s\n%s\n' "$ktls_a" "$ktls_b" >"$out/ktls-load.log"
	d=$(kt_driver "$ktls_a") u=$(kt_driver "$ktls_b")
	ok=0
	{ [[ $(kt_result "$ktls_a") == "RESULT OK: 16 connections"* ]] &&
		[[ $(kt_result "$ktls_b") == "RESULT OK: 16 connections"* ]] &&
		[[ $d == rfc7539-*-oot\ * ]] && [[ -n $u && $u != *-oot* ]]; } ||
		ok=1
	verdict 26 $ok "A: ${d:-?}: $(kt_result "$ktls_a"); B: ${u:-?}:" \
		"$(kt_result "$ktls_b")"

	# 27. the pings: every size answered, no reply wrong, both ways.
	ok=0
	for g in a b; do
		r=$(on "$g" "echo \"rc=\$(cat /tmp/sweep.rc)\" \$(cat" \
			"/tmp/sweep.out)") || r='?'
		[[ $r =~ ^rc=0\ sweeps\ [0-9]+\ sizes\ 1400\ of\ 1400\ .*\ wrong\ 0\  ]] ||
			ok=1
		r=${r#rc=}
		pings+="${pings:+; }${g^^}: ${r#* } (exit status ${r%% *})"
	done
	verdict 27 $ok "ping-sweep, sizes 1-1400 over and over for" \
		"$load_secs s, then those without a reply for up to 60 s:" \
		"$pings"
}
