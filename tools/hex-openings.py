#!/usr/bin/env python3
"""The value of every opening cell of Hex on small boards, by `arena solve`: writes
results/known-answers/hex-openings.csv (size, cell, the first player's value after opening
there: + wins, - loses, unknown) and hex-openings.svg (each board drawn as the rhombus it is,
a cell coloured by the value of opening there). Without the swap, an opening the first player
wins with is one the second would swap in `swap=on` games.

    python3 tools/hex-openings.py [--arena target/release/arena] [--sizes 3 4] [--time 600]
"""

import argparse
import csv
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DIR = os.path.join(ROOT, "results/known-answers")


def value_after(arena, size, cell, seconds):
    cmd = [arena, "solve", "--game", f"hex:size={size}", "--moves", cell, "--sign-only",
           "--time", str(seconds), "--memory", "1024"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    r = dict(f.split("=", 1) for f in out.stdout.split())
    # The second player is to move: its loss is the first player's win.
    return {"win": "-", "loss": "+", "draw": "=", "unknown": "unknown"}[r["value"]], r


def draw(rows):
    sizes = sorted({int(r["size"]) for r in rows})
    side, gap, head = 26, 40, 50
    width, offsets, x = 20, {}, 20
    for n in sizes:
        offsets[n] = x
        x += side * math.sqrt(3) * (n + (n - 1) / 2) + gap
    width = int(x)
    height = int(head + side * 1.5 * max(sizes) + 70)
    colour = {"+": "#2e7d32", "-": "#c62828", "=": "#9e9e9e", "unknown": "#ffffff"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="10" y="18" font-size="14">Hex: the first player\'s value after opening '
           'on each cell (solved exactly)</text>']
    w = side * math.sqrt(3)
    for n in sizes:
        x0 = offsets[n]
        out.append(f'<text x="{x0}" y="{head - 10}" font-weight="bold">{n} × {n}</text>')
        for r in rows:
            if int(r["size"]) != n:
                continue
            col = ord(r["cell"][0]) - ord("a")
            row = int(r["cell"][1:]) - 1
            cx = x0 + w / 2 + col * w + row * w / 2
            cy = head + side + row * side * 1.5
            pts = " ".join(f"{cx + side * math.cos(math.radians(60 * k - 30)):.1f},"
                           f"{cy + side * math.sin(math.radians(60 * k - 30)):.1f}"
                           for k in range(6))
            out.append(f'<polygon points="{pts}" fill="{colour[r["value"]]}" stroke="#333"/>')
            out.append(f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" fill="white">'
                       f'{r["cell"]}</text>')
    ly = height - 22
    for i, (k, label) in enumerate([("+", "first player wins"), ("-", "first player loses"),
                                    ("unknown", "not solved")]):
        lx = 20 + i * 170
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="14" height="14" fill="{colour[k]}" '
                   f'stroke="#333"/><text x="{lx + 20}" y="{ly + 2}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target/release/arena"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--time", type=float, default=600)
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        for row in range(n):
            for col in range(n):
                cell = f"{chr(ord('a') + col)}{row + 1}"
                value, r = value_after(args.arena, n, cell, args.time)
                rows.append({"size": n, "cell": cell, "value": value, "nodes": r["nodes"],
                             "seconds": f"{float(r['time_ms']) / 1000:.2f}"})
                print(rows[-1], flush=True)
    path = os.path.join(DIR, "hex-openings.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    with open(os.path.join(DIR, "hex-openings.svg"), "w") as f:
        f.write(draw(rows))


if __name__ == "__main__":
    main()
