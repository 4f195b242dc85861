#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# calls.sh ROOT[,ROOT...] ... -- OBJ...
#
# Counts the call instructions on a request path of the @kernel build
# (build/kernel-flags/*.o), for build/bench's call-count column.
#
# The function set of a path: its ROOTs, then every function that a
# direct call in the set reaches, found in OBJ.  A call goes to the
# symbol of its relocation; a call without one goes to the symbol
# objdump names, in the same object.  Calls out of OBJ (memcpy,
# __stack_chk_fail, the thunks) are counted but not followed.  An
# indirect call goes through a __x86_indirect_thunk_* or is "call *":
# it is counted as indirect and not followed.  Its targets are the
# ChaCha20 and Poly1305 cores, which make no calls.
#
# So the count is static: every call site in the set, once, taken or
# not at run time.  It is not the number of calls one request executes.
#
# Output, one line per root list:
#   path ROOTS CALLS INDIRECT FUNCTIONS FN:CALLS...
# where ROOTS is the list as given, and FN:CALLS lists each function of
# the set that has calls.

set -euo pipefail

roots=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	roots+=("$1")
	shift
done
if [ $# -lt 2 ] || [ ${#roots[@]} -eq 0 ]; then
	echo "usage: calls.sh ROOT[,ROOT...] ... -- OBJ..." >&2
	exit 2
fi
shift

objdump -dr --no-show-raw-insn "$@" | awk -v roots="${roots[*]}" '
function flush() {
	if (pending == "")
		return
	callee[cur, ++ncallee[cur]] = pending
	pending = ""
}
/file format/ {
	flush()
	obj = $1
	sub(/:$/, "", obj)
	next
}
/^[0-9a-f]+ <[^>]+>:$/ {
	flush()
	cur = $2
	gsub(/[<>:]/, "", cur)
	cur = obj "/" cur
	defined[cur] = 1
	calls[cur] += 0
	next
}
/^[ \t]+[0-9a-f]+:[ \t]+R_X86_64_/ {
	if (pending == "")
		next
	sym = $3
	sub(/[-+]0x[0-9a-f]+$/, "", sym)
	pending = "reloc:" sym
	flush()
	next
}
/^[ \t]+[0-9a-f]+:[ \t]+call/ {
	flush()
	calls[cur]++
	if ($0 ~ /call[ \t]+\*/) {
		indirect[cur]++
		next
	}
	sym = $0
	if (!match(sym, /<[^>]+>/)) {
		next
	}
	sym = substr(sym, RSTART + 1, RLENGTH - 2)
	sub(/\+0x[0-9a-f]+$/, "", sym)
	pending = "local:" sym
	next
}
{
	flush()
}
# The key of the function a callee names: in the same object, else in
# any object that defines it.
function resolve(from, c,    o, name, k) {
	o = from
	sub(/\/[^\/]*$/, "", o)
	name = c
	sub(/^[a-z]+:/, "", name)
	if ((o "/" name) in defined)
		return o "/" name
	if (c ~ /^local:/)
		return ""
	for (k in defined)
		if (k ~ ("/" name "$") && substr(k, length(k) - length(name)) == "/" name)
			return k
	return ""
}
function thunk(c) {
	return c ~ /^reloc:__x86_indirect_/
}
END {
	flush()
	n = split(roots, rl, " ")
	for (r = 1; r <= n; r++) {
		delete seen
		delete queue
		head = 0
		tail = 0
		m = split(rl[r], names, ",")
		for (i = 1; i <= m; i++)
			for (k in defined)
				if (substr(k, length(k) - length(names[i])) == "/" names[i] && !(k in seen)) {
					seen[k] = 1
					queue[tail++] = k
				}
		if (!tail) {
			printf "calls.sh: no function %s\n", rl[r] > "/dev/stderr"
			exit 1
		}
		total = 0
		ind = 0
		list = ""
		while (head < tail) {
			f = queue[head++]
			total += calls[f]
			for (j = 1; j <= ncallee[f]; j++) {
				if (thunk(callee[f, j])) {
					ind++
					continue
				}
				t = resolve(f, callee[f, j])
				if (t != "" && !(t in seen)) {
					seen[t] = 1
					queue[tail++] = t
				}
			}
			ind += indirect[f]
			if (calls[f]) {
				name = f
				sub(/^.*\//, "", name)
				list = list " " name ":" calls[f]
			}
		}
		printf "path %s %d %d %d%s\n", rl[r], total, ind, tail, list
	}
}'
