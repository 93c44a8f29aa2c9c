"""First-player advantage in a self-play study, tested cell by cell and replicated.

    python3 tools/first_player_tests.py STUDY... [--from-key distance=4] [--pool PREFIX LOW HIGH]

For each study folder, each cell and each match whose label starts with `mcts` (the search
players whose first-player score is in question), the exact two-sided sign test of "the
first player wins as often as the second" on the decisive games (draws left out), then the
Holm-Bonferroni adjustment over all those tests of the study (the same procedure as
`arena`'s tests.csv: sort ascending, multiply the i-th smallest by m - i + 1, running
maximum, cap at 1). Prints one Markdown table a study. `--pool PREFIX LOW HIGH` adds one
sign test on the games of the matches whose label starts with PREFIX in the cells whose
value lies in [LOW, HIGH], pooled (one hypothesis, fixed before the run it is tested on).
Reads each cell's summary.csv only (first_score, draws, games); needs nothing outside
Python's standard library.
"""

import csv
import math
import os
import sys


def sign_test(wins: int, losses: int) -> float:
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    adjusted, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def cell_number(folder: str) -> float:
    value = folder.split("=", 1)[-1]
    try:
        return float(value)
    except ValueError:
        return math.inf


def tests(study: str, from_value: float):
    rows = []
    cells = os.path.join(study, "cells")
    for folder in sorted(os.listdir(cells), key=cell_number):
        if cell_number(folder) < from_value:
            continue
        with open(os.path.join(cells, folder, "summary.csv"), newline="") as f:
            for r in csv.DictReader(f):
                if not r["label_a"].startswith("mcts"):
                    continue
                games, draws = int(r["games"]), int(r["draws"])
                wins = round(float(r["first_score"]) * games - draws / 2)
                losses = games - draws - wins
                rows.append((folder, r["label_a"], wins, draws, losses, sign_test(wins, losses)))
    adjusted = holm([r[-1] for r in rows])
    return [r + (a,) for r, a in zip(rows, adjusted)]


def main() -> None:
    argv = sys.argv[1:]
    from_value, pool = -math.inf, None
    if "--from-key" in argv:
        i = argv.index("--from-key")
        from_value = float(argv[i + 1].split("=", 1)[1])
        del argv[i : i + 2]
    if "--pool" in argv:
        i = argv.index("--pool")
        pool = (argv[i + 1], float(argv[i + 2]), float(argv[i + 3]))
        del argv[i : i + 4]
    for study in argv:
        if pool:
            prefix, low, high = pool
            chosen = [
                r for r in tests(study, -math.inf)
                if r[1].startswith(prefix) and low <= cell_number(r[0]) <= high
            ]
            w, d, l = (sum(r[k] for r in chosen) for k in (2, 3, 4))
            print(f"\n{study}: pooled `{prefix}*` over {len(chosen)} cells in [{low:g}, {high:g}]:"
                  f" first player {w}-{d}-{l}, sign test p = {sign_test(w, l):.2g}")
        found = tests(study, from_value)
        print(f"\n### {study}: {len(found)} tests\n")
        print("| cell | player | first player W-D-L | p | Holm p |")
        print("|---|---|---|---|---|")
        for folder, label, w, d, l, p, a in found:
            mark = " **significant**" if a <= 0.05 else ""
            print(f"| {folder} | `{label}` | {w}-{d}-{l} | {p:.4f} | {a:.4f}{mark} |")


if __name__ == "__main__":
    main()
