#!/usr/bin/env python3
"""Runs the balance instrument (`arena balance`) on every board of known value, cheapest first,
into results/reports/balance/<board>/, then writes results/reports/known-answers.csv.

Usage: tools/balance-calibration.py [--arena PATH] [--only-table] [--cell-seconds S] [--games N]

Each board's run resumes what its folder holds, so the script can be stopped and run again;
the boards run in the order listed (the small ones, then those the calibration most needs).
The seed is fixed (2026) before any game of the calibration was played; the held-out check
of the rules runs with --seed 2027 --root results/reports/balance-check
--table results/reports/known-answers-check.csv.
"""
import argparse
import csv
import os
import subprocess
import sys

SEED = 2026
# board spec, known value (+ first player wins, - second, = draw), source
BOARDS = [
    ("tic_tac_toe", "=", "folklore"),
    ("mnk:m=4,n=3,k=3", "+", "m,n,k-games: (m,n,3) is a first-player win for m >= 4, n >= 3"),
    ("mnk:m=4,n=4,k=3", "+", "same"),
    ("mnk:m=5,n=4,k=3", "+", "same"),
    ("mnk:m=5,n=5,k=3", "+", "same"),
    ("mnk:m=4,n=4,k=4", "=", "m,n,k-games; solved here"),
    ("mnk:m=5,n=4,k=4", "=", "m,n,k-games; solved here (7.9 s)"),
    ("mnk:m=6,n=4,k=4", "=", "m,n,k-games (published); not solved here in 6 minutes"),
    ("hex:size=3", "+", "strategy stealing; solved here"),
    ("hex:size=3,swap=on", "-", "strategy stealing with the swap; solved here"),
    ("hex:size=4", "+", "strategy stealing; solved here"),
    ("hex:size=4,swap=on", "-", "solved here"),
    ("connect_four:rows=4,columns=4", "=", "Tromp; solved here"),
    ("connect_four:rows=4,columns=5", "=", "Tromp; solved here"),
    ("connect_four:rows=5,columns=4", "=", "Tromp; solved here"),
    ("connect_four:rows=5,columns=5", "=", "Tromp; solved here"),
    ("connect_four:rows=6,columns=4", "=", "Tromp; solved here"),
    ("connect_four:rows=4,columns=6", "-", "Tromp; solved here"),
    ("connect_four", "+", "Allis 1988, Allen 1988; solved here"),
    ("hex:size=5", "+", "strategy stealing; solved here (df-pn)"),
    ("hex:size=5,swap=on", "-", "strategy stealing with the swap"),
    ("mnk:m=6,n=5,k=4", "+", "m,n,k-games (published)"),
    ("mnk:m=5,n=5,k=4", "=", "m,n,k-games (published)"),
    ("connect_four:rows=6,columns=6", "-", "Tromp; solved here"),
    ("hex:size=6", "+", "strategy stealing; solved by Hayward et al."),
    ("hex:size=6,swap=on", "-", "strategy stealing with the swap"),
    ("connect_four:rows=7,columns=4", "=", "Tromp; solved here"),
    ("connect_four:rows=8,columns=4", "=", "Tromp; solved here"),
    ("connect_four:rows=4,columns=7", "=", "Tromp; solved here"),
    ("connect_four:rows=6,columns=5", "=", "Tromp; solved here"),
    ("connect_four:rows=5,columns=6", "=", "Tromp; solved here"),
    ("connect_four:rows=4,columns=8", "-", "Tromp; solved here"),
    ("connect_four:rows=7,columns=5", "=", "Tromp; solved here"),
    ("connect_four:rows=5,columns=7", "=", "Tromp; solved here"),
]

# The top rungs whose moves are judged against the solver.
TOPS = [("mcts", "mcts:iters=64000"),
        ("alphabeta", "alphabeta:depth=6,nodes=50000,eval=rich,near=0.05")]
