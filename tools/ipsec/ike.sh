# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # run.sh's variables
#
# run.sh --ike: the tunnel's SAs come from strongSwan (Debian 12's charon,
# started by hand in each guest, and swanctl), not from `ip xfrm`.  IKEv2
# with a pre-shared key, IKE chacha20poly1305-prfsha256-x25519 (the openssl
# plugin), ESP chacha20poly1305-esn in tunnel mode between the outer
# addresses for the inner pair; A's CHILD_SA rekeys every fifth of the bulk
# size, so that each transfer runs across several rekeys.  Sourced by
# run.sh, whose helpers (on, verdict, bulk, counter) and addresses it uses;
# the checks:
#   16 ike-badpsk	B with another PSK: A's initiate fails, no CHILD_SA
#			and no xfrm state on either side
#   3 sa		the right PSK: the CHILD_SA is up, each side has two
#			rfc7539esp(chacha20,poly1305) states
#   17 esn		every one of them has the flag esn
#   8, 9 bulk		as run.sh's, with the rekeys during each counted
#   18 rekeys		at least 3 rekeys during each transfer
#   19 esp-bytes	A's SAs, the deleted ones (ip -s xfrm monitor) and
#			the current ones (ip -s xfrm state), carried the
#			bulk size each way; no counter of
#			/proc/net/xfrm_stat but the rekey races'
#			(rekey_races) above 0 on either: nothing refused
#   20 unload-refused	modprobe -r chacha20_simd on A fails while SAs exist
#   21 unload-after-terminate
#			after swanctl --terminate and the SAs gone, it works

ike_proposal=chacha20poly1305-prfsha256-x25519
esp_proposal=chacha20poly1305-esn
# A PSK, new each run, and a wrong one.
psk=0x$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
psk_bad=0x$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')

# ike_conf LOCAL REMOTE LOCAL_INNER REMOTE_INNER PSK [REKEY_BYTES]: a
# swanctl.conf, connection "tun" with its child "net".  With REKEY_BYTES
# (A's side) the kernel's soft byte limit of each SA is that, exactly
# (rand_bytes 0), and its hard limit twice that: time enough for the
# rekey to finish before any SA dies.
ike_conf() {
	local limits=''
	[ -z "${6:-}" ] || limits="rekey_bytes = $6
				life_bytes = $(($6 * 2))
				rand_bytes = 0"
	cat <<-EOF
	connections {
		tun {
			version = 2
			local_addrs = $1
			remote_addrs = $2
			proposals = $ike_proposal
			local {
				auth = psk
			}
			remote {
				auth = psk
			}
			children {
				net {
					mode = tunnel
					local_ts = $3/32
					remote_ts = $4/32
					esp_proposals = $esp_proposal
					$limits
				}
			}
		}
	}
	secrets {
		ike-tun {
			id-l = $1
			id-r = $2
			secret = $5
		}
	}
	EOF
}

# ike_load G CONF: CONF as G's /etc/swanctl/swanctl.conf (base64 on the
# command channel), loaded into its charon.
ike_load() {
	on "$1" "echo $(base64 -w0 <<<"$2") | base64 -d" \
		">/etc/swanctl/swanctl.conf && swanctl --load-all --noprompt"
}

# esp_states G: the number of G's xfrm states, then of those with
# rfc7539esp(chacha20,poly1305), then of those with the flag esn
esp_states() {
	{ on "$1" "ip xfrm state" || true; } | awk '
		/^src / { n++ }
		/rfc7539esp\(chacha20,poly1305\)/ { aead++ }
		/flag/ && / esn( |$)/ { esn++ }
		END { print n + 0, aead + 0, esn + 0 }'
}

# child_ids: the CHILD_SAs A's charon established so far, one
# "net{N}" a line (a rekey's new CHILD_SA logs "inbound" and then
# "outbound ... established"; the first one plain "established").
child_ids() {
	{ on a "cat /tmp/charon.log" || true; } |
		sed -n 's/.*CHILD_SA \([^ ]*{[0-9]*}\) established with SPIs.*/\1/p' |
		sort -t'{' -k2n -u
}

