#!/usr/bin/env python3
"""Draws results/known-answers/error-rates.svg from error-rates.csv: one panel a game, one
row a player, the share of its moves that changed the exact value (dot) with its Wilson 95%
interval (bar), on a common axis from 0; the perfect player's 0 is the reference line.

    python3 tools/error-rates-figure.py
"""

import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DIR = os.path.join(ROOT, "results/known-answers")


def main():
    with open(os.path.join(DIR, "error-rates.csv")) as f:
        rows = list(csv.DictReader(f))
    games = list(dict.fromkeys(r["game"] for r in rows))
    agents = list(dict.fromkeys(r["agent"] for r in rows))
    top = max(float(r["high"]) for r in rows)
    xmax = min(1.0, (int(top * 10) + 1) / 10)
    label_w, panel_w, row_h, head = 250, 230, 20, 46
    width = label_w + len(games) * (panel_w + 40) + 10
    height = head + len(agents) * row_h + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="18" font-size="14">Share of moves that change the exact value '
           f'(won to drawn or lost, drawn to lost), Wilson 95%</text>']
    for i, a in enumerate(agents):
        y = head + i * row_h + row_h / 2
        out.append(f'<text x="{label_w - 8}" y="{y + 4}" text-anchor="end">{a}</text>')
    for g_i, g in enumerate(games):
        x0 = label_w + g_i * (panel_w + 40)
        sx = lambda v: x0 + v / xmax * panel_w
        out.append(f'<text x="{x0 + panel_w / 2}" y="{head - 10}" text-anchor="middle" '
                   f'font-weight="bold">{g}</text>')
        for t in range(0, int(round(xmax * 10)) + 1):
            v = t / 10
            out.append(f'<line x1="{sx(v)}" x2="{sx(v)}" y1="{head}" '
                       f'y2="{head + len(agents) * row_h}" stroke="#e5e5e5"/>')
            out.append(f'<text x="{sx(v)}" y="{head + len(agents) * row_h + 14}" '
                       f'text-anchor="middle" fill="#555">{v:g}</text>')
        out.append(f'<line x1="{sx(0)}" x2="{sx(0)}" y1="{head}" '
                   f'y2="{head + len(agents) * row_h}" stroke="#333" stroke-width="1.2"/>')
        for i, a in enumerate(agents):
            r = next((r for r in rows if r["game"] == g and r["agent"] == a), None)
            if r is None:
                continue
            y = head + i * row_h + row_h / 2
            lo, hi, p = float(r["low"]), float(r["high"]), float(r["rate"])
            out.append(f'<line x1="{sx(lo)}" x2="{sx(hi)}" y1="{y}" y2="{y}" '
                       f'stroke="#4a78b5" stroke-width="2"/>')
            out.append(f'<circle cx="{sx(p)}" cy="{y}" r="3.5" fill="#1d3f73"/>')
        out.append(f'<text x="{x0 + panel_w / 2}" y="{head + len(agents) * row_h + 30}" '
                   f'text-anchor="middle" fill="#555">error rate</text>')
    out.append("</svg>")
    with open(os.path.join(DIR, "error-rates.svg"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