# Boards whose positions the solver answers fast enough to judge every move.
ERROR_BOARDS = ["tic_tac_toe", "mnk:m=4,n=4,k=4", "hex:size=3,swap=on", "hex:size=4",
                "hex:size=4,swap=on", "connect_four:rows=4,columns=4",
                "connect_four:rows=4,columns=5", "connect_four:rows=5,columns=4",
                "connect_four:rows=5,columns=5", "connect_four:rows=4,columns=6",
                "connect_four:rows=6,columns=4"]


def folder(spec):
    return spec.replace(":", "_").replace(",", "_").replace("=", "-")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arena", default="target/release/arena")
    ap.add_argument("--only-table", action="store_true")
    ap.add_argument("--read-only", action="store_true",
                    help="play nothing: recompute each board's results from its games")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--root", default="results/reports/balance")
    ap.add_argument("--table", default="results/reports/known-answers.csv")
    ap.add_argument("--cell-seconds", default="120")
    ap.add_argument("--games", default="600")
    ap.add_argument("--errors", action="store_true",
                    help="measure the top rungs' error rates against perfect play (arena errors, "
                         "20 games each, positions solved within 2 s) on the boards listed in "
                         "ERROR_BOARDS, into each board's errors-FAMILY.txt")
    a = ap.parse_args()
    root = a.root
    os.makedirs(root, exist_ok=True)
    if not a.only_table:
        for spec, _, _ in BOARDS:
            out = os.path.join(root, folder(spec))
            cmd = [a.arena, "balance", "--game", spec, "--out", out, "--games", a.games,
                   "--seed", str(a.seed), "--cell-seconds", a.cell_seconds, "--threads", "2"]
            if a.read_only:
                cmd.append("--read-only")
            print(" ".join(cmd), file=sys.stderr, flush=True)
            subprocess.run(cmd, check=True)
    if a.errors:
        for spec in ERROR_BOARDS:
            out = os.path.join(root, folder(spec))
            for fam, agent in TOPS:
                path = os.path.join(out, f"errors-{fam}.txt")
                if os.path.exists(path):
                    continue
                cmd = [a.arena, "errors", "--game", spec, "--agent", agent, "--games", "20",
                       "--seed", str(SEED), "--solve-time", "2"]
                print(" ".join(cmd), file=sys.stderr, flush=True)
                line = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
                open(path + ".tmp", "w").write(line)
                os.replace(path + ".tmp", path)
    rows = []
    for spec, known, source in BOARDS:
        path = os.path.join(root, folder(spec), "verdict.txt")
        if not os.path.exists(path):
            rows.append([spec, known, "not run", "", "", "", "", "", "", "", source])
            continue
        lines = open(path).read().splitlines()
        head = dict(kv.split("=", 1) for kv in lines[0].split())
        cells = list(csv.DictReader(open(os.path.join(root, folder(spec), "cells.csv"))))
        games = sum(int(c["counted"]) for c in cells)
        played = sum(int(c["played"]) for c in cells)
        verdict = head["verdict"]
        agrees = "" if verdict == "undecided" else ("yes" if verdict == known else "NO")
        tops = []
        for fam in ("mcts", "alphabeta"):
            first = [c for c in cells if c["family"] == fam and c["run"] == "first"]
            if first:
                t = first[-1]
                tops.append(f"{fam} {t['wins']}-{t['draws']}-{t['losses']} {t['shown']}")
        rates = []
        for fam, _ in TOPS:
            path = os.path.join(root, folder(spec), f"errors-{fam}.txt")
            if os.path.exists(path):
                kv = {}
                for x in open(path).read().split():
                    if "=" in x:
                        k, v = x.split("=", 1)
                        kv.setdefault(k, v)  # the first low/high are the rate's
                rates.append(f"{kv['rate']} [{kv['low']}, {kv['high']}]: {kv['errors']} errors "
                             f"in {kv['solved']} solved moves")
            else:
                rates.append("")
        rows.append([spec, known, verdict, agrees, games, played, "; ".join(tops), *rates,
                     lines[1], source])
    with open(a.table, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["board", "known", "verdict", "agrees", "games", "played", "top_rungs",
                    "mcts_error_rate", "alphabeta_error_rate", "reading", "source"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
