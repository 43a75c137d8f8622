#!/usr/bin/env bash
# Regenerates icon-192.png and icon-512.png (committed; the build only copies them): a chip with
# pins, in the page's colours. Needs ImageMagick's `convert`.
set -euo pipefail
cd "$(dirname "$0")"
for s in 192 512; do
    args=(-size "${s}x${s}" xc:'#141719' -fill '#2f7dd1')
    for i in 0 1 2 3; do  # pins above/below and left/right of the chip
        p=$((s * 5 / 16 + i * s / 8))
        args+=(-draw "rectangle $p,$((s * 3 / 16)) $((p + s / 16)),$((s * 13 / 16))")
        args+=(-draw "rectangle $((s * 3 / 16)),$p $((s * 13 / 16)),$((p + s / 16))")
    done
    args+=(-draw "roundrectangle $((s / 4)),$((s / 4)) $((s * 3 / 4)),$((s * 3 / 4)) $((s / 16)),$((s / 16))")
    args+=(-fill '#141719' -draw "rectangle $((s * 3 / 8)),$((s * 3 / 8)) $((s * 5 / 8)),$((s * 5 / 8))")
    convert "${args[@]}" -strip "PNG8:icon-$s.png"
done
