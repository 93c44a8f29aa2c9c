#!/usr/bin/env python3
"""Prints the Markdown tables of results/known-answers/README.md from solved.csv,
error-rates.csv and eight-ply.csv, so that every figure there recomputes from the files.

    python3 tools/known-answers-tables.py
"""

import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(os.path.dirname(HERE), "results/known-answers")


def rows(name):
    path = os.path.join(DIR, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    print("| board | after | known | solved | agrees | plies | best moves | positions | seconds | method |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows("solved.csv"):
        print(f"| `{r['board']}` | {r['moves'] or '—'} | {r['known']} | {r['solved']} | "
              f"{r['agrees'] or '—'} | {r['plies'] or '—'} | {r['best'] or '—'} | "
              f"{int(r['nodes']):,} | {r['seconds']} | {r['method']} |")
    print()
    print("| game | player | games | decisions | solved | errors | rate [95%] | where possible [95%] | won→drawn | won→lost | drawn→lost |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows("error-rates.csv"):
        print(f"| `{r['game']}` | `{r['agent']}` | {r['games']} | {r['decisions']} | {r['solved']} | "
              f"{r['errors']} | {float(r['rate']):.3f} [{float(r['low']):.3f}, {float(r['high']):.3f}] | "
              f"{float(r['rate_where_possible']):.3f} [{float(r['low_where_possible']):.3f}, "
              f"{float(r['high_where_possible']):.3f}] | {r['win_to_draw']} | {r['win_to_loss']} | "
              f"{r['draw_to_loss']} |")
    eight = rows("eight-ply.csv")
    if eight:
        secs = sorted(float(r["seconds"]) for r in eight)
        nodes = sum(int(r["nodes"]) for r in eight)
        print()
        print(f"8-ply positions: {len(eight)}, unknown {sum(r['value'] == 'unknown' for r in eight)}, "
              f"median {statistics.median(secs):.2f} s, 90th percentile {secs[int(0.9 * len(secs))]:.2f} s, "
              f"max {secs[-1]:.2f} s, {nodes / sum(secs) / 1e6:.2f} M positions/s")


if __name__ == "__main__":
    main()
