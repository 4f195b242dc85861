# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of chacha20_simd.ko, plus the project's tests.
#
#   make                  build against the running kernel's headers
#   make KDIR=<dir>       build against any kernel's headers
#   make install          modules_install + depmod (as root)
#   make check            every test: user space (and arm64 under qemu-aarch64),
#                         both Debian kernels, amd64 and arm64, under QEMU
#   make check-fast       the user-space harness and one VM boot
#   make demo             boot Debian 12's kernel with the module and show it

KDIR ?= /lib/modules/$(shell uname -r)/build
KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KRELEASE)

clean:
	rm -rf *.o *.ko *.mod *.mod.c *.mod.o .*.cmd modules.order \
		Module.symvers .tmp_versions
	$(MAKE) -C tests clean

deps:
	bash tools/install-deps.sh

test-user: deps
	$(MAKE) --no-print-directory -C tests check

# The NEON cores, cross-built and run under qemu-aarch64.
test-arm64: deps
	$(MAKE) --no-print-directory -C tests check-arm64

checkpatch: deps
	bash tools/checkpatch.sh

# W=1 builds against Debian 12's 6.1 and the 6.12 from bookworm-backports,
# for amd64 and (cross-built) arm64.
modules-debian: deps
	for k in 6.1 6.12 6.1-arm64 6.12-arm64; do CHACHA_CLEAN=1 bash tools/vm/build-module.sh $$k \
		>/dev/null || exit 1; done

check: deps test-user test-arm64 checkpatch modules-debian
	bash tools/vm/check-all.sh

check-fast: deps test-user
	bash tools/vm/run.sh --kernel 6.1 --cpu max --expect avx2

demo: deps
	bash tools/vm/demo.sh

.PHONY: all modules install clean deps test-user test-arm64 checkpatch \
	modules-debian check \
	check-fast demo
