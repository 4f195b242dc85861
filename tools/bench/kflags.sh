#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kflags.sh KERNEL OUT.mk
#
# The compiler flags of the @kernel rows, taken from a real build: builds
# the module against KERNEL (6.1 or 6.12: Debian's headers, fetched and
# cached by tools/vm; tools/vm/build-module.sh), reads the command lines
# Kbuild saved for chacha20_core.o, and writes to OUT.mk:
#
#   KFLAGS_C     every code-generation flag of that command line (-f*, -m*,
#                -O*, -std=*, -pg), less what cannot run in user space:
#                -mcmodel=kernel (code in the top 2 GiB) and the stack
#                protector's %gs guard (user space keeps its canary at
#                %fs:40, the same one load); -mnop-mcount added beside
#                -mfentry, for the 5-byte NOP that ftrace patches each
#                __fentry__ call into at boot
#   KFLAGS_S     for the assembly: the kernel's RET and SYM_FUNC_START as
#                its configuration makes them (return thunk, SLS int3,
#                ENDBR for IBT), as defines for the tests' linkage shim
#   KFLAGS_FROM  the kernel, for the benchmark's header
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kernel=${1:?usage: $0 KERNEL OUT.mk}
out=${2:?usage: $0 KERNEL OUT.mk}
load_kernel "$kernel"
[ "$KARCH" = amd64 ] || die "the benchmark is x86-64 only"
ko=$(bash "$vm_dir/build-module.sh" "$kernel")
bdir=$(dirname "$ko")
cmdfile=$bdir/.chacha20_core.o.cmd
[ -f "$cmdfile" ] || die "no $cmdfile"

cmdline=$(sed -n 's/^\(saved\)\{0,1\}cmd_[^ ]* := //p' "$cmdfile" | head -n 1)
[ -n "$cmdline" ] || die "no command line in $cmdfile"

cflags=()
fentry=
# shellcheck disable=SC2086	# split the command line into words
set -- $cmdline
while [ $# -gt 0 ]; do
	case $1 in
	-include|-isystem|-o|-MF|-MT) shift ;;
	-mcmodel=*|-mstack-protector-guard*|-fmacro-prefix-map=*|-fdebug-prefix-map=*) ;;
	-mfentry) cflags+=("$1"); fentry=1 ;;
	-f*|-m*|-O*|-std=*|-pg|--param*) cflags+=("$1") ;;
	esac
	shift
done
[ -z "$fentry" ] || cflags+=(-mnop-mcount)

conf=$HEADERS/include/config/auto.conf
[ -f "$conf" ] || die "no $conf"
have() { grep -Eq "^CONFIG_($1)=y" "$conf"; }
sflags=()
have 'MITIGATION_RETHUNK|RETHUNK' && sflags+=(-DSHIM_RETHUNK)
have 'MITIGATION_SLS|SLS' && sflags+=(-DSHIM_SLS)
have 'X86_KERNEL_IBT' && sflags+=(-DSHIM_IBT)

{
	echo "# From $cmdfile and $conf (tools/bench/kflags.sh $kernel)"
	echo "KFLAGS_C := ${cflags[*]}"
	echo "KFLAGS_S := ${sflags[*]}"
	echo "KFLAGS_FROM := $KVER"
} >"$out.tmp"
mv "$out.tmp" "$out"
log "flags of the module's build against $KVER: $out"
