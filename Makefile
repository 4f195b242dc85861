# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of chacha20_simd.ko, plus the project's tests.
# `make help` lists the targets (every "name:" rule below, with its ## text).

KDIR ?= /lib/modules/$(shell uname -r)/build
# The release modules_install uses (Debian's 6.1 headers put the upstream
# version, not 6.1.0-N-amd64, in include/config/kernel.release).
KRELEASE = $(or $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))
RST2HTML ?= rst2html

all: modules ## build chacha20_simd.ko (running kernel's headers, or KDIR=<dir>)

# A clear message instead of make's "No such file or directory".
have-headers: ## fail, naming the package to install, if KDIR has no headers
	@if [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "No kernel headers found at $(KDIR)."; \
		echo "Install the headers of the running kernel:"; \
		echo "    sudo apt install linux-headers-$$(uname -r)   # Debian, Ubuntu"; \
		echo "or build against other headers: make KDIR=/path/to/headers"; \
		exit 1; \
	fi

modules: have-headers ## the same as plain make
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules ## as root: install into /lib/modules/<release>/extra, depmod
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KRELEASE)

uninstall: ## as root: remove what make install put there, depmod
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/extra/chacha20_simd.ko*
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KRELEASE)

clean: ## remove build products
	rm -rf *.o *.ko *.mod *.mod.c *.mod.o .*.cmd modules.order \
		Module.symvers .tmp_versions Documentation/*.html
	$(MAKE) -C tests clean

deps: ## install the Debian packages every target below needs (as root)
	bash tools/install-deps.sh

# The few packages of one target (tools/install-deps.sh's groups): as any
# user, nothing to do when they are there; otherwise it names them.
deps-%:
	@bash tools/install-deps.sh $*

test-user: deps-user ## user-space harness: every core against vectors and a reference
	$(MAKE) --no-print-directory -C tests check check-clang

# The NEON cores, cross-built and run under qemu-aarch64.
test-arm64: deps-arm64 ## the harness for the arm64 NEON cores, under qemu-aarch64
	$(MAKE) --no-print-directory -C tests check-arm64

checkpatch: deps-checkpatch ## checkpatch.pl --strict over every source file
	bash tools/checkpatch.sh

# W=1 builds against Debian 12's 6.1 and the 6.12 from bookworm-backports,
# for amd64 and (cross-built) arm64, their PREEMPT_RT flavours (6.1-rt,
# 6.12-rt, 6.1-rt-arm64), against 7.3 built from trixie-backports'
# linux-source-7.3, and against a big-endian arm64 6.12 tree
# (tools/vm/fetch-kernel.sh).
modules-debian: deps ## W=1 builds against Debian's 6.1 and 6.12 headers (also -rt), 7.3 trees (amd64, arm64) and big-endian arm64 6.12, no warnings
	for k in 6.1 6.12 6.1-arm64 6.12-arm64 6.1-rt 6.12-rt 6.1-rt-arm64; do \
		CHACHA_CLEAN=1 bash tools/vm/build-module.sh $$k >/dev/null || exit 1; done
	@$(call gate,debian)
	for k in 7.3 7.3-arm64; do t0=$$(date +%s); \
		CHACHA_CLEAN=1 bash tools/vm/build-module.sh $$k >/dev/null || exit 1; \
		echo "modules-debian: $$k took $(since) s"; done
	@$(call gate,kernels)
	for k in 7.3-gcc 7.3-gcc-arm64 6.12-be-arm64; do \
		CHACHA_CLEAN=1 bash tools/vm/build-module.sh $$k >/dev/null || exit 1; done

# The module built against Debian's 6.1 and 6.12 headers, disassembled:
# no indirect call and no zero-fill the compiler added on the request path.
disasm-check: deps ## request path of the 6.1/6.12 builds: no retpoline call, no auto-init zero-fill
	bash tools/disasm-check.sh 6.1 6.12

# No global name of the module's is the kernel's (6.1, 6.12, 7.3); the
# production build against a kernel with CONFIG_KUNIT (7.3 here) carries
# no test interface: nm shows it.
symbols-check: deps ## no global name a kernel has too (6.1, 6.12, 7.3); vs CONFIG_KUNIT (7.3): nothing exported, chacha_impl and chacha_stride_core __ro_after_init
	bash tools/symbols-check.sh 6.1 6.12 7.3 6.1-arm64 6.12-arm64 7.3-arm64

sparse: deps ## make C=2 (sparse) against 6.1, 6.12 and 7.3, no warnings
	bash tools/sparse-check.sh

docs: deps-docs ## render Documentation/chacha20-simd.rst (fails on any docutils message); every make target and file the documents name exists; README.md, TESTING.md, tools/bench/README.md within their line limits
	$(RST2HTML) --strict Documentation/chacha20-simd.rst \
		Documentation/chacha20-simd.html
	bash tools/docs-check.sh
	@echo "docs: PASS (Documentation/chacha20-simd.html, no warnings)"

dkms: deps ## dkms add + build in a private tree against Debian's headers, modinfo
	bash tools/dkms-check.sh

install-check: deps ## make install + uninstall into a scratch root, against Debian's headers
	bash tools/install-check.sh

deb: deps ## chacha20-simd-dkms_<version>_all.deb with dpkg-buildpackage, dh-dkms; lintian
	bash tools/mkdeb.sh

deb-check: deps deb ## the .deb installed, built by DKMS, removed and purged in a Debian 12 root; a VM loads it by alias
	bash tools/deb-check.sh

# A new user's make bench and make test-user: each on a bare Debian 12
# (debootstrap minbase, made once, shared with deb-check), after only its
# own group of tools/install-deps.sh; the bench with --reps 4.  make
# check's only run of make test-user.
fresh-check: deps ## make deps-bench + make bench (short), make deps-user + make test-user, each in a fresh bare Debian 12 root
	bash tools/fresh-check.sh

# KUnit on self-built debug kernels: x86-64 (AVX2, SSE2 only) and arm64.
kunit: deps ## KUnit suites in the 7.3 test kernels built here (x86-64 and arm64)
	bash tools/kunit/check-all.sh

# Every VM row of tools/rows: make check's and the ones it leaves out.
vm: deps ## the VM checks of every kernel on every CPU model (tools/rows), make check's and the rest
	bash tools/vm/check-all.sh

# AVX-512 inside kernels: Bochs 3.0 on Cannon Lake and Skylake-X models.
bochs: deps ## AVX-512 in kernels under Bochs: both sides of the zmm policy, a task's zmm16-31, KUnit
	bash tools/bochs/check-all.sh

# IPsec between two kernels (also in make check, tools/emulated-check.sh):
# 6.1, 6.12, 7.3, and the module on arm64 against x86-64's in-tree driver.
ipsec: deps ## ESP tunnels, rfc7539esp(chacha20,poly1305), between a guest with the module and one without (6.1, 6.12, 7.3, arm64 to x86-64)
	bash tools/ipsec/check-all.sh

# cryptsetup's own test scripts against the module (also in make check,
# tools/emulated-check.sh).
peer-tests: deps ## cryptsetup's tests/mode-test (Adiantum) and luks2-integrity-test (chacha20, poly1305) from Debian's source, in a 6.1 guest with the module
	bash tools/peer-tests/run.sh --kernel 6.1

# make check (tools/check.sh): the static checks in two lanes side by side
# (make -j2 -O: each lane's output comes out whole, when it ends), the
# source tree's own (harnesses, checkpatch, docs) beside what builds
# against kernels (which builds the 7.3 test kernels from a cold cache),
# each lane one target after another (MAKEFLAGS= : a serial make, without
# the outer one's jobserver); beside them the tests that boot kernels
# (tools/emulated-check.sh), on Debian's kernels as soon as a lane is free,
# on 7.3 once its kernels are built: the lanes open these gates.
gate = [ -z "$$CHACHA_GATES" ] || touch "$$CHACHA_GATES/$(1)"
# since: the seconds since the shell variable t0, set by date +%s
since = $$(($$(date +%s) - t0))
# steps TARGETS: each in a serial make of its own, in turn, each timed
# ("make check: T took N s"), up to the first that fails; s: 1 if one did
steps = s=0; for t in $(1); do t0=$$(date +%s); \
	MAKEFLAGS= $(MAKE) --no-print-directory $$t || s=1; \
	echo "make check: $$t took $(since) s"; \
	[ $$s -eq 0 ] || break; done

check: deps ## every test (KUnit on 7.3; VMs: 6.1, 6.12, 7.3 on three CPUs and on arm64, PREEMPT_RT 6.1 and 6.12; make bochs; IPsec; cryptsetup's tests)
	bash tools/check.sh

# test-user is not here: fresh-check runs it, in a bare Debian 12 root,
# after the gate: it needs no kernel, and at the end of the other lane it
# ran alone for five minutes of a cold make check.
check-source: deps ## make check's first lane: test-arm64 checkpatch docs, then fresh-check (make test-user in a bare root)
	$(call steps,test-arm64 checkpatch docs); $(call gate,source); f=$$s; \
	$(call steps,fresh-check); [ $$f -eq 0 ] && [ $$s -eq 0 ]

# modules-debian opens the kernels gate once the 7.3 test kernels and the
# module on them are built: the emulator jobs on them need not wait for
# the rest of this lane, mostly apt and dpkg.  Later steps only reuse those
# builds.  The gate is opened here again in case modules-debian failed.
check-kernels: deps ## make check's second lane: modules-debian disasm-check symbols-check sparse dkms install-check deb-check
	$(call steps,modules-debian disasm-check symbols-check sparse dkms \
		install-check deb-check); $(call gate,kernels); exit $$s

check-fast: deps test-user ## the user-space harness and one VM boot
	bash tools/vm/run.sh --kernel 6.1 --cpu max --expect avx2

# The VM demo, then the module in an IPsec tunnel with an unmodified kernel.
demo: deps ## boot Debian 12's kernel under QEMU with the module and show it, then an IPsec tunnel through it
	bash tools/vm/demo.sh
	bash tools/ipsec/run.sh --kernel 6.1 --demo

bench: deps-bench ## measure the module's request path beside the kernel's and the libraries
	$(MAKE) -C tools/bench run

help: ## this list
	@echo "make [KDIR=<kernel headers>] TARGET; targets:"
	@awk -F: '/^[a-z][a-z0-9_-]*:([^=]|$$)/ { \
		d = $$0; sub(/^[^#]*(## ?|$$)/, "", d); \
		printf "  %-16s %s\n", $$1, d }' $(MAKEFILE_LIST)

.PHONY: all have-headers modules install uninstall clean deps test-user test-arm64 \
	checkpatch modules-debian disasm-check symbols-check sparse docs dkms install-check deb deb-check \
	fresh-check check \
	check-source check-kernels check-fast demo bench kunit vm bochs ipsec peer-tests help
