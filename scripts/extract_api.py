#!/usr/bin/env python3
"""Extracts the interface facts (enumerators and their values, macros, type
definitions and function signatures) from the pinned oneDNN C headers into
api/pinned_api.tsv.  Run once against a PyPI install of onednn-devel; the
result is committed and nothing is fetched at build time.

Usage: scripts/extract_api.py PREFIX/include/oneapi/dnnl > api/pinned_api.tsv

Row format (tab separated): header, kind, name, payload
  enum      name=enum type   payload: "<enumerator>=<integer value>[=<alias of>]",
            one row per enumerator, implicit values resolved
  define    name=macro       payload: replacement text
  typedef   name=type        payload: declaration text (one line)
  function  name=function    payload: "<return type>|<parameter list>"
"""
import re
import sys
import os

HEADERS = ["dnnl_common_types.h", "dnnl_types.h", "dnnl_common.h", "dnnl.h",
           "dnnl_debug.h", "dnnl_ocl_types.h", "dnnl_ocl.h",
           "dnnl_graph_types.h", "dnnl_graph.h"]
ENUM_VALUES = {}
SKIP_DEFINES = re.compile(r"^ONEAPI_DNNL_.*_H$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


def rows_for(header, text):
    text = strip_comments(text)
    # Preprocessor lines (with continuations) are handled apart from C code.
    code_lines = []
    lines = text.replace("\\\n", " ").split("\n")
    for line in lines:
        s = line.strip()
        if s.startswith("#"):
            m = re.match(r"#\s*define\s+(\w+(?:\([^)]*\))?)\s*(.*)", s)
            if m and not SKIP_DEFINES.match(m.group(1)):
                yield (header, "define", m.group(1), squash(m.group(2)))
            continue
        code_lines.append(line)
    code = "\n".join(code_lines)
    code = code.replace('extern "C" {', "")
    # Split into top-level statements on ';' outside braces.
    depth, cur = 0, []
    stmts = []
    for ch in code:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:  # closing brace of extern "C"
                depth = 0
                continue
        if ch == ";" and depth == 0:
            stmts.append(squash("".join(cur)))
            cur = []
        else:
            cur.append(ch)
    for st in stmts:
        if not st:
            continue
        m = re.match(r"typedef enum (\w+ )?\{(.*)\} (\w+)$", st)
        if m:
            body, name = m.group(2), m.group(3)
            nxt = 0
            for item in [squash(x) for x in body.split(",")]:
                if not item:
                    continue
                ident, _, expr = [t.strip() for t in item.partition("=")]
                alias = ""
                if expr:
                    if re.fullmatch(r"[A-Za-z_]\w*", expr):
                        alias = expr
                    val = eval(re.sub(r"\b(?<![0-9])[A-Za-z_]\w*",
                                      lambda t: str(ENUM_VALUES[t.group(0)]),
                                      re.sub(r"(\d)[uU]\b", r"\1", expr)))
                else:
                    val = nxt
                ENUM_VALUES[ident] = val
                nxt = val + 1
                yield (header, "enum", name,
                       ident + "=" + str(val) + ("=" + alias if alias else ""))
            continue
        m = re.match(r"(.*?)\s*\bDNNL_API\b\s*(\**)\s*(\w+)\s*\((.*)\)$", st)
        if m:
            ret = squash(m.group(1) + " " + m.group(2))
            yield (header, "function", m.group(3), ret + "|" + squash(m.group(4)))
            continue
        m = re.search(r"(\w+)$", st)
        yield (header, "typedef", m.group(1) if m else "", st)


def main():
    root = sys.argv[1]
    for h in HEADERS:
        with open(os.path.join(root, h)) as f:
            for row in rows_for(h, f.read()):
                print("\t".join(row))


if __name__ == "__main__":
    main()
