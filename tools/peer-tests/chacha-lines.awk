# SPDX-License-Identifier: GPL-2.0
#
# chacha-lines.awk: cut one of cryptsetup's test scripts (mode-test,
# luks2-integrity-test) down to its ChaCha lines, for make check's
# peer-test run (mkinitramfs.sh ... chacha).  Both scripts define their
# functions, check their prerequisites, call add_device on a line of its
# own, then one line per mode (or a loop of them) and cleanup.  Everything
# up to that add_device is kept as it is; after it, only the lines naming
# chacha (mode-test's two Adiantum lines, luks2-integrity-test's four
# chacha20/poly1305 ones), PASSWORD= settings and the final cleanup.
# With -v dropped=1 it prints instead the test lines it leaves out (calls
# and loop headers), for run.sh to list as not run.
BEGIN { body = 0 }
!body {
	if (!dropped)
		print
	if ($0 == "add_device")
		body = 1
	next
}
/chacha/ || /^PASSWORD=/ || $0 == "cleanup" {
	if (!dropped)
		print
	next
}
# (an intformat line without its expected hash)
dropped && /^[ \t]*(dmcrypt|intformat|for) / {
	sub(/^[ \t]*/, "")
	if ($1 == "intformat")
		$0 = $1 " " $2 " " $3 " " $5 " " $6 " " $7
	print
}
