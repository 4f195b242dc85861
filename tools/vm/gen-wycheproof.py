#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Transcribe Project Wycheproof's ChaCha20-Poly1305 vectors
# (testvectors/chacha20_poly1305_test.json) into the data file
# wycheproof-chacha20poly1305.txt for afalg-check's "wycheproof" command.  Run once by hand; the output is
# committed.  Debian ships the file in the source package
# android-platform-external-boringssl (bookworm-backports), under
# src/third_party/wycheproof_testvectors/:
#
#   src=$(tools/debfetch.sh source android-platform-external-boringssl)
#   tools/vm/gen-wycheproof.py \
#	"$src"/src/third_party/wycheproof_testvectors/chacha20_poly1305_test.json \
#	> tools/vm/wycheproof-chacha20poly1305.txt

import json
import sys


def main():
    j = json.load(open(sys.argv[1]))
    if j["algorithm"] != "CHACHA20-POLY1305":
        sys.exit("not the ChaCha20-Poly1305 vectors")
    out = ["# SPDX-License-Identifier: Apache-2.0",
           "# Project Wycheproof's ChaCha20-Poly1305 test vectors, %s (%d tests),"
           % (j["generatorVersion"], j["numberOfTests"]),
           "# as Debian's android-platform-external-boringssl ships them",
           "# (src/third_party/wycheproof_testvectors/chacha20_poly1305_test.json;",
           "# https://github.com/google/wycheproof, Apache License 2.0),",
           "# transcribed by tools/vm/gen-wycheproof.py.  Data read by",
           "# afalg-check at run time, not compiled into it.  One test a line:",
           "# tcId valid(1/0) key iv aad msg ct tag, in hex, '-' for empty."]
    n = 0
    for g in j["testGroups"]:
        if g["keySize"] != 256 or g["tagSize"] != 128:
            sys.exit("unexpected key or tag size")
        for t in g["tests"]:
            if t["result"] not in ("valid", "invalid"):
                sys.exit("tcId %d: result %s" % (t["tcId"], t["result"]))
            if len(t["iv"]) * 4 != g["ivSize"]:
                sys.exit("tcId %d: iv length" % t["tcId"])
            f = [t[k] or "-" for k in ("key", "iv", "aad", "msg", "ct", "tag")]
            out.append("%d %d %s" % (t["tcId"], t["result"] == "valid",
                                     " ".join(f)))
            n += 1
    if n != j["numberOfTests"]:
        sys.exit("%d tests, the file says %d" % (n, j["numberOfTests"]))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
