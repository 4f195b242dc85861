# SPDX-License-Identifier: GPL-2.0
#
# Build the static kTLS checker that runs inside the IPsec guests:
#   make -f tools/ipsec/ktls-check.mk [KTLS_CHECK=/path] [KTLS_CHECK_CC=cc]

KTLS_CHECK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
KTLS_CHECK ?= $(KTLS_CHECK_DIR)/ktls-check
KTLS_CHECK_CC ?= gcc
KTLS_CHECK_CFLAGS := -O2 -static -Wall -Wextra -Werror

$(KTLS_CHECK): $(KTLS_CHECK_DIR)/ktls-check.c
	$(KTLS_CHECK_CC) $(KTLS_CHECK_CFLAGS) -o $@ $<
