#!/usr/bin/env python3
"""The calibration figure: for each board of known value, the first colour's score at each
family's top rung (first run) with its confidence-sequence interval, the known answer beside
it, and the instrument's verdict. Reads results/reports/known-answers.csv and each board's
cells.csv; writes results/reports/known-answers.svg.

Usage: tools/balance-calibration-figure.py
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from importlib import import_module  # noqa: E402

calib = import_module("balance-calibration")

ROOT = "results/reports/balance"
rows = list(csv.DictReader(open("results/reports/known-answers.csv")))
ROW_H, LEFT, PANEL_W, GAP, TOP = 22, 330, 300, 40, 70
FAMILIES = [("mcts", "MCTS, top rung"), ("alphabeta", "alpha-beta, top rung")]
WIDTH = LEFT + len(FAMILIES) * (PANEL_W + GAP) + 170
HEIGHT = TOP + ROW_H * len(rows) + 60
COLOUR = {"+": "#1f77b4", "-": "#d62728", "=": "#555555"}
KNOWN_WORD = {"+": "first wins", "-": "second wins", "=": "draw"}


def x_of(panel, score):
    return LEFT + panel * (PANEL_W + GAP) + score * PANEL_W


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
       f'font-family="sans-serif" font-size="12">',
       f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
       f'<text x="10" y="22" font-size="15" font-weight="bold">The balance instrument on boards '
       f'whose answer is known</text>',
       f'<text x="10" y="40" fill="#444">First colour\'s score at each family\'s top rung, '
       f'with the interval its sequential test stopped at; colour: the known answer</text>']
for p, (_, title) in enumerate(FAMILIES):
    x0 = x_of(p, 0)
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 12}" text-anchor="middle" '
               f'font-weight="bold">{title}</text>')
    for t in (0, 0.25, 0.5, 0.75, 1):
        x = x_of(p, t)
        colour, w = ("#222", 1.2) if t == 0.5 else ("#ddd", 1)
        out.append(f'<line x1="{x}" y1="{TOP}" x2="{x}" y2="{TOP + ROW_H * len(rows)}" '
                   f'stroke="{colour}" stroke-width="{w}"/>')
        out.append(f'<text x="{x}" y="{TOP + ROW_H * len(rows) + 16}" text-anchor="middle" '
                   f'fill="#444">{t:g}</text>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP + ROW_H * len(rows) + 34}" '
               f'text-anchor="middle" fill="#444">first colour\'s score (½: even)</text>')
out.append(f'<text x="{WIDTH - 160}" y="{TOP - 12}" font-weight="bold">verdict</text>')
for i, r in enumerate(rows):
    y = TOP + ROW_H * i + ROW_H / 2
    known = r["known"]
    out.append(f'<text x="10" y="{y + 4}">{r["board"]}</text>')
    out.append(f'<text x="{LEFT - 10}" y="{y + 4}" text-anchor="end" '
               f'fill="{COLOUR[known]}">{KNOWN_WORD[known]}</text>')
    path = os.path.join(ROOT, calib.folder(r["board"]), "cells.csv")
    if os.path.exists(path):
        cells = list(csv.DictReader(open(path)))
        for p, (fam, _) in enumerate(FAMILIES):
            first = [c for c in cells if c["family"] == fam and c["run"] == "first"]
            if not first:
                continue
            c = first[-1]
            lo, hi, s = float(c["low"]), float(c["high"]), float(c["score"])
            out.append(f'<line x1="{x_of(p, lo)}" y1="{y}" x2="{x_of(p, hi)}" y2="{y}" '
                       f'stroke="{COLOUR[known]}" stroke-width="2"/>')
            out.append(f'<circle cx="{x_of(p, s)}" cy="{y}" r="4" fill="{COLOUR[known]}"/>')
    v = r["verdict"]
    mark = {"yes": "✓", "NO": "✗ contradicts"}.get(r["agrees"], "")
    out.append(f'<text x="{WIDTH - 160}" y="{y + 4}">{v} {mark}</text>')
out.append("</svg>")
open("results/reports/known-answers.svg", "w").write("\n".join(out) + "\n")
