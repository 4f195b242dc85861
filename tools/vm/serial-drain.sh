#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# serial-drain.sh, in the guests of tools/vm and tools/kunit: wait until
# the serial ports' transmit counts stand still, so that a power-off or
# reboot does not drop what the UART still holds (Bochs' emulated UART is
# slow).
a=$(cat /proc/tty/driver/* 2>/dev/null)
b=
while [ "$a" != "$b" ]; do
	b=$a
	sleep 1
	a=$(cat /proc/tty/driver/* 2>/dev/null)
done
