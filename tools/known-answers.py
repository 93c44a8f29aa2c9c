#!/usr/bin/env python3
"""Solves every board of results/known-answers/boards.csv with `arena solve` and writes
results/known-answers/solved.csv: the known value beside the solved one, the time and the
positions searched. A board the solver cannot finish within its budget is listed with
`solved=unknown` and the positions it got through.

    python3 tools/known-answers.py [--arena target/release/arena] [--time SECONDS]
        [--memory MIB] [--only SUBSTRING] [--exclude SPEC ...]

Values are for the first player from the position after `moves` (`+` wins, `-` loses, `=`
draws). `arena solve` prints the value for the player to move; after an odd number of moves
(in these games the players alternate) that is the second player, and the sign is turned.
A board's `method` (empty: `auto`) is `arena solve --method`'s, and `sign_only=yes` asks
only win, draw or loss and one move that keeps it. The file is written to a
temporary name and renamed, so an interrupted run loses nothing
already committed.
"""

import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIGN = {"win": "+", "draw": "=", "loss": "-"}
FLIP = {"+": "-", "-": "+", "=": "="}


def solve(arena, board, moves, seconds, memory, sign_only, method):
    cmd = [arena, "solve", "--game", board, "--time", str(seconds), "--memory", str(memory),
           "--method", method or "auto"]
    if moves:
        cmd += ["--moves", moves]
    if sign_only:
        cmd.append("--sign-only")
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return dict(field.split("=", 1) for field in out.stdout.split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target/release/arena"))
    parser.add_argument("--time", type=float, default=600, help="seconds a board (default 600)")
    parser.add_argument("--memory", type=int, default=2048, help="MiB of table (default 2048)")
    parser.add_argument("--only", default="", help="solve only boards whose spec holds this")
    parser.add_argument("--exclude", action="append", default=[],
                        help="do not solve this exact spec (repeatable)")
    parser.add_argument("--out", default=os.path.join(ROOT, "results/known-answers/solved.csv"))
    args = parser.parse_args()
    with open(os.path.join(ROOT, "results/known-answers/boards.csv")) as f:
        boards = list(csv.DictReader(f))
    done = {}
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {(r["board"], r["moves"]): r for r in csv.DictReader(f)}
    fields = ["board", "moves", "known", "solved", "agrees", "plies", "best", "nodes",
              "seconds", "table_mib", "method", "source"]
    rows = []
    for b in boards:
        key = (b["board"], b["moves"])
        skip = args.only not in b["board"] or b["board"] in args.exclude
        if skip or (key in done and done[key]["solved"] != "unknown"):
            if key in done:
                rows.append(done[key])
            continue
        # `sign_only=yes`: win, draw or loss and one move that keeps it, not the distance and
        # every best move (the full 7 x 6 board, Hex 5: the rest would take far longer).
        sign_only = b.get("sign_only") == "yes"
        r = solve(args.arena, b["board"], b["moves"], args.time, args.memory, sign_only,
                  b.get("method", ""))
        value = r["value"]
        solved = "unknown" if value == "unknown" else SIGN[value]
        plies_played = len(b["moves"].split())
        if solved != "unknown" and plies_played % 2 == 1:
            solved = FLIP[solved]
        row = {
            "board": b["board"],
            "moves": b["moves"],
            "known": b["known"],
            "solved": solved,
            "agrees": "" if solved == "unknown" else ("yes" if solved == b["known"] else "NO"),
            "plies": r.get("plies", ""),
            "best": r.get("best", ""),
            "nodes": r["nodes"],
            "seconds": f"{float(r['time_ms']) / 1000:.2f}",
            "table_mib": r["table_mib"],
            "method": r["method"],
            "source": b["source"],
        }
        print(",".join(str(row[k]) for k in fields[:-1]), flush=True)
        rows.append(row)
        done[key] = row
        # Every row known so far, in the boards' order (rows of other runs kept).
        order = [(x["board"], x["moves"]) for x in boards]
        tmp = args.out + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(done[k] for k in order if k in done)
        os.replace(tmp, args.out)
    if any(r["agrees"] == "NO" for r in rows):
        sys.exit("a solved value contradicts a known one")


if __name__ == "__main__":
    main()
