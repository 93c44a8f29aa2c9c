#!/usr/bin/env python3
"""The clocks table of issue 101: each time-budgeted agent's mean and longest move against its
budget, from short matches at 10 ms a move.

    python3 tools/clock-table.py --arena target/release/arena --out DIR [--games 20]

Plays each match of MATCHES with `arena match` into DIR/NAME.csv (a finished file is read,
not played again: `arena match` resumes it) and prints one Markdown row
an agent: game, agent, budget, moves, mean, longest, moves over budget, mean / budget, longest /
budget. A games file with the clock columns gives every figure; one written by an older arena
(without them, for a "before" table) gives the mean only, its moves counted from the plies of
games whose turns alternate. Run it on a quiet machine: the clock measures the machine too.
"""
import argparse
import csv
import subprocess
import sys
from pathlib import Path

NET = "results/nets/life/net.rsnet"
MATCHES = [
    # name, game, agents, extra flags
    ("life-net", "life", [f"alphabeta:depth=30,time_ms=10,eval=net,net={NET}",
                          "alphabeta:depth=30,time_ms=10,eval=tuned"],
     ["--opening-plies", "6", "--ply-cap", "1000"]),
    ("connect-four", "connect_four", ["mcts:time_ms=10", "alphabeta:depth=40,time_ms=10,eval=tuned"],
     ["--opening-plies", "2"]),
    ("havannah-8", "havannah:size=8", ["mcts:time_ms=10", "alphabeta:depth=20,time_ms=10,eval=tuned"],
     ["--opening-plies", "2"]),
]


def budget_ms(spec):
    for part in spec.partition(":")[2].split(","):
        if part.startswith("time_ms="):
            return float(part.split("=")[1])
    return None


def table(path):
    """Rows (agent spec, budget, moves, mean, longest or None, overruns or None)."""
    agents = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            opening, plies = int(r["opening_plies"]), int(r["plies"])
            for side in ("first", "second"):
                spec = r[f"{side}_spec"]
                a = agents.setdefault(spec, {"moves": 0, "ms": 0.0, "max": None, "over": None})
                if "first_moves" in r and r[f"{side}_moves"] != "":
                    moves = int(r[f"{side}_moves"])
                    a["max"] = max(a["max"] or 0.0, float(r[f"{side}_max_ms"]))
                    a["over"] = (a["over"] or 0) + int(r[f"{side}_overruns"])
                else:
                    # Alternating turns: the first colour moves at even plies.
                    parity = 0 if side == "first" else 1
                    moves = sum(1 for i in range(opening, plies) if i % 2 == parity)
                a["moves"] += moves
                a["ms"] += float(r[f"{side}_time_ms"])
    return [(spec, budget_ms(spec), a["moves"], a["ms"] / max(a["moves"], 1), a["max"], a["over"])
            for spec, a in agents.items()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arena", default="target/release/arena")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--games", default="20")
    ap.add_argument("--threads", default="2")
    ap.add_argument("--only", help="play only the match of this name")
    ap.add_argument("--castro", help="Castro's binary (tools/castro-build.sh): adds a match of "
                    "Castro through GTP against MCTS at 250 ms a move on Havannah 8, the clock "
                    "of an outside engine (its time sent by `setup=time -m 0.25`)")
    a = ap.parse_args()
    matches = list(MATCHES)
    if a.castro:
        castro = (f"gtp:cmd={a.castro},name=castro,coords=castro,time_ms=250,"
                  "setup=time -m 0.25 -g 0 -f 0")
        matches.append(("havannah-8-castro", "havannah:size=8", [castro, "mcts:time_ms=250"],
                        ["--opening-plies", "2"]))
    a.out.mkdir(parents=True, exist_ok=True)
    print("| game | agent | budget | moves | mean | longest | over budget | mean/budget | longest/budget |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, game, agents, extra in matches:
        if a.only and a.only != name:
            continue
        out = a.out / f"{name}.csv"
        cmd = [a.arena, "match", "--game", game, "--agents", *agents, "--games", a.games,
               "--seed", "101", "--threads", a.threads, "--out", str(out), "--quiet", *extra]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: {done.stderr.strip()}")
        for spec, budget, moves, mean, longest, over in table(out):
            if budget is None:
                continue
            short = spec.split(",tt_bits")[0].split(",w.")[0].split(",net_id")[0]
            short = short.split(",setup=")[0]
            cell = lambda x, f: "–" if x is None else f(x)
            print(f"| {game} | `{short}` | {budget:g} ms | {moves} | {mean:.2f} ms | "
                  f"{cell(longest, lambda x: f'{x:.2f} ms')} | {cell(over, str)} | "
                  f"{mean / budget:.2f} | {cell(longest, lambda x: f'{x / budget:.2f}')} |")


if __name__ == "__main__":
    main()
