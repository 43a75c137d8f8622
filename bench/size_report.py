#!/usr/bin/env python3
"""Print raw and gzip (-9) bytes of every file of the built page, largest first, and the total a
first visit downloads. Figures only, never a pass/fail.

    python3 bench/size_report.py build/wasm-release/web/dist [--json]
"""
import gzip
import json
import os
import sys


def main(argv):
    if len(argv) < 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1]
    rows = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            data = open(path, "rb").read()
            rows.append((os.path.relpath(path, root), len(data), len(gzip.compress(data, 9, mtime=0))))
    rows.sort(key=lambda r: -r[1])
    if "--json" in argv:
        print(json.dumps({r[0]: {"raw": r[1], "gzip": r[2]} for r in rows}, indent=1))
        return 0
    width = max([len(r[0]) for r in rows] + [5])
    print(f"{'file':<{width}}  {'raw bytes':>10}  {'gzip -9':>10}")
    for name, raw, gz in rows:
        print(f"{name:<{width}}  {raw:>10,}  {gz:>10,}")
    print(f"{'total':<{width}}  {sum(r[1] for r in rows):>10,}  {sum(r[2] for r in rows):>10,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
