#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Transcribe the rfc7539 and rfc7539esp AEAD test vectors of the kernel's
# crypto/testmgr.h (RFC 8439 section 2.8.2 and Appendix A.5) into
# tests/vectors-testmgr-aead.h.  Run once by hand; the output is committed:
#
#   tests/gen-testmgr-aead-vectors.py /path/to/linux/crypto/testmgr.h \
#	> tests/vectors-testmgr-aead.h
#
# Only .key, .klen, .iv, .assoc, .alen, .ptext, .plen, .ctext and .clen
# are read; any other field is an error.

import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location(
    "gen_vectors", os.path.join(os.path.dirname(__file__),
                                "gen-testmgr-vectors.py"))
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

TEMPLATES = [
    # (testmgr array, C prefix, salt bytes at the key's end, iv size)
    ("rfc7539_tv_template", "tm_rfc7539", 0, 12),
    ("rfc7539esp_tv_template", "tm_rfc7539esp", 4, 8),
]
FIELDS = {"key", "klen", "iv", "assoc", "alen", "ptext", "plen", "ctext",
          "clen"}


def entries(src, name):
    m = re.search(r"static const struct aead_testvec %s\[\] = \{\n(.*?)\n\};"
                  % name, src, re.S)
    if not m:
        sys.exit("%s not found" % name)
    for part in re.split(r"^\t(?:\}, )?\{", m.group(1), flags=re.M)[1:]:
        fields = {}
        for fm in re.finditer(
                r"^\t\t\.(\w+)\s*=\s*(.*?),\s*$(?=\n\t\t\.|\n\t\}|\Z)",
                part, re.S | re.M):
            fields[fm.group(1)] = fm.group(2)
        if set(fields) != FIELDS:
            sys.exit("%s: unexpected fields %s" % (name, sorted(fields)))
        yield fields


def main():
    src = open(sys.argv[1]).read()
    out = ["/* SPDX-License-Identifier: GPL-2.0 */", "/*",
           " * The rfc7539 and rfc7539esp AEAD test vectors of the Linux 7.3",
           " * crypto/testmgr.h (RFC 8439 2.8.2 and A.5), transcribed by",
           " * gen-testmgr-aead-vectors.py.  rfc7539esp: the key ends in the",
           " * 4-byte salt, the IV is 8 bytes, and the AD ends in the IV, which",
           " * is not authenticated.  ctext is the ciphertext and the tag.",
           " * Included by tests/aead_test.c and tools/bench/bench.c.", " */",
           "", "#ifndef VECTORS_TESTMGR_AEAD_H",
           "#define VECTORS_TESTMGR_AEAD_H", "",
           "struct aead_tv {", "\tconst char *source;", "\tint esp;",
           "\tconst u8 *key, *iv, *assoc, *ptext, *ctext;",
           "\tunsigned int alen, plen;", "};", ""]
    rows = []
    for name, prefix, salt, ivsize in TEMPLATES:
        for idx, f in enumerate(entries(src, name)):
            v = {k: gen.c_string_bytes(f[k])
                 for k in ("key", "iv", "assoc", "ptext", "ctext")}
            if (len(v["key"]) != 32 + salt or int(f["klen"], 0) != 32 + salt
                    or len(v["iv"]) != ivsize
                    or len(v["assoc"]) != int(f["alen"], 0)
                    or len(v["ptext"]) != int(f["plen"], 0)
                    or len(v["ctext"]) != int(f["clen"], 0)
                    or len(v["ctext"]) != len(v["ptext"]) + 16):
                sys.exit("%s[%d]: inconsistent lengths" % (name, idx))
            base = "%s_%d" % (prefix, idx)
            for part in ("key", "iv", "assoc", "ptext", "ctext"):
                out.append(gen.c_bytes("%s_%s" % (base, part), v[part]))
                out.append("")
            rows.append((name, idx, base, salt, v))
    out.append("static const struct aead_tv tm_aead_tv[] = {")
    for name, idx, base, salt, v in rows:
        out.append("\t{")
        out.append("\t\t.source = \"testmgr.h %s[%d]\"," % (name, idx))
        out.append("\t\t.esp = %d," % (1 if salt else 0))
        for part in ("key", "iv", "assoc", "ptext", "ctext"):
            out.append("\t\t.%s = %s_%s," % (part, base, part))
        out.append("\t\t.alen = %d," % len(v["assoc"]))
        out.append("\t\t.plen = %d," % len(v["ptext"]))
        out.append("\t},")
    out.append("};")
    out.append("")
    out.append("#endif /* VECTORS_TESTMGR_AEAD_H */")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
