#!/usr/bin/python3
"""The characters the UI can draw: every character in string literals of the given C++ sources
(with their \\uXXXX escapes) and in the catalog must be in the Latin font's ranges (web/fonts.txt,
the same as k_ui_glyph_ranges in shell/style.cpp) or in the CJK font. Writes the characters
outside the Latin ranges (the CJK subset's text file) and fails, naming each character and
where it is used, when one of them is in neither font (it would be drawn as '?').

  ui_glyphs.py --ranges web/fonts.txt --latin DejaVuSans.ttf --cjk DroidSansFallbackFull.ttf \
               --catalog assets/catalog.json --out cjk.txt shell/*.cpp shell/*.hpp
"""
import argparse
import json
import re
import sys

from fontTools.ttLib import TTFont


def read_ranges(path):
    ranges = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?\s*$", line.strip())
        if m:
            lo = int(m.group(1), 16)
            ranges.append((lo, int(m.group(2), 16) if m.group(2) else lo))
    return ranges


def string_literals(text):
    """The contents of the C++ string literals in `text` (comments and code skipped)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                out.append(text[i + 1:j])
            i = j + 1
        else:
            i += 1
    return out


def source_chars(path):
    chars = set()
    for lit in string_literals(open(path, encoding="utf-8").read()):
        chars |= set(re.sub(r"\\u[0-9A-Fa-f]{4}", "", lit))
        chars |= {chr(int(h, 16)) for h in re.findall(r"\\u([0-9A-Fa-f]{4})", lit)}
    return chars


def catalog_chars(path):
    chars = set()

    def walk(v):
        if isinstance(v, str):
            chars.update(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                chars.update(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.load(open(path, encoding="utf-8")))
    return chars


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranges", required=True)
    ap.add_argument("--latin", required=True)
    ap.add_argument("--cjk", required=True)
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--out")
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()

    ranges = read_ranges(a.ranges)
    latin = TTFont(a.latin).getBestCmap()
    cjk = TTFont(a.cjk).getBestCmap()
    in_ranges = lambda cp: any(lo <= cp <= hi for lo, hi in ranges)

    used = {}  # char -> first file using it
    for path in a.sources:
        for c in source_chars(path):
            used.setdefault(c, path)
    for c in catalog_chars(a.catalog):
        used.setdefault(c, a.catalog)

    problems, extra = [], set()
    for c, where in sorted(used.items()):
        cp = ord(c)
        if cp < 0x20 or c in "\u200b\ufeff":
            continue
        if in_ranges(cp):
            if cp not in latin and cp > 0x7E:
                problems.append(f"U+{cp:04X} {c!r} ({where}) is in {a.ranges} but not in {a.latin}")
        elif cp in cjk:
            extra.add(c)
        else:
            problems.append(f"U+{cp:04X} {c!r} ({where}) is in no UI font: add it to {a.ranges} "
                            "and k_ui_glyph_ranges (shell/style.cpp), or avoid it")
    for p in problems:
        print(f"ui_glyphs: {p}", file=sys.stderr)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write("".join(sorted(extra)) + "\n")
    print(f"ui_glyphs: {len(used)} characters used, {len(extra)} from the CJK font, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
