#!/usr/bin/env python3
"""Solves Connect Four 7 x 6 positions after 8 random plies with `arena solve` and writes
results/known-answers/eight-ply.csv (one row a position: moves, value for the mover, time,
positions searched), then prints the median time and the speed. Tromp notes that any
position after 8 plies solves in seconds with alpha-beta and a transposition table; the
target is a median of at most 10 s.

    python3 tools/c4-eight-ply.py [--arena target/release/arena] [--positions 100] [--seed 8]
        [--time 120] [--memory 1024] [--exact]

Positions are drawn with Python's random.Random(seed): 8 uniformly random legal columns,
redrawn when the game ends within them.
"""

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COLUMNS = "abcdefg"


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        heights = [0] * 7
        moves = []
        for _ in range(8):
            col = rng.choice([c for c in range(7) if heights[c] < 6])
            heights[col] += 1
            moves.append(COLUMNS[col])
        out.append(" ".join(moves))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target/release/arena"))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--time", type=float, default=120)
    parser.add_argument("--memory", type=int, default=1024)
    parser.add_argument("--exact", action="store_true", help="the distance and every best move too")
    parser.add_argument("--out", default=os.path.join(ROOT, "results/known-answers/eight-ply.csv"))
    args = parser.parse_args()
    rows = []
    # More positions than asked, so that games ended within 8 plies leave enough.
    for moves in positions(2 * args.positions, args.seed):
        if len(rows) == args.positions:
            break
        cmd = [args.arena, "solve", "--game", "connect_four", "--moves", moves,
               "--time", str(args.time), "--memory", str(args.memory)]
        if not args.exact:
            cmd.append("--sign-only")
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            # The game ended within the 8 plies: not a position to solve.
            if "over" in out.stderr:
                continue
            sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
        r = dict(f.split("=", 1) for f in out.stdout.split())
        rows.append({"moves": moves, "value": r["value"], "plies": r.get("plies", ""),
                     "seconds": f"{float(r['time_ms']) / 1000:.3f}", "nodes": r["nodes"]})
        print(rows[-1], flush=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, args.out)
    secs = [float(r["seconds"]) for r in rows]
    nodes = sum(int(r["nodes"]) for r in rows)
    unknown = sum(r["value"] == "unknown" for r in rows)
    print(f"positions={len(rows)} unknown={unknown} median_s={statistics.median(secs):.3f} "
          f"p90_s={sorted(secs)[int(0.9 * len(secs))]:.3f} max_s={max(secs):.3f} "
          f"nodes_per_s={nodes / sum(secs):.0f}")


if __name__ == "__main__":
    main()
