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
#   guest-load.sh ping DST SECONDS EXTRA
#	ping-sweep DST SECONDS EXTRA: its line in /tmp/sweep.out, then its
#	exit status in /tmp/sweep.rc.

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

case $1 in
rx) rx "$2" </dev/null >/dev/null 2>&1 & ;;
tx) tx "$2" "$3" "$4" "$5" </dev/null >/dev/null 2>&1 & ;;
ping) (ping-sweep "$2" "$3" "$4" >/tmp/sweep.out 2>&1; echo $? >/tmp/sweep.rc) \
	</dev/null >/dev/null 2>&1 & ;;
*) echo "usage: guest-load.sh rx|tx|ping ..." >&2; exit 2 ;;
esac
