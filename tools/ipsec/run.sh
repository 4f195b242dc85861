#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --kernel K | --kernel-a K [--kernel-b K] [options]
#
# Two QEMU guests (TCG, one vCPU each; four with --load), joined only by
# a QEMU UDP socket netdev (no host network), talk ESP with
# rfc7539esp(chacha20,poly1305) in
# tunnel mode.  Guest A runs chacha20_simd (its own rfc7539esp AEAD, on
# arm64 too: there priority= registers it), guest B only
# the kernel's own drivers (its image holds no module).  The host drives both through a
# command channel and prints one verdict per check, then "N passed, N
# failed"; the exit status is non-zero on any failure or missing verdict.
#   --kernel K		both guests' kernel (6.1, 6.12, 7.3; -arm64 for both
#			on arm64, where 7.3's consumer kernel is 7.3-net)
#   --kernel-a K	guest A's kernel, e.g. 6.1-arm64: A on arm64 (-M
#			virt, NEON), B on --kernel-b, by default the same
#			series on x86-64: the module talks to another
#			architecture's in-tree ChaCha
#   --kernel-b K	guest B's kernel
#   --cpu-a MODEL	guest A's CPU (default max: the module's AVX2 code;
#			arm64: max,pauth-impdef=on, NEON)
#   --cpu-b MODEL	guest B's CPU (default max, as for A)
#   --modparams-a P	chacha20_simd's options in A (default none; arm64:
#			priority=400, as on QEMU's max CPU the module takes
#			250, below the in-tree NEON driver, and no AEAD)
#   --demo		set up the tunnel, ping a few sizes each way, show
#			the ESP instance's drivers, stop (no bulk, no wrong
#			keys): make demo
#   --ike		the SAs from strongSwan's charon (IKEv2, PSK, ESP
#			chacha20poly1305-esn), rekeyed during the bulk
#			transfers, instead of ip xfrm; x86-64 only (ike.sh)
#   --load		both guests at -smp 4; for 60 s 4 TCP flows each
#			way, pings of every size, a ymm register checker on
#			each of A's CPUs, and 16 kTLS connections; A's AEAD
#			requests counted by kprobe events; x86-64 only
#			(load.sh)
#   --mib N		bulk transfer size each way, MiB (default 16, with
#			--ike 32; 4 KiB and 1 byte are added so that it ends
#			mid-block)
#   --timeout SECONDS	limit for the whole run's guests (default 1800)
# CHACHA_SRC=DIR builds the module from DIR (tools/vm/build-module.sh; with
# CHACHA_BUILD_TAG=name in a build directory of its own).
# Logs: $CHACHA_CACHE/ipsec-runs/<kernel>[-<tag>]/ (build.log, console-a.log,
# console-b.log, session.log: every command sent and its answer).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"

usage() {
	sed -n '4,44s/^# \{0,1\}//p' "$0"
	exit 2
}

impl_a='?' kernel='' kernel_a='' kernel_b='' cpu_a='' cpu_b='' mib=''
timeout=1800 mode=check modparams_a=-
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--kernel-a) kernel_a=$2 ;;
	--kernel-b) kernel_b=$2 ;;
	--cpu-a) cpu_a=$2 ;;
	--cpu-b) cpu_b=$2 ;;
	--modparams-a) modparams_a=$2 ;;
	--mib) mib=$2 ;;
	--timeout) timeout=$2 ;;
	--demo) mode=demo; shift; continue ;;
	--ike) mode=ike; shift; continue ;;
	--load) mode=load; shift; continue ;;
	*) usage ;;
	esac
	shift 2
done
kernel_a=${kernel_a:-$kernel}
[ -n "$kernel_a" ] || usage
# B defaults to A's series on x86-64 when only A is named.
kernel_b=${kernel_b:-${kernel:-${kernel_a%-arm64}}}
if [ -z "$mib" ]; then
	mib=16
	[ $mode != ike ] || mib=32
fi
[[ $mib =~ ^[1-9][0-9]*$ ]] || usage
# pauth-impdef: QEMU's cheap pointer authentication (the architected one
# is emulated slowly), as in tools/vm/check-all.sh.
default_cpu() {
	case $(kernel_arch "$1") in
	arm64) echo max,pauth-impdef=on ;;
	*) echo max ;;
	esac
}
cpu_a=${cpu_a:-$(default_cpu "$kernel_a")}
cpu_b=${cpu_b:-$(default_cpu "$kernel_b")}
if [ "$modparams_a" = - ]; then
	# On an emulated arm64 CPU the module registers below the in-tree
	# NEON driver and no AEAD (by design: it has no model of QEMU's max);
	# the tunnel is to run the module's code, so raise it (priority= set
	# also registers the AEADs).
	modparams_a=''
	[ "$(kernel_arch "$kernel_a")" = amd64 ] || modparams_a=priority=400
fi

# The checks, by number and name; the demo runs the first seven and the
# last.
checks=(1 boot 2 link 3 sa 4 ping-a-to-b 5 ping-b-to-a 6 crypto-a
	7 crypto-b 8 bulk-a-to-b 9 bulk-b-to-a 10 esp-counted
	11 badkey-at-b 12 badkey-at-a 14 ktls 15 ktls-badkey 13 dmesg)