# 16 and 3: charon in both guests, first with the wrong PSK at B, then
# with the right one.
ike_sa() {
	local g r ok=0 st_a st_b rc sas failed
	for g in a b; do
		on "$g" -t 120 "mkdir -p /etc/swanctl && (/usr/lib/ipsec/charon" \
			">/tmp/charon.out 2>&1 &); i=0; while ! swanctl --stats" \
			">/dev/null 2>&1; do [ \$i -lt 90 ] || exit 1; sleep 1;" \
			"i=\$((i + 1)); done" >/dev/null ||
			on "$g" "tail -n 20 /tmp/charon.out /tmp/charon.log" \
				>/dev/null || true
	done
	on a "ip route add $inner_b/32 via $outer_b src $inner_a" >/dev/null ||
		true
	on b "ip route add $inner_a/32 via $outer_a src $inner_b" >/dev/null ||
		true
	ike_load a "$(ike_conf "$outer_a" "$outer_b" "$inner_a" "$inner_b" "$psk" \
		$((mib * 1048576 / 5)))" >/dev/null || ok=1
	ike_load b "$(ike_conf "$outer_b" "$outer_a" "$inner_b" "$inner_a" \
		"$psk_bad")" >/dev/null || ok=1

	# 16. the wrong PSK at B.
	rc=0
	on a -t 150 "swanctl --initiate --ike tun --child net --timeout 90" \
		>/dev/null || rc=$?
	[ "$rc" != 0 ] || ok=1
	sleep 2
	st_a=$(esp_states a) st_b=$(esp_states b)
	sas=$(on a "swanctl --list-sas"; on b "swanctl --list-sas") || true
	failed=$(on a "grep -c AUTHENTICATION_FAILED /tmp/charon.log") || true
	{ [ "${st_a%% *}" = 0 ] && [ "${st_b%% *}" = 0 ] &&
		! grep -q INSTALLED <<<"$sas" && [ "${failed:-0}" -ge 1 ]; } ||
		ok=1
	verdict 16 $ok "wrong PSK at B: A's initiate exit status $rc," \
		"A's log names AUTHENTICATION_FAILED ${failed:-?} times;" \
		"xfrm states A ${st_a%% *}, B ${st_b%% *};" \
		"installed CHILD_SAs: $(grep -c INSTALLED <<<"$sas")"

	# 3. the right one.
	ok=0
	ike_load b "$(ike_conf "$outer_b" "$outer_a" "$inner_b" "$inner_a" "$psk")" \
		>/dev/null || ok=1
	r=$(on a -t 150 "swanctl --initiate --ike tun --child net --timeout 90" |
		grep -E 'established|failed' | paste -sd'|') || ok=1
	st_a=$(esp_states a) st_b=$(esp_states b)
	{ [[ $st_a == "2 2 "* ]] && [[ $st_b == "2 2 "* ]]; } || ok=1
	verdict 3 $ok "IKEv2 PSK, IKE $ike_proposal, ESP $esp_proposal:" \
		"${r:-no answer}; rfc7539esp(chacha20,poly1305) states A" \
		"$(cut -d' ' -f2 <<<"$st_a") of $(cut -d' ' -f1 <<<"$st_a"), B" \
		"$(cut -d' ' -f2 <<<"$st_b") of $(cut -d' ' -f1 <<<"$st_b")"
}

