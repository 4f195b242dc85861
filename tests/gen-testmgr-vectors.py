#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Transcribe the chacha20, xchacha20 and xchacha12 skcipher test vectors of
# the kernel's crypto/testmgr.h into tests/vectors-testmgr.h.  Run once by
# hand; the output is committed, so building the tests does not need a
# kernel tree:
#
#   tests/gen-testmgr-vectors.py /path/to/linux/crypto/testmgr.h \
#	> tests/vectors-testmgr.h
#
# Only the fields the harness uses are read (.key, .klen, .iv, .ptext,
# .ctext, .len); any other field in a vector is an error, so that a vector
# whose meaning differs (e.g. one split across scatterlists) is not quietly
# transcribed as a plain one.

import re
import sys

TEMPLATES = [
    # (testmgr array, C prefix, rounds, iv size)
    ("chacha20_tv_template", "tm_chacha20", 20, 16),
    ("xchacha20_tv_template", "tm_xchacha20", 20, 32),
    ("xchacha12_tv_template", "tm_xchacha12", 12, 32),
]
FIELDS = {"key", "klen", "iv", "ptext", "ctext", "len"}


def c_string_bytes(text):
    """Concatenate the C string literals in text and decode them."""
    out = bytearray()
    for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', text, re.S):
        i = 0
        while i < len(lit):
            c = lit[i]
            if c != "\\":
                out.append(ord(c))
                i += 1
                continue
            e = lit[i + 1]
            if e == "x":
                m = re.match(r"[0-9a-fA-F]+", lit[i + 2:])
                if not m or len(m.group(0)) != 2:
                    sys.exit("unexpected \\x escape in %r" % lit)
                out.append(int(m.group(0), 16))
                i += 4
            elif e in "01234567":
                m = re.match(r"[0-7]{1,3}", lit[i + 1:])
                out.append(int(m.group(0), 8))
                i += 1 + len(m.group(0))
            else:
                simple = {"n": 10, "t": 9, "r": 13, "0": 0,
                          "\\": 92, '"': 34, "'": 39}
                if e not in simple:
                    sys.exit("unexpected escape \\%s" % e)
                out.append(simple[e])
                i += 2
    return bytes(out)


def entries(src, name):
    """Yield (comment, {field: text}) for each vector of array name."""
    m = re.search(r"static const struct cipher_testvec %s\[\] = \{\n(.*?)\n\};"
                  % name, src, re.S)
    if not m:
        sys.exit("%s not found" % name)
    body = m.group(1)
    # Each vector starts at "{" (first) or "}, {" at one tab of indent.
    parts = re.split(r"^\t(?:\}, )?\{", body, flags=re.M)[1:]
    for part in parts:
        comment = ""
        cm = re.match(r"\s*/\*(.*?)\*/", part, re.S)
        if cm:
            comment = " ".join(cm.group(1).split())
            part = part[cm.end():]
        fields = {}
        for fm in re.finditer(r"^\t\t\.(\w+)\s*=\s*(.*?),\s*$(?=\n\t\t\.|\n\t\}|\Z)",
                              part, re.S | re.M):
            fields[fm.group(1)] = fm.group(2)
        extra = set(fields) - FIELDS
        if extra or set(fields) != FIELDS:
            sys.exit("%s: unexpected fields %s" % (name, sorted(fields)))
        yield comment, fields


def wrap_comment(text):
    """The vector's testmgr.h comment as a C comment, two tabs in."""
    lines, line = [], ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > 60:
            lines.append(line)
            line = w
        else:
            line = (line + " " + w) if line else w
    lines.append(line)
    if len(lines) == 1:
        return ["\t\t/* %s */" % lines[0]]
    return (["\t\t/*"] + ["\t\t * %s" % x for x in lines] + ["\t\t */"])


def c_bytes(name, data):
    lines = ["static const u8 %s[%d] = {" % (name, len(data))]
    for i in range(0, len(data), 8):
        chunk = data[i:i + 8]
        lines.append("\t" + ", ".join("0x%02x" % b for b in chunk) + ",")
    lines.append("};")
    return "\n".join(lines)


def main():
    src = open(sys.argv[1]).read()
    out = []
    out.append("/* SPDX-License-Identifier: GPL-2.0 */")
    out.append("/*")
    out.append(" * The chacha20, xchacha20 and xchacha12 skcipher test vectors of the")
    out.append(" * Linux 6.12 crypto/testmgr.h, transcribed by gen-testmgr-vectors.py.")
    out.append(" * IVs use the kernel layout: chacha20 iv = le32 counter || 96-bit")
    out.append(" * nonce; xchacha iv = 192-bit nonce || le64 counter.")
    out.append(" * Included by vectors.h only.")
    out.append(" */")
    out.append("")
    tables = []
    for name, prefix, rounds, ivsize in TEMPLATES:
        rows = []
        for idx, (comment, f) in enumerate(entries(src, name)):
            key = c_string_bytes(f["key"])
            iv = c_string_bytes(f["iv"])
            pt = c_string_bytes(f["ptext"])
            ct = c_string_bytes(f["ctext"])
            n = int(f["len"], 0)
            if int(f["klen"], 0) != 32 or len(key) != 32:
                sys.exit("%s[%d]: key is not 32 bytes" % (name, idx))
            if len(iv) != ivsize:
                sys.exit("%s[%d]: iv is %d bytes" % (name, idx, len(iv)))
            if len(pt) != n or len(ct) != n:
                sys.exit("%s[%d]: text lengths %d/%d != %d"
                         % (name, idx, len(pt), len(ct), n))
            if ivsize == 32 and iv[28:32] != bytes(4):
                # The reference takes a 32-bit XChaCha counter.
                sys.exit("%s[%d]: counter above 2^32" % (name, idx))
            base = "%s_%d" % (prefix, idx)
            for part, data in (("key", key), ("iv", iv), ("ptext", pt),
                               ("ctext", ct)):
                out.append(c_bytes("%s_%s" % (base, part), data))
                out.append("")
            source = "testmgr.h %s[%d]" % (name, idx)
            rows.append((source, comment, base, n))
        tables.append((prefix, rounds, ivsize, rows))

    for prefix, rounds, ivsize, rows in tables:
        out.append("static const struct chacha_tv %s_tv[] = {" % prefix)
        for source, comment, base, n in rows:
            out.append("\t{")
            if comment:
                out.extend(wrap_comment(comment))
            out.append("\t\t.source = \"%s\"," % source)
            out.append("\t\t.nrounds = %d," % rounds)
            out.append("\t\t.ivsize = %d," % ivsize)
            for part in ("key", "iv", "ptext", "ctext"):
                out.append("\t\t.%s = %s_%s," % (part, base, part))
            out.append("\t\t.len = %d," % n)
            out.append("\t},")
        out.append("};")
        out.append("")
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