[ $mode != demo ] || checks=("${checks[@]:0:14}" 13 dmesg)
# strongSwan's (ike.sh): its own checks in the place of the ip xfrm ones.
[ $mode != ike ] || checks=(1 boot 2 link 16 ike-badpsk 3 sa 4 ping-a-to-b
	5 ping-b-to-a 6 crypto-a 7 crypto-b 17 esn 8 bulk-a-to-b 9 bulk-b-to-a
	18 rekeys 19 esp-bytes 20 unload-refused 21 unload-after-terminate
	13 dmesg)
# The load (load.sh): its checks after the pings and the drivers.
[ $mode != load ] || checks=("${checks[@]:0:14}" 22 load-flows 23 load-regs
	24 load-xfrm 25 load-requests 26 load-ktls 27 load-pings 13 dmesg)
# shellcheck source=ike.sh
. "$here/ike.sh"
# shellcheck source=load.sh
. "$here/load.sh"

name=$kernel_a
[ "$kernel_b" = "$kernel_a" ] || name+=-to-$kernel_b
[ $mode = check ] || name=$mode-$name
out=$cache/ipsec-runs/$name${CHACHA_BUILD_TAG:+-$CHACHA_BUILD_TAG}
rm -rf "$out"
mkdir -p "$out"

# ---------------------------------------------------------------- build
t0=$(now)
# Each guest's kernel: KVER, VMLINUZ, KARCH by guest.
declare -A kver vmlinuz karch kacpi
missing=''
for g in a b; do
	k=kernel_$g
	load_kernel "${!k}"
	# shellcheck disable=SC2153 # KVER, VMLINUZ: set by load_kernel
	kver[$g]=$KVER vmlinuz[$g]=$VMLINUZ karch[$g]=$KARCH kacpi[$g]=0
	# shellcheck disable=SC2034 # load.sh's: the CPUs A finds
	! grep -q '^CONFIG_ACPI=y' "$HEADERS/.config" || kacpi[$g]=1
	# The kernel must have what the tunnel needs; if not, every check
	# fails (arm64's 7.3 test kernel has no IPv4 nor NIC: 7.3-net-arm64
	# has them; x86-64's has).  arm64 virt needs its PCI host bridge for
	# the NIC and the virtio console for the host's channel.
	want="INET XFRM_USER INET_ESP XFRM_STATISTICS CRYPTO_SEQIV"
	want+=" CRYPTO_CHACHA20POLY1305 PCI VIRTIO_PCI VIRTIO_NET"
	[ "$KARCH" = amd64 ] || want+=" PCI_HOST_GENERIC VIRTIO_CONSOLE"
	m=''
	for c in $want; do
		grep -Eq "^CONFIG_$c=[ym]" "$HEADERS/.config" || m+=" CONFIG_$c"
	done
	[ -z "$m" ] || missing+="${missing:+;} $KVER ($KARCH) lacks$m"
