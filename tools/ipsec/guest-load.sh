#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The guests' side of run.sh --load, as /bin/guest-load.sh in the IPsec
# initramfs (mkinitramfs.sh --load).  Each form starts its loop in the
# background and returns; the results are files in /tmp that the host
# reads.
#   guest-load.sh rx PORT
#	TCP receiver: one connection after another on PORT, each one's
#	SHA-256 and size appended to /tmp/sums-PORT, until /tmp/load.stop.
#   guest-load.sh tx DST PORT KIB SECONDS
#	TCP sender: KIB KiB from /dev/urandom in /tmp/tx-PORT, its SHA-256
#	and size in /tmp/txsum-PORT; sends the file to DST:PORT, one
#	connection after another, for SECONDS; then "sent N refused M" in
#	/tmp/txres-PORT (N: connections nc ended with status 0).
#   guest-load.sh ping DST FIRST STEP SECONDS ID
#	pings of sizes FIRST, FIRST+STEP, ... (from 1 again past 1400),
#	two each, for SECONDS; then "first FIRST sizes N sent S received R"
#	in /tmp/ping-ID.res.

rx() {
	local p=$1

	rm -f "/tmp/sums-$p" "/tmp/hold-$p"
	mkfifo "/tmp/hold-$p"
	: >"/tmp/sums-$p"
	while [ ! -e /tmp/load.stop ]; do
		nc -l -p "$p" <>"/tmp/hold-$p" >"/tmp/rx-$p" 2>/dev/null
		echo "$(sha256sum <"/tmp/rx-$p" | cut -d' ' -f1) $(wc -c <"/tmp/rx-$p")" \
			>>"/tmp/sums-$p"
	done
}

tx() {
	local dst=$1 p=$2 end n=0 bad=0

	head -c $(($3 * 1024)) /dev/urandom >"/tmp/tx-$p"
	echo "$(sha256sum <"/tmp/tx-$p" | cut -d' ' -f1) $(wc -c <"/tmp/tx-$p")" \
		>"/tmp/txsum-$p"
	end=$(($(date +%s) + $4))
	while [ "$(date +%s)" -lt "$end" ]; do
		if nc "$dst" "$p" <"/tmp/tx-$p" >/dev/null 2>&1; then
			n=$((n + 1))
		else
			bad=$((bad + 1))
			sleep 0.2
		fi
	done
	echo "sent $n refused $bad" >"/tmp/txres-$p"
}

pings() {
	local dst=$1 s=$2 first=$2 end n=0 sent=0 got=0 out t r

	end=$(($(date +%s) + $4))
	while [ "$(date +%s)" -lt "$end" ]; do
		out=$(ping -q -c 2 -A -W 1 -s "$s" "$dst" 2>&1)
		t=$(echo "$out" | sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p')
		r=$(echo "$out" | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')
		sent=$((sent + ${t:-0})) got=$((got + ${r:-0})) n=$((n + 1))
		s=$((s + $3))
		[ "$s" -le 1400 ] || s=$((s - 1400))
	done
	echo "first $first sizes $n sent $sent received $got" \
		>"/tmp/ping-$5.res"
}

case $1 in
rx) rx "$2" </dev/null >/dev/null 2>&1 & ;;
tx) tx "$2" "$3" "$4" "$5" </dev/null >/dev/null 2>&1 & ;;
ping) pings "$2" "$3" "$4" "$5" "$6" </dev/null >/dev/null 2>&1 & ;;
*) echo "usage: guest-load.sh rx|tx|ping ..." >&2; exit 2 ;;
esac
