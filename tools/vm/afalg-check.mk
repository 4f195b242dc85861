# SPDX-License-Identifier: GPL-2.0
#
# Build the static AF_ALG checker that runs inside the test VMs:
#   make -f tools/vm/afalg-check.mk [AFALG_CHECK=/path/to/afalg-check]
# or include this file from another Makefile and depend on $(AFALG_CHECK).

AFALG_CHECK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
AFALG_CHECK ?= $(AFALG_CHECK_DIR)/afalg-check
AFALG_CHECK_CC ?= gcc
AFALG_CHECK_CFLAGS := -O2 -static -Wall -Wextra -Werror

$(AFALG_CHECK): $(AFALG_CHECK_DIR)/afalg-check.c
	$(AFALG_CHECK_CC) $(AFALG_CHECK_CFLAGS) -o $@ $<