done
if [ -n "$missing" ]; then
	for ((i = 0; i < ${#checks[@]}; i += 2)); do
		echo "CHECK ${checks[i]} ${checks[i + 1]}: FAIL not run:$missing"
	done
	echo "0 passed, $((${#checks[@]} / 2)) failed"
	exit 1
fi

mkopt=()
[ $mode != ike ] || mkopt=(--ike)
[ $mode != load ] || mkopt=(--load)
{
	ko=$("$vm_dir/build-module.sh" "$kernel_a") &&
		initrd_a=$("$here/mkinitramfs.sh" "${mkopt[@]}" "$kernel_a" "$ko") &&
		initrd_b=$("$here/mkinitramfs.sh" "${mkopt[@]}" "$kernel_b")
} 2>"$out/build.log" || {
	tail -n 30 "$out/build.log" >&2
	die "build failed (log: $out/build.log)"
}
t1=$(now)
log "built in $((t1 - t0)) s: A ${kver[a]} (${karch[a]}): $initrd_a;" \
	"B ${kver[b]} (${karch[b]}): $initrd_b"

# ---------------------------------------------------------------- guests
# Each guest: its console in a file, the host's command channel on a QEMU
# pipe chardev (two FIFOs), one virtio NIC on a UDP socket netdev aimed at
# the other guest's.  x86-64: console ttyS0, channel ttyS1.  arm64 (virt,
# whose one UART is the console): the channel is a virtio serial port named
# ipsec.ctl (guest-init.sh finds it by that name).
declare -A qpid wfd rfd dead
start_guest() { # NAME CPU INITRD LOCALPORT PEERPORT MAC
	local g=$1 fdw fdr args qemu
	args="$(boot_cmdline "${karch[$g]}") quiet ipsec_name=$1"
	rm -f "$out/ctl-$g.in" "$out/ctl-$g.out"
	mkfifo "$out/ctl-$g.in" "$out/ctl-$g.out"
	# B, on 7.x, without the crypto manager's fuzzing (its vectors still
	# run): it would fuzz the kernel's own drivers, B's only ones.
	[ "$g" != b ] || [ "${kver[$g]%%.*}" -lt 7 ] ||
		args+=" $noslowtests"
	qemu_cmd "${karch[$g]}" "$2" "$vcpus" 512M
	# The console's -serial comes first: the machine's first UART.
	qemu+=(-serial "file:$out/console-$g.log")
	# shellcheck disable=SC2054 # the commas are QEMU's
	if [ "${karch[$g]}" = amd64 ]; then
		qemu+=(-serial "pipe:$out/ctl-$g")
	else
		qemu+=(-chardev "pipe,id=ctl,path=$out/ctl-$g"
			-device virtio-serial-pci
			-device virtserialport,chardev=ctl,name=ipsec.ctl)
		args+=" ipsec_ctl=virtio"
	fi
	# shellcheck disable=SC2054
	timeout "$timeout" "${qemu[@]}" -nodefaults -display none \
		-netdev "socket,id=n0,udp=127.0.0.1:$5,localaddr=127.0.0.1:$4" \
		-device "virtio-net-pci,netdev=n0,mac=$6,romfile=" \
		-kernel "${vmlinuz[$g]}" -initrd "$3" -append "$args" \
		</dev/null >"$out/qemu-$g.log" 2>&1 &
	qpid[$g]=$!
	# Read-write opens of the FIFOs never block, whether QEMU is up or not.
	exec {fdw}<>"$out/ctl-$g.in" {fdr}<>"$out/ctl-$g.out"
	wfd[$g]=$fdw rfd[$g]=$fdr dead[$g]=''
}
stop_guests() {
	local g
	for g in "${!qpid[@]}"; do
		kill "${qpid[$g]}" 2>/dev/null || true
	done
}
trap stop_guests EXIT

# on G [-t SECONDS] COMMAND: run the shell command in guest G ("a" or "b"),
# print its output, and return its exit status (124: no answer in time,
# after which that guest is given up).
on() {
	local g=$1 t=120 line part
	shift
	if [ "$1" = -t ]; then
		t=$2
		shift 2
	fi
	if [ -n "${dead[$g]}" ]; then
		echo "(guest $g is not answering)"
		return 124
	fi
	printf '>>> %s: %s\n' "$g" "$*" >>"$out/session.log"
	printf '%s\n' "$*" >&"${wfd[$g]}"
	SECONDS=0
	part=
	while [ $SECONDS -lt "$t" ]; do
		if ! IFS= read -r -t 2 -u "${rfd[$g]}" line; then
			# No whole line for 2 s (read keeps what came of one):
			# go on waiting while the guest's QEMU lives.
			part+=$line
			kill -0 "${qpid[$g]}" 2>/dev/null || break
			continue
		fi
		line=$part${line%$'\r'} part=
		case $line in
		"@@END "*)
			echo "<<< status ${line#@@END }" >>"$out/session.log"
			return "${line#@@END }"
			;;
		esac
		printf '%s\n' "$line" | tee -a "$out/session.log"
	done
	dead[$g]=1
	echo "<<< no answer ($SECONDS s)" >>"$out/session.log"
	echo "(guest $g did not answer; see console-$g.log)"
	return 124
}

# wait_ready G: the guest's "@@READY" on its command channel, for up to
# 300 s while its QEMU lives (a kernel that panics at boot ends QEMU).
wait_ready() {
	local line
	SECONDS=0
	while [ $SECONDS -lt 300 ]; do
		if IFS= read -r -t 2 -u "${rfd[$1]}" line; then
			case $line in *@@READY*) return 0 ;; esac
		else
			kill -0 "${qpid[$1]}" 2>/dev/null || break
		fi
	done
	dead[$1]=1
	return 1
}

# boot_report G: why guest G gave no "@@READY": its QEMU's state, QEMU's
# first message and the console's last line, on one line.
boot_report() {
	local g=$1 st='QEMU ran 300 s' q c
	if ! kill -0 "${qpid[$g]}" 2>/dev/null; then
		wait "${qpid[$g]}" 2>/dev/null && st='QEMU exited, status 0' ||
			st="QEMU exited, status $?"
	fi
	q=$(grep -m 1 . "$out/qemu-$g.log" 2>/dev/null) || true
	c=$(grep -v '^[[:space:]]*$' "$out/console-$g.log" 2>/dev/null |
		tail -n 1) || true
	echo "$g: $st${q:+; QEMU: $q}; console: ${c:-empty}"
}

# boot_reports: boot_report of each guest that gave no answer, joined.
boot_reports() {
	local g r=''
	for g in a b; do
		[ -z "${dead[$g]}" ] || r+="${r:+; }$(boot_report $g)"
	done
	echo "$r"
}

# boot_guests: start both guests on a new port pair and wait for them; 0
# once both are up.
boot_guests() {
	port=$((20000 + (RANDOM % 20000) * 2))
	start_guest a "$cpu_a" "$initrd_a" "$port" "$((port + 1))" \
		52:54:00:00:00:0a
	start_guest b "$cpu_b" "$initrd_b" "$((port + 1))" "$port" \
		52:54:00:00:00:0b
	wait_ready a && wait_ready b
}

# ---------------------------------------------------------------- verdicts
declare -A verdicts
# verdict N OK DETAIL: OK is 0 for a pass, anything else a failure.
verdict() {
	local n=$1 ok=$2 name i res=FAIL
	shift 2
	for ((i = 0; i < ${#checks[@]}; i += 2)); do
		[ "${checks[i]}" != "$n" ] || name=${checks[i + 1]}
	done
	[ "$ok" != 0 ] || res=PASS
	verdicts[$n]=$res
	echo "CHECK $n $name: $res $*" | tee -a "$out/results.log"
}

# ---------------------------------------------------------------- the network
# Outer (wire) addresses and inner (tunnelled) ones; SPIs; 36-byte keys
# (ChaCha20 key and 4-byte salt), new each run.
outer_a=10.0.0.1 outer_b=10.0.0.2 inner_a=10.9.0.1 inner_b=10.9.0.2
spi_ab=0x1001 spi_ba=0x2002
hexkey() { printf '0x%s' "$(od -An -tx1 -N36 /dev/urandom | tr -d ' \n')"; }
key_ab=$(hexkey) key_ba=$(hexkey) key_bad=$(hexkey)
alg="aead 'rfc7539esp(chacha20,poly1305)'"
echo "keys: A->B $key_ab, B->A $key_ba, wrong $key_bad" >>"$out/session.log"

# sa_cmd SRC DST SPI KEY: the `ip xfrm state add` of one direction, with
# ESN.  Both high halves of its sequence numbers start at 0x5eed0000 plus
# the SPI, so ESP's AD carries non-zero high bits both ways (strongSwan's
# SAs start them at 0).  A replay window of 4096 packets: with ESN a
# packet that comes later than the window allows is taken for one of the
# next 2^32 (RFC 4303 appendix A), so its tag fails.  In the load row a
# vCPU that TCG stops between a packet's sequence number and its sending
# let 189 to 223 of A's packets overtake it, and 128 was too few.
sa_cmd() {
	local hi
	hi=$(printf '0x%x' $((0x5eed0000 + $3)))
	echo "ip xfrm state add src $1 dst $2 proto esp spi $3 reqid $3" \
		"mode tunnel replay-window 4096 replay-seq-hi $hi" \
		"replay-oseq-hi $hi flag esn $alg $4 128"
}
sa_del() {
	echo "ip xfrm state delete src $1 dst $2 proto esp spi $3"
}
# setup_sas G: both SAs and both policies of guest G.
setup_sas() {
	local lo=$outer_a ro=$outer_b li=$inner_a ri=$inner_b so=$spi_ab
	local si=$spi_ba ko=$key_ab ki=$key_ba
	if [ "$1" = b ]; then
		lo=$outer_b ro=$outer_a li=$inner_b ri=$inner_a so=$spi_ba
		si=$spi_ab ko=$key_ba ki=$key_ab
	fi
	on "$1" "$(sa_cmd "$lo" "$ro" "$so" "$ko") &&" \
		"$(sa_cmd "$ro" "$lo" "$si" "$ki") &&" \
		"ip xfrm policy add src $li/32 dst $ri/32 dir out" \
		"tmpl src $lo dst $ro proto esp reqid $so mode tunnel &&" \
		"ip xfrm policy add src $ri/32 dst $li/32 dir in" \
		"tmpl src $ro dst $lo proto esp reqid $si mode tunnel &&" \
		"ip route add $ri/32 via $ro src $li"
}

# counter G NAME: a counter of /proc/net/xfrm_stat
counter() {
	on "$1" "awk '\$1 == \"$2\" { print \$2 }' /proc/net/xfrm_stat"
}
# in_echos G: ICMP echo requests G's IP stack took in (/proc/net/snmp)
in_echos() {
	on "$1" "awk '/^Icmp:/ { if (!h) { for (i = 1; i <= NF; i++)" \
		"c[\$i] = i; h = 1 } else print \$c[\"InEchos\"] }' /proc/net/snmp"
}
# esp_driver: from /proc/crypto on stdin, "priority driver refcnt" of the
# rfc7539esp(chacha20,poly1305) instance(s)
esp_driver() {
	crypto_table - | awk '$1 == "rfc7539esp(chacha20,poly1305)" {
		print $4 + 0, $2, ($6 == "" ? "?" : $6) }'
}
# sa_bytes SPI: from `ip -s xfrm state` on stdin, the bytes that SA carried
sa_bytes() {
	awk -v spi="$1" '
		/^src / { cur = 0 }
		/proto esp spi/ { cur = (index($0, sprintf("spi 0x%08x", spi)) > 0) }
		cur && want { print $1 + 0; want = 0 }
		cur && /lifetime current:/ { want = 1 }'
}
# ping_sizes G DST SIZES...: ping each size 3 times; prints "size:received"
# for each and returns 0 only if every ping was answered.
ping_sizes() {
	local g=$1 dst=$2 s got all=0 res=''
	shift 2
	for s in "$@"; do
		got=$(on "$g" -t 60 "ping -c 3 -i 0.3 -W 3 -s $s $dst" |
			sed -n 's/.* \([0-9]*\) packets received.*/\1/p')
		res+=" $s:${got:-?}/3"
		[ "${got:-0}" = 3 ] || all=1
	done
	echo "${res# }"
	return $all
}
# sha_of G FILE: "size sha256" of a file in guest G
sha_of() {
	on "$1" "echo \$(wc -c <$2) \$(sha256sum <$2 | cut -d' ' -f1)"
}
# bulk N FROM TO TO_INNER PORT: send FROM's /tmp/tx to TO over TCP through
# the tunnel; the verdict compares size and SHA-256 at both ends.
bulk() {
	local n=$1 from=$2 to=$3 dst=$4 p=$5 t sent got last=-1 now_sz stall=0
	t=$(now)
	sent=$(sha_of "$from" /tmp/tx) || sent="? ?"
	# The receiver's nc reads its stdin from a FIFO it holds open itself:
	# it never sees EOF there, so it never shuts down its sending half
	# early (which would make the sender's nc stop).
	on "$to" "rm -f /tmp/rx /tmp/rx.done; mkfifo /tmp/hold-$p;" \
		"(nc -l -p $p <>/tmp/hold-$p >/tmp/rx 2>/tmp/rx.err;" \
		"echo \$? >/tmp/rx.done) & i=0; while [ \$i -lt 50 ]; do" \
		"netstat -ltn | grep -q ':$p ' && exit 0; sleep 0.2;" \
		"i=\$((i + 1)); done; exit 1" >/dev/null || {
		verdict "$n" 1 "the receiver on $to did not listen"
		return
	}
	on "$from" "rm -f /tmp/tx.done; (nc $dst $p </tmp/tx >/dev/null" \
		"2>/tmp/tx.err; echo \$? >/tmp/tx.done) & echo \$! >/tmp/tx.pid" \
		>/dev/null || true
	# Wait for the receiver to finish; give up when its file has not
	# grown for 60 s (a wrong cipher: every full-size segment dropped).
	while ! on "$to" "test -e /tmp/rx.done" >/dev/null; do
		[ -z "${dead[$to]}" ] || break
		now_sz=$(on "$to" "wc -c </tmp/rx") || now_sz=-2
		if [ "$now_sz" = "$last" ]; then
			stall=$((stall + 5))
			[ $stall -lt 60 ] || break
		else
			stall=0 last=$now_sz
		fi
		sleep 5
	done
	on "$from" "kill \$(cat /tmp/tx.pid) 2>/dev/null; true" >/dev/null ||
		true
	got=$(sha_of "$to" /tmp/rx) || got="? ?"
	t=$(($(now) - t))
	if [ "$sent" = "$got" ]; then
		verdict "$n" 0 "${sent%% *} bytes, sha256 ${sent#* } equal at" \
			"both ends ($t s)"
	elif [ $stall -ge 60 ]; then
		verdict "$n" 1 "stalled: ${got%% *} of ${sent%% *} bytes arrived," \
			"none for 60 s ($t s)"
	else
		verdict "$n" 1 "sent ${sent%% *} bytes sha256 ${sent#* }," \
			"received ${got%% *} bytes sha256 ${got#* } ($t s)"
	fi
}

# ---------------------------------------------------------------- the run
log "booting A (${karch[a]}, -cpu $cpu_a, chacha20_simd${modparams_a:+ $modparams_a})" \
	"and B (${karch[b]}, -cpu $cpu_b, in-tree only)"
# A guest that gives no "@@READY" is booted again, both with it on a new
# port pair, once.  Nothing of the module runs before "@@READY": a failed
# boot is QEMU's or the kernel's, and its report is kept for check 1.  CI
# saw one guest of twelve stay silent once (stop 57), with no log to read.
ready=0 first_boot=''
if boot_guests; then
	ready=1
else
	first_boot=$(boot_reports)
	for g in a b; do
		cp "$out/console-$g.log" "$out/console-$g.first.log" 2>/dev/null ||
			true
	done
	log "no answer from a guest, booting both again: $first_boot"
	stop_guests
	for g in a b; do
		wait "${qpid[$g]}" 2>/dev/null || true
		fd=${wfd[$g]} && exec {fd}>&-
		fd=${rfd[$g]} && exec {fd}<&-
	done
	! boot_guests || ready=1
fi
t2=$(now)

# 1. boot: both guests up; the module in A and only in A.
if [ $ready = 1 ]; then
	# From 6.16 on the crypto manager tests a driver after its
	# registration returns, and meanwhile a test larval stands beside it.
	# /proc/crypto is no snapshot: a larval taken off the list between
	# two reads of it shifts the entries, and the next read skips one
	# (the module's chacha20, in one 7.3 run).  So wait up to 120 s for a
	# reading with no larval before or after it and a self-tested top
	# chacha20.
	mod_a=$(on a -t 180 "modprobe chacha20_simd $modparams_a &&" \
		"grep -c '^chacha20_simd ' /proc/modules && i=0 &&" \
		". /bin/lib-posix.sh && larval() { grep -q '^type *: larval'" \
		"/proc/crypto; } && while :; do top=''; if ! larval; then" \
		"top=\$(crypto_table | awk '\$1 == \"chacha20\" { print \$4, \$2," \
		"\$5 }' | sort -rn | head -n 1); ! larval &&" \
		"[ \"\${top##* }\" = passed ] && break; fi; [ \$i -lt 120 ] ||" \
		"break; sleep 1; i=\$((i + 1)); done; echo \"\$top\"") || true
	mod_b=$(on b "find /lib/modules -name 'chacha20_simd*' | wc -l;" \
		"grep -c '^chacha20_simd ' /proc/modules") || true
	mod_a=$(echo "$mod_a" | paste -sd' ') mod_b=$(echo "$mod_b" | paste -sd' ')
	# A: "1 PRIORITY chacha20-ISA-oot passed" (the top chacha20 driver is
	# the module's and passed the kernel's self-tests); B: "0 0" (no
	# file, not loaded).
	impl_a=$(echo "$mod_a" | cut -d' ' -f3)
	ok=0
	{ [[ $mod_a =~ ^1\ [0-9]+\ chacha20-[a-z0-9]+-oot\ passed$ ]] &&
		[ "$mod_b" = "0 0" ]; } || ok=1
	verdict 1 $ok "A: chacha20_simd loaded, chacha20 is $impl_a (priority" \
		"$(echo "$mod_a" | cut -d' ' -f2), selftest" \
		"$(echo "$mod_a" | cut -d' ' -f4)); B: module files $(echo "$mod_b" |
			cut -d' ' -f1), loaded $(echo "$mod_b" | cut -d' ' -f2)" \
		"${first_boot:+(second boot; the first: $first_boot)}"
else
	verdict 1 1 "the guests did not come up twice: first $first_boot;" \
		"then $(boot_reports) (see $out/console-[ab]{.first,}.log)"
fi

# 2. link: the wire, in clear, before any SA.
on a "ip link set eth0 up && ip addr add $outer_a/24 dev eth0 &&" \
	"ip addr add $inner_a/32 dev lo" >/dev/null || true
on b "ip link set eth0 up && ip addr add $outer_b/24 dev eth0 &&" \
	"ip addr add $inner_b/32 dev lo" >/dev/null || true
ok=0
r1=$(ping_sizes a $outer_b 64) || ok=1
r2=$(ping_sizes b $outer_a 64) || ok=1
verdict 2 $ok "plain ping over the socket netdev: A->B $r1, B->A $r2"

# 3. sa: ESP SAs and policies on both sides (--ike: 16 and 3 by charon).
if [ $mode = ike ]; then
	ike_sa
else
	ok=0
	sa_a=$(setup_sas a 2>&1) || ok=1
	sa_b=$(setup_sas b 2>&1) || ok=1
	n_a=$(on a "ip xfrm state | grep -c 'rfc7539esp(chacha20,poly1305)'") ||
		ok=1
	n_b=$(on b "ip xfrm state | grep -c 'rfc7539esp(chacha20,poly1305)'") ||
		ok=1
	# ESN in effect: each state's context with its high halves.
	e_a=$(on a "ip xfrm state | grep -c 'seq-hi 0x5eed[12]00[12],.*oseq-hi'") ||
		ok=1
	e_b=$(on b "ip xfrm state | grep -c 'seq-hi 0x5eed[12]00[12],.*oseq-hi'") ||
		ok=1
	{ [ "$n_a" = 2 ] && [ "$n_b" = 2 ] && [ "$e_a" = 2 ] &&
		[ "$e_b" = 2 ]; } || ok=1
	verdict 3 $ok "tunnel-mode SAs with rfc7539esp(chacha20,poly1305): A" \
		"has ${n_a:-?}, B has ${n_b:-?}; with ESN and seq-hi" \
		"0x5eed1001 or 0x5eed2002: A ${e_a:-?}, B ${e_b:-?}${sa_a:+;" \
		"A: $sa_a}${sa_b:+; B: $sa_b}"
fi

# 4, 5. ping through the tunnel, both ways.
sizes="1 64 255 256 257 511 1024 1400"
[ $mode != demo ] || sizes="64 300 1400"	# the demo: short
ok=0
# shellcheck disable=SC2086 # the word list
r=$(ping_sizes a $inner_b $sizes) || ok=1
verdict 4 $ok "size:answered $r"
ok=0
# shellcheck disable=SC2086
r=$(ping_sizes b $inner_a $sizes) || ok=1
verdict 5 $ok "size:answered $r"

# 6, 7. who serves the ESP instance on each side: the instance of highest
# priority, which every SA gets.  There can be more than one: 7.x with
# CRYPTO_SELFTESTS_FULL leaves an rfc7539esp(chacha20-lib,...) instance
# beside the module's, below it.
# top_esp G: "driver refcnt" of G's top instance, then "; also" the others
top_esp() {
	local all
	all=$(on "$1" "cat /proc/crypto" | esp_driver | sort -rn) || true
	head -n 1 <<<"$all" | cut -d' ' -f2- | tr -d '\n'
	tail -n +2 <<<"$all" | cut -d' ' -f2 | paste -sd' ' |
		sed 's/..*/ (also &)/'
}
esp_a=$(top_esp a)
use_a=$(on a "awk '\$1 == \"chacha20_simd\" { print \$3 }' /proc/modules") ||
	true
# The module's own rfc7539esp (rfc7539esp-<chacha>-<poly1305>-oot); on
# arm64 it registers that with priority= set, as here.
want_a='^rfc7539esp-[a-z0-9]+-[a-z0-9]+-oot\ [0-9?]+( \(also .*\))?$'
ok=0
{ [[ $esp_a =~ $want_a ]] && [ "${use_a:-0}" -ge 1 ]; } || ok=1
verdict 6 $ok "A: ${esp_a:-no rfc7539esp instance}; chacha20_simd in use" \
	"${use_a:-?} times"
esp_b=$(top_esp b)
oot_b=$(on b "grep -c -- '-oot' /proc/crypto") || true
ok=0
{ [[ $esp_b =~ ^rfc7539esp\(chacha20-(simd|generic|neon|lib),[^\ ]*\)\ [0-9?]+( \(also .*\))?$ ]] &&
	[ "$oot_b" = 0 ]; } || ok=1
verdict 7 $ok "B: ${esp_b:-no rfc7539esp instance}; -oot drivers: $oot_b"

# The demo: what the tunnel carried and who encrypted it, in a few lines.
if [ $mode = demo ]; then
	echo "===== IPsec ESP tunnel, rfc7539esp(chacha20,poly1305):" \
		"A ${kver[a]} (${karch[a]}) with chacha20_simd," \
		"B ${kver[b]} (${karch[b]}) with the kernel's drivers only"
	echo "--- A: ping -s 1400 $inner_b (B's inner address, through ESP)"
	on a "ping -c 2 -s 1400 $inner_b" | grep -E 'bytes from|received' || true
	echo "--- B: ping -s 1400 $inner_a"
	on b "ping -c 2 -s 1400 $inner_a" | grep -E 'bytes from|received' || true
	for g in a b; do
		echo "--- ${g^}: /proc/crypto, the SAs' AEAD"
		on "$g" "cat /proc/crypto" | awk -v RS= \
			'/name *: rfc7539esp\(chacha20,poly1305\)/' |
			grep -E '^(name|driver|module|refcnt|selftest) ' || true
	done
	echo "--- A: ip -s xfrm state, the SA from A to B (key elided)"
	on a "ip -s xfrm state" | awk -v src="$outer_a" '
		$1 == "src" { cur = ($2 == src) }
		cur && $1 == "src" { print }
		cur && $1 == "aead" { $3 = "<key>"; print "  " $0 }
		cur && want { print "  carried:", $1, $2; want = 0 }
		cur && /lifetime current:/ { want = 1 }' || true
fi

# ktls-check's output: the driver it named, its RESULT line.
kt_driver() { sed -n 's/^DRIVER in use: rfc7539(chacha20,poly1305) -> //p' <<<"$1"; }
kt_result() { grep '^RESULT' <<<"$1" | head -n 1; }
# kt_serve G OUT ARGS...: "ktls-check ARGS" in the background on guest G,
# its output in OUT; returns once it listens, or fails after 10 s.
kt_serve() {
	local g=$1 o=$2
	shift 2
	on "$g" "rm -f $o; (ktls-check $* >$o 2>&1 &); i=0; while" \
		"[ \$i -lt 50 ]; do grep -q LISTENING $o && exit 0;" \
		"sleep 0.2; i=\$((i + 1)); done; exit 1" >/dev/null
}

# 8, 9. bulk transfer both ways, checksummed at both ends.
if [ $mode = check ]; then
	size=$((mib * 1024 * 1024 + 4097))
	on a -t 300 "head -c $size /dev/urandom >/tmp/tx" >/dev/null || true
	on b -t 300 "head -c $size /dev/urandom >/tmp/tx" >/dev/null || true
	bulk 8 a b $inner_b 5001
	bulk 9 b a $inner_a 5002

	# 10. the traffic went through the SAs: bytes counted on each, no error.
	st_a=$(on a "ip -s xfrm state") || true
	st_b=$(on b "ip -s xfrm state") || true
	ab_a=$(sa_bytes $spi_ab <<<"$st_a") ab_b=$(sa_bytes $spi_ab <<<"$st_b")
	ba_a=$(sa_bytes $spi_ba <<<"$st_a") ba_b=$(sa_bytes $spi_ba <<<"$st_b")
	err_a=$(counter a XfrmInStateProtoError) || true
	err_b=$(counter b XfrmInStateProtoError) || true
	ok=0
	{ [ "${ab_a:-0}" -ge "$size" ] && [ "${ab_b:-0}" -ge "$size" ] &&
		[ "${ba_a:-0}" -ge "$size" ] && [ "${ba_b:-0}" -ge "$size" ] &&
		[ "$err_a" = 0 ] && [ "$err_b" = 0 ]; } || ok=1
	verdict 10 $ok "SA A->B: ${ab_a:-?} bytes sent by A, ${ab_b:-?} taken by B;" \
		"SA B->A: ${ba_b:-?} sent by B, ${ba_a:-?} taken by A;" \
		"XfrmInStateProtoError A ${err_a:-?} B ${err_b:-?}"

	# 11, 12. a wrong key at the receiver: nothing gets through, and the
	# receiver counts the failures.  badkey RECEIVER SENDER SRC DST SPI KEY
	badkey() {
		local n=$1 rx=$2 tx=$3 src=$4 dst=$5 spi=$6 key=$7 dst_in=$8
		local e0 e1 i0 i1 r ok=0 fixed
		e0=$(counter "$rx" XfrmInStateProtoError) || ok=1
		i0=$(in_echos "$rx") || ok=1
		on "$rx" "$(sa_del "$src" "$dst" "$spi") && $(sa_cmd "$src" "$dst" \
			"$spi" "$key_bad")" >/dev/null || ok=1
		r=$(ping_sizes "$tx" "$dst_in" 1 64 1400) && ok=1
		[[ $r =~ ^1:0/3\ 64:0/3\ 1400:0/3$ ]] || ok=1
		e1=$(counter "$rx" XfrmInStateProtoError) || ok=1
		i1=$(in_echos "$rx") || ok=1
		# (A guest that stopped answering gives text, not counts.)
		{ [[ $e0 =~ ^[0-9]+$ && $e1 =~ ^[0-9]+$ ]] &&
			[ "$e1" -gt "$e0" ] && [ "$i1" = "$i0" ]; } || ok=1
		# The right key back, and the tunnel works again.
		on "$rx" "$(sa_del "$src" "$dst" "$spi") && $(sa_cmd "$src" "$dst" \
			"$spi" "$key")" >/dev/null || ok=1
		fixed=$(ping_sizes "$tx" "$dst_in" 64) || ok=1
		verdict "$n" $ok "wrong key at $rx: answered $r;" \
			"$rx's XfrmInStateProtoError ${e0:-?} -> ${e1:-?}," \
			"ICMP echo requests taken in ${i0:-?} -> ${i1:-?};" \
			"right key again: $fixed"
	}
	badkey 11 b a $outer_a $outer_b $spi_ab "$key_ab" $inner_b
	badkey 12 a b $outer_b $outer_a $spi_ba "$key_ba" $inner_a

	# 14, 15. kTLS: TLS 1.3 records with ChaCha20-Poly1305, keys set with
	# setsockopt(SOL_TLS) (no handshake), over the plain link: A's kernel
	# on the module's own rfc7539, B's on its own drivers.  ktls PORT MIB [A_OPT
	# [B_OPT]]: "RESULT OK" and the drivers from both ends in $KT_A, $KT_B.
	ktls() {
		local p=$1 m=$2 oa=${3:-} ob=${4:-}
		kt_serve b /tmp/kt.out server "$p" 42 "$m" "$ob" || return 1
		KT_A=$(on a -t 600 "ktls-check client $outer_b $p 42 $m $oa") ||
			true
		for _ in $(seq 60); do
			on b "grep -q '^RESULT' /tmp/kt.out" >/dev/null && break
			sleep 2
		done
		KT_B=$(on b "cat /tmp/kt.out") || true
		printf '%s\n%s\n' "$KT_A" "$KT_B" >>"$out/ktls.log"
	}
	ok=0
	ktls 5003 "$mib" || ok=1
	d_a=$(kt_driver "$KT_A") d_b=$(kt_driver "$KT_B")
	want_a='^rfc7539-[a-z0-9]+-[a-z0-9]+-oot \(priority [0-9]+, refcnt [0-9]+\)$'
	{ [[ $(kt_result "$KT_A") == "RESULT OK: "* ]] &&
		[[ $(kt_result "$KT_B") == "RESULT OK: "* ]] &&
		[[ $d_a =~ $want_a ]] && [[ $d_b != *-oot* ]]; } || ok=1
	verdict 14 $ok "A: ${d_a:-?}: $(kt_result "$KT_A");" \
		"B: ${d_b:-?}: $(kt_result "$KT_B")"

	ok=0
	ktls 5004 1 badrx || ok=1
	r1=$(kt_result "$KT_A")
	[[ $r1 == "RESULT OK: wrong receive key"* ]] || ok=1
	ktls 5005 1 "" badrx || ok=1
	r2=$(kt_result "$KT_B")
	[[ $r2 == "RESULT OK: wrong receive key"* ]] || ok=1
	verdict 15 $ok "wrong key at A: ${r1:-?}; wrong key at B: ${r2:-?}"
fi
[ $mode != ike ] || ike_checks
[ $mode != load ] || load_checks

# 13. no kernel report (tools/lib-posix.sh: a warning, BUG, Oops, UBSAN,
# kCFI, failed self-test...) in either kernel: its dmesg, and its console
# (which has the end of a kernel that died).
bad=''
for g in a b; do
	on "$g" "dmesg" >"$out/dmesg-$g.log" || bad+=" $g: stopped answering"
	d=$(cat "$out/dmesg-$g.log" "$out/console-$g.log" | kernel_reports |
		sort -u | head -n 3 | paste -sd'|') || true
	[ -z "$d" ] || bad+=" $g: $d"
done
ok=0
[ -z "$bad" ] || ok=1
verdict 13 $ok "${bad:-no kernel report in A or B}"

t3=$(now)
for g in a b; do
	[ -n "${dead[$g]}" ] || printf '@@QUIT\n' >&"${wfd[$g]}"
done
for g in a b; do
	i=0
	while kill -0 "${qpid[$g]}" 2>/dev/null && [ $i -lt 30 ]; do
		sleep 1
		i=$((i + 1))
	done
done
stop_guests

pass=0 fail=0
for ((i = 0; i < ${#checks[@]}; i += 2)); do
	n=${checks[i]}
	if [ "${verdicts[$n]:-}" = PASS ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		[ -n "${verdicts[$n]:-}" ] ||
			echo "CHECK $n ${checks[i + 1]}: FAIL no verdict"
	fi
done
label=IPSEC
[ $mode = check ] || label+=" $mode"
echo "$label A=${kver[a]} -cpu $cpu_a ($impl_a)" \
	"B=${kver[b]} -cpu $cpu_b: $pass passed," \
	"$fail failed (build $((t1 - t0)) s, boot $((t2 - t1)) s," \
	"checks $((t3 - t2)) s; logs: $out)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
