#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# returns.sh ROW BYTES [encrypt|decrypt]
#
# The returns through the return thunk of one request of an @kernel row
# of build/bench, e.g. returns.sh module-avx512-aead@kernel 1024: gdb
# stops the bench when that row's request of BYTES bytes starts, puts a
# breakpoint on __x86_return_thunk, and counts its hits until
# the request returns.  With --mitigations' srso each one is a
# mispredicted return.  Prints the count, then each return's site, the
# function it returns into with the offset.  The count starts at the
# row's function in paths.c, module_aead() or kernel_aead(), and takes
# its return too, so a count of 0 fails.  The breakpoint is gdb's int3,
# set once the thunks are patched: a hardware one never fired in a
# Zen 5 guest.  Needs gdb.  A count, not a benchmark: it takes seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
row=${1:?usage: $0 ROW BYTES [encrypt|decrypt]}
bytes=${2:?usage: $0 ROW BYTES [encrypt|decrypt]}
op=${3:-encrypt}
case $op in
encrypt) decrypt=0 ;;
decrypt) decrypt=1 ;;
*) echo "returns.sh: encrypt or decrypt, not $op" >&2; exit 2 ;;
esac
case $row in
*@kernel) ;;
*) echo "returns.sh: $row: only the @kernel rows return through thunks" >&2
   exit 2 ;;
esac
command -v gdb >/dev/null || { echo "returns.sh: needs gdb" >&2; exit 2; }
make -s -C "$here" >/dev/null
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<EOF
python
import gdb

sites = []

class Thunk(gdb.Breakpoint):
    def stop(self):
        ra = int(gdb.parse_and_eval("*(unsigned long *)\$rsp"))
        sites.append(gdb.execute("info symbol %d" % ra,
                                 to_string=True).split(" in ")[0])
        return False

class Start(gdb.Breakpoint):
    def stop(self):
        s = gdb.parse_and_eval("s")
        return (s["name"].string() == "$row" and
                int(gdb.parse_and_eval("len")) == $bytes and
                bool(s["decrypt"]) == bool($decrypt))

for fn in ("call_amodule", "call_akernel"):
    Start(fn)
end
set confirm off
run --reps 4 >/dev/null
python
fn = "aead" if gdb.selected_frame().name() == "call_amodule" else "kernel_aead"
gdb.Breakpoint("*%d" % int(gdb.parse_and_eval("s->paths->" + fn)),
               temporary=True)
end
continue
python Thunk("*__x86_return_thunk")
finish
python
print("returns: %d" % len(sites))
for s in sites:
    print("  " + s)
end
kill
EOF
out=$(gdb -q -batch -x "$script" "$here/build/bench" 2>&1 |
	sed -n '/^returns: /,$p' | grep -v '^\[Inferior' || true)
[ -n "$out" ] || {
	echo "returns.sh: no $op request of $row at $bytes bytes ran" >&2
	exit 1
}
echo "$out"
case $out in
"returns: 0"*)
	echo "returns.sh: no return through the thunk was seen" >&2
	exit 1 ;;
esac
