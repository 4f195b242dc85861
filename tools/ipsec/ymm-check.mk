# SPDX-License-Identifier: GPL-2.0
#
# Build the static vector register checker of run.sh --load (x86-64):
#   make -f tools/ipsec/ymm-check.mk [YMM_CHECK=/path] [YMM_CHECK_CC=cc]

YMM_CHECK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
YMM_CHECK ?= $(YMM_CHECK_DIR)/ymm-check
YMM_CHECK_CC ?= gcc
YMM_CHECK_CFLAGS := -O2 -static -Wall -Wextra -Werror

$(YMM_CHECK): $(YMM_CHECK_DIR)/ymm-check.c
	$(YMM_CHECK_CC) $(YMM_CHECK_CFLAGS) -o $@ $<
