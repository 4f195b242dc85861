# SPDX-License-Identifier: GPL-2.0
#
# Build one of the static checkers that run inside the guests, from its
# one C file: tools/vm's afalg-check and fscrypt-check, tools/ipsec's
# ktls-check, ymm-check and ping-sweep.
#   make -f tools/static-tool.mk SRC=DIR/NAME.c OUT=PATH [TOOL_CC=cc]
# tools/lib.sh's stage_tool runs it, one build at a time.

ifeq ($(and $(SRC),$(OUT)),)
$(error usage: make -f tools/static-tool.mk SRC=FILE.c OUT=PATH [TOOL_CC=cc])
endif

TOOL_CC ?= gcc
TOOL_CFLAGS := -O2 -static -Wall -Wextra -Werror

$(OUT): $(SRC)
	$(TOOL_CC) $(TOOL_CFLAGS) -o $@ $<
