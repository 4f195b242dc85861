#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare.sh [-n RUNS] [-r REPS] [-l LIMIT] [-a ARGS] REV [ROW=OLDROW ...]
#
# The module's request path now against commit REV: builds REV's
# benchmark in a worktree of its own (cached under $CHACHA_CACHE), then
# runs the two benchmarks by turns, RUNS times each (default 5), and
# prints, for every module-* row both have and every size, the fastest
# cycles per call of each and their ratio (below 1: now is faster).  The
# AEAD rows count once per direction, as module-*-aead:encrypt and
# :decrypt.  Runs
# by turns, so that a slow spell of this shared machine weighs on both.
# ROW=OLDROW pairs a row of now with a differently named row of REV (e.g.
# module-avx512=module-avx2: today's default against REV's, on a CPU
# where REV had no AVX-512).  Ends with a TARGET no-slower-than-REV line
# per row: now no slower than REV at any size, by more than LIMIT
# (default 1.00).  -a ARGS: more options for both benchmarks, split at
# blanks (e.g. -a --in-place; REV's must know them).  A benchmark, not a
# test: it prints numbers.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${CHACHA_CACHE:-$HOME/.cache/chacha20-simd}
runs=5 reps=256 limit=1.00 args=()
while getopts "n:r:l:a:" o; do
	case $o in
	n) runs=$OPTARG ;;
	r) reps=$OPTARG ;;
	l) limit=$OPTARG ;;
	a) read -ra more <<<"$OPTARG"; args+=("${more[@]}") ;;
	*) sed -n '4,20s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
rev=${1:?usage: $0 [-n RUNS] [-r REPS] [-l LIMIT] [-a ARGS] REV [ROW=OLDROW ...]}
shift
pairs=("$@")

sha=$(git -C "$top" rev-parse --short "$rev^{commit}")
old=$cache/bench-rev/$sha
if [ ! -x "$old/tools/bench/build/bench" ]; then
	rm -rf "$old"
	mkdir -p "$old"
	git -C "$top" archive "$sha" | tar -x -C "$old"
	make -s -C "$old/tools/bench" >/dev/null
fi
make -s -C "$here" >/dev/null

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((i = 0; i < runs; i++)); do
	"$old/tools/bench/build/bench" --reps "$reps" ${args[@]+"${args[@]}"} \
		--csv "$out/old-$i.csv" >/dev/null
	"$here/build/bench" --reps "$reps" ${args[@]+"${args[@]}"} \
		--csv "$out/new-$i.csv" >/dev/null
done

echo "now ($(git -C "$top" describe --always --dirty)) against $sha; fastest of $runs runs each, by turns, --reps $reps${args[*]+ ${args[*]}}"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
	"family/model $(grep -m1 'cpu family' /proc/cpuinfo | awk '{print $4}')/$(grep -m1 '^model' /proc/cpuinfo | awk '{print $3}')"
python3 - "$out" "$sha" "$limit" "${pairs[@]}" <<'EOF'
import csv, glob, sys

out, sha, limit, pairs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]

def best(prefix):
    b = {}
    for f in glob.glob(f"{out}/{prefix}-*.csv"):
        for r in csv.DictReader(open(f)):
            if r["kind"] == "module":
                k = (r["name"], int(r["bytes"]))
            elif r["kind"] == "aead-module":
                k = (r["name"] + ":" + r["op"], int(r["bytes"]))
            else:
                continue
            c = float(r["cycles_per_call"])
            b[k] = min(b.get(k, c), c)
    return b

old, new = best("old"), best("new")
rows = sorted({n for n, _ in new} & {n for n, _ in old})
rows = [(n, n) for n in rows] + [tuple(p.split("=", 1)) for p in pairs]
sizes = sorted({s for _, s in new})
print()
print("| bytes | " + " | ".join(f"{a} / {b}" if a != b else a for a, b in rows) + " |")
print("|---:|" + "---:|" * len(rows))
worst = {}
for s in sizes:
    cells = []
    for a, b in rows:
        if (a, s) in new and (b, s) in old:
            r = new[(a, s)] / old[(b, s)]
            cells.append(f"{r:.3f}")
            if r > worst.get((a, b), (0, 0))[0]:
                worst[(a, b)] = (r, s)
        else:
            cells.append("-")
    print(f"| {s} | " + " | ".join(cells) + " |")
print()
for (a, b), (r, s) in worst.items():
    print(f"worst {a} now / {b} then: {r:.3f} at {s} B")
# No row without the kernel's mitigations slower than then.
print()
for (a, b), (r, s) in worst.items():
    verdict = "met" if r <= limit else "missed"
    print(f"TARGET no-slower-than-{sha} {a} now/then at all sizes (worst at {s} B): {verdict} {r:.3f} (limit {limit:.2f})")
EOF
