# SPDX-License-Identifier: GPL-2.0
#
# Build the static fscrypt checker that runs inside the test VMs (check 12,
# and its device search for check 13):
#   make -f tools/vm/fscrypt-check.mk [FSCRYPT_CHECK=/path/to/fscrypt-check]
# or include this file from another Makefile and depend on $(FSCRYPT_CHECK).

FSCRYPT_CHECK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
FSCRYPT_CHECK ?= $(FSCRYPT_CHECK_DIR)/fscrypt-check
FSCRYPT_CHECK_CC ?= gcc
FSCRYPT_CHECK_CFLAGS := -O2 -static -Wall -Wextra -Werror

$(FSCRYPT_CHECK): $(FSCRYPT_CHECK_DIR)/fscrypt-check.c
	$(FSCRYPT_CHECK_CC) $(FSCRYPT_CHECK_CFLAGS) -o $@ $<