# The bytes each of A's SAs carried, "o|i SPI BYTES" a line (o: src A,
# outbound), from `ip -s xfrm state` on stdin, or with "Deleted" from `ip
# -s xfrm monitor`'s log: the kernel's count of each SA as it was
# deleted.  (charon's "closing CHILD_SA" line has 0 bytes for the
# outbound SA of a rekeyed CHILD_SA: by then the new one has replaced
# it.)
sa_list() {
	awk -v a="$outer_a" -v del="${1:-}" '
		/^[^ \t]/ { on = 0 }
		/^src / && !del { on = 1; out = ($2 == a) }
		/^Deleted src / && del { on = 1; out = ($3 == a) }
		on && $1 == "proto" && $3 == "spi" { spi = $4; sub(/\(.*/, "", spi) }
		on && want { print (out ? "o" : "i"), spi, $1 + 0; want = 0 }
		on && /lifetime current:/ { want = 1 }'
}
# sa_sum: "out in count" of sa_list's lines on stdin
sa_sum() {
	awk '{ if ($1 == "o") o += $3; else i += $3 } END { print o + 0, i + 0, NR }'
}

# The counters of /proc/net/xfrm_stat that a rekey may raise by itself:
# a packet that met no SA or a dying one while charon swapped them, or
# one larger than the path MTU its route gave (XfrmOutStateModeError:
# -EMSGSIZE from xfrm4_tunnel_check_size(), the only error of IPv4 tunnel
# mode without a WARN; once on 7.3, beside an XfrmOutStateInvalid).  The
# kernel drops it and TCP sends it again.  The others mean a packet was
# refused: XfrmInStateProtoError, a failed authentication, among them.
rekey_races='XfrmOutNoStates|XfrmOutStateInvalid|XfrmOutStateModeError'
rekey_races+='|XfrmInNoStates|XfrmInStateInvalid'

# xfrm_errors G: "REFUSED;RACES;N", the counters of G's /proc/net/xfrm_stat
# that are not 0, "name=value" each, the rekey races after the first ';',
# and N, the sum of the races
xfrm_errors() {
	on "$1" "awk -v r='^($rekey_races)\$' '\$2 != 0 {" \
		"if (\$1 ~ r) { x = x (x == \"\" ? \"\" : \" \") \$1 \"=\" \$2;" \
		"n += \$2 } else e = e (e == \"\" ? \"\" : \" \") \$1 \"=\" \$2 }" \
		"END { print e \";\" x \";\" n + 0 }' /proc/net/xfrm_stat"
}

# 17, 8, 9, 18, 19, 20, 21: with the CHILD_SA up.
ike_checks() {
	local st_a st_b ok ids0 ids1 ids2 n_ab n_ba cl cur o i x_a x_b
	local r rc n left x y

	# 17. ESN on every SA, both sides.
	st_a=$(esp_states a) st_b=$(esp_states b)
	ok=0
	{ [[ $st_a =~ ^([1-9][0-9]*)\ ([0-9]+)\ ([0-9]+)$ ]] &&
		[ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[1]}" ] &&
		[[ $st_b =~ ^([1-9][0-9]*)\ ([0-9]+)\ ([0-9]+)$ ]] &&
		[ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[1]}" ]; } || ok=1
	r=$({ on a "ip xfrm state" || true; } | grep -E 'flag|esn' | sort -u |
		sed 's/^[[:space:]]*//' | paste -sd'|') || true
	verdict 17 $ok "states with the flag esn: A $(cut -d' ' -f3 <<<"$st_a")" \
		"of $(cut -d' ' -f1 <<<"$st_a"), B $(cut -d' ' -f3 <<<"$st_b") of" \
		"$(cut -d' ' -f1 <<<"$st_b") (A: $r)"

	# 8, 9. the bulk transfers, with the CHILD_SAs established during
	# each counted, and every SA deleted meanwhile logged with its byte
	# count.
	on a "(ip -s xfrm monitor SA >/tmp/xfrm-mon.log 2>&1 &)" >/dev/null ||
		true
	size=$((mib * 1024 * 1024 + 4097))
	on a -t 300 "head -c $size /dev/urandom >/tmp/tx" >/dev/null || true
	on b -t 300 "head -c $size /dev/urandom >/tmp/tx" >/dev/null || true
	ids0=$(child_ids)
	bulk 8 a b "$inner_b" 5001
	ids1=$(child_ids)
	bulk 9 b a "$inner_a" 5002
	ids2=$(child_ids)
	n_ab=$(($(wc -l <<<"$ids1") - $(wc -l <<<"$ids0")))
	n_ba=$(($(wc -l <<<"$ids2") - $(wc -l <<<"$ids1")))

	# 18. rekeys: at least 3 during each transfer.
	ok=0
	{ [ "$n_ab" -ge 3 ] && [ "$n_ba" -ge 3 ]; } || ok=1
	verdict 18 $ok "CHILD_SA rekeys (A's charon, rekey_bytes" \
		"$((mib * 1048576 / 5))): $n_ab during A->B, $n_ba during B->A;" \
		"CHILD_SAs $(paste -sd' ' <<<"$ids2")"

	# 19. A's SAs carried the bulk size each way; nothing failed
	# authentication.
	# The states first, then the deleted ones: an SA deleted in between
	# is then in both lists, and counted once, by its SPI.
	cur=$({ on a "ip -s xfrm state" || true; } | sa_list)
	on a "cat /tmp/xfrm-mon.log" >"$out/xfrm-monitor-a.log" 2>&1 || true
	r=$(sa_list Deleted <"$out/xfrm-monitor-a.log")
	cl=$(sa_sum <<<"$r")
	o=$(printf '%s\n%s\n' "$cur" "$r" | awk 'NF == 3 { k = $1 " " $2
		if (!(k in b) || $3 > b[k]) b[k] = $3 }
		END { for (k in b) print k, b[k] }' | sa_sum)
	i=$(cut -d' ' -f2 <<<"$o") o=${o%% *}
	cur=$(sa_sum <<<"$cur")
	cur=${cur% *}
	x_a=$(xfrm_errors a) || x_a='?;;0'
	x_b=$(xfrm_errors b) || x_b='?;;0'
	# At most one packet lost to a race per rekey, both sides together.
	r=$((${x_a##*;} + ${x_b##*;}))
	ok=0
	{ [ "$o" -ge "$size" ] && [ "$i" -ge "$size" ] &&
		[ -z "${x_a%%;*}" ] && [ -z "${x_b%%;*}" ] &&
		[ "$r" -le $((n_ab + n_ba)) ]; } || ok=1
	x=${x_a%%;*} y=${x_b%%;*} x_a=${x_a#*;} x_b=${x_b#*;}
	x_a=${x_a%;*} x_b=${x_b%;*}
	verdict 19 $ok "A's SAs: out $o bytes, in $i bytes (deleted" \
		"$(cut -d' ' -f3 <<<"$cl") SAs, ip -s xfrm monitor: out ${cl%% *}," \
		"in $(cut -d' ' -f2 <<<"$cl"); current, ip -s xfrm state: out" \
		"${cur%% *}, in ${cur##* }); refusals in xfrm_stat: A ${x:-none}," \
		"B ${y:-none}; packets lost to rekey races: $r (at most" \
		"$((n_ab + n_ba))): A ${x_a:-none}, B ${x_b:-none}"

	# 20. the module cannot go while its tfms are in use.
	r=$(on a "modprobe -r chacha20_simd 2>&1; echo rc=\$?;" \
		"grep -c '^chacha20_simd ' /proc/modules" | paste -sd' ') || true
	ok=0
	[[ $r =~ rc=[1-9][0-9]*\ 1$ ]] || ok=1
	verdict 20 $ok "with $(cut -d' ' -f1 <<<"$(esp_states a)") xfrm states on A:" \
		"modprobe -r chacha20_simd: ${r:-?}"

	# 21. swanctl --terminate, the SAs gone on both sides, then it can.
	rc=0
	on a -t 120 "swanctl --terminate --ike tun --timeout 60" >/dev/null ||
		rc=$?
	# States with an algorithm: a larval one (an acquire, no SA) holds
	# nothing of the module's and expires by itself.
	left=$(on a "i=0; while ip xfrm state | grep -q 'aead ' &&" \
		"[ \$i -lt 30 ]; do sleep 1; i=\$((i + 1)); done;" \
		"ip xfrm state | grep -c 'aead '") || true
	st_b=$(esp_states b)
	r=$(on a -t 90 "n=1; until modprobe -r chacha20_simd 2>/tmp/rm.err;" \
		"do [ \$n -lt 30 ] || break; sleep 1; n=\$((n + 1)); done;" \
		"echo \$n \$(grep -c '^chacha20_simd ' /proc/modules)" \
		"\$(head -n 1 /tmp/rm.err)") || true
	n=${r%% *}
	ok=0
	{ [ "$rc" = 0 ] && [ "$left" = 0 ] && [ "${st_b%% *}" = 0 ] &&
		[[ $r =~ ^[0-9]+\ 0 ]]; } || ok=1
	verdict 21 $ok "swanctl --terminate: exit status $rc; xfrm states" \
		"left A ${left:-?}, B ${st_b%% *}; modprobe -r chacha20_simd:" \
		"attempts ${n:-?}, loaded after: $(cut -d' ' -f2- <<<"$r")"
}
