#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-check.sh [6.1|6.12 ...]  (default: 6.1 6.12)
#
# What `dkms add` + `dkms build` do on a user's machine, against Debian's
# headers from the cache (tools/vm/fetch-kernel.sh), in a private DKMS tree:
# nothing under /usr/src, /var/lib/dkms or /lib/modules changes.  The module
# is signed, as Debian's DKMS does for Secure Boot, with a throwaway key made
# in that private tree.  Then modinfo must show the crypto aliases, the
# kernel's vermagic and the signature.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- 6.1 6.12
command -v dkms >/dev/null || die "dkms missing (apt-get install dkms)"

# Name and version as DKMS reads them: dkms.conf sourced by bash (the
# version comes from the file VERSION beside it).
conf() {
	# shellcheck disable=SC2016
	bash -c '. "$1" && echo "${!2}"' _ "$top_dir/dkms.conf" "$1"
}
name=$(conf PACKAGE_NAME)
ver=$(conf PACKAGE_VERSION)
if [ -z "$name" ] || [ -z "$ver" ]; then
	die "no PACKAGE_NAME/PACKAGE_VERSION in dkms.conf"
fi

# The tracked files plus new ones (or every file, outside git).
list_files() {
	git -C "$top_dir" ls-files --cached --others --exclude-standard 2>/dev/null ||
		(cd "$top_dir" && find . -type f ! -path './.git/*' | sed 's|^\./||')
}

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The tree as a user would have it: the tracked files (plus new ones).
mkdir "$tmp/checkout"
list_files |
	while read -r f; do
		[ -f "$top_dir/$f" ] || continue
		mkdir -p "$tmp/checkout/$(dirname "$f")"
		cp -p "$top_dir/$f" "$tmp/checkout/$f"
	done

private=(--dkmstree "$tmp/dkms" --sourcetree "$tmp/src"
	--installtree "$tmp/modules")
mkdir -p "$tmp/dkms" "$tmp/src" "$tmp/modules"
# As root, what the README says (dkms add PATH copies PATH/* to the source
# tree); dkms insists on root for that, so otherwise copy it ourselves.
if [ "$(id -u)" -eq 0 ]; then
	add=("$tmp/checkout")
else
	cp -r "$tmp/checkout" "$tmp/src/$name-$ver"
	add=(-m "$name" -v "$ver")
fi
dkms add "${add[@]}" "${private[@]}" >"$tmp/add.log" 2>&1 || {
	cat "$tmp/add.log" >&2
	die "dkms add failed"
}

fail=0
for series in "$@"; do
	load_kernel "$series"
	# Sign as Debian's DKMS would, but with a key of our own: DKMS makes
	# it (openssl) on first use, here inside $tmp.
	sign_file=$(find "$KROOT"/usr/lib/linux-kbuild-* -path '*/scripts/sign-file' \
		2>/dev/null | head -n 1)
	export sign_file mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
	log="$tmp/build-$KVER.log"
	if ! dkms build -m "$name" -v "$ver" -k "$KVER" \
		--kernelsourcedir "$HEADERS" "${private[@]}" >"$log" 2>&1; then
		cat "$log" >&2
		log "FAIL dkms build against $KVER"
		fail=1
		continue
	fi
	ko=$(find "$tmp/dkms/$name/$ver/$KVER" -path '*/module/chacha20_simd.ko*' |
		head -n 1)
	[ -n "$ko" ] || { log "FAIL no module after dkms build ($KVER)"; fail=1; continue; }
	info=$(modinfo "$ko")
	missing=''
	for a in chacha20 xchacha20 xchacha12; do
		grep -qx "alias: *crypto-$a" <<<"$info" || missing+=" crypto-$a"
	done
	grep -q "^vermagic: *$KVER " <<<"$info" || missing+=" vermagic=$KVER"
	# The copy DKMS builds is no git tree: VERSION as it is.
	grep -qx "version: *$ver" <<<"$info" || missing+=" version=$ver"
	if [ -n "$sign_file" ]; then
		grep -q '^signer: *DKMS module signing key' <<<"$info" ||
			missing+=" signer"
	fi
	if [ -n "$missing" ]; then
		grep -E "^(alias|version|vermagic|signer):" <<<"$info" >&2
		log "FAIL $KVER: modinfo lacks$missing"
		fail=1
		continue
	fi
	echo "dkms build $name/$ver against $KVER: ${ko##*/}, version $ver, aliases" \
		"crypto-{chacha20,xchacha20,xchacha12} and" \
		"$(($(grep -c '^alias:' <<<"$info") - 3)) more, signed by" \
		"'$(sed -n 's/^signer: *//p' <<<"$info")'"
done
[ $fail -eq 0 ] && echo "dkms: PASS ($*)"
exit $fail
