#!/usr/bin/env python3
"""Error rates against perfect play: runs `arena errors` for each (game, player) of the grid
below and writes results/known-answers/error-rates.csv, one row each: the decisions judged,
those solved within the budget, the errors (a won position thrown to a draw or a loss, a
drawn one to a loss), the rate with its Wilson 95% interval, and the errors by kind. A row
already in the file is kept (delete it to run it again); the file is rewritten after each
row (write-then-rename).

    python3 tools/error-rates.py [--arena target/release/arena] [--only SUBSTRING]

Each player plays itself from the empty board (alpha-beta, deterministic, after 2 random
plies so that its games differ; the plies are not judged), seed 99, and every decision of
both sides is judged.
"""

import argparse
import csv
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# game, games, opening plies for deterministic players, solve budget (arena errors flags)
GAMES = {
    "tic_tac_toe": (100, ["--memory", "64"]),
    "connect_four": (12, ["--solve-time", "2", "--memory", "1024"]),
    "hex:size=4": (40, ["--solve-time", "2", "--memory", "512"]),
}
PLAYERS = [
    "random",
    "mcts:iters=100",
    "mcts:iters=1000",
    "mcts:iters=10000",
    "mcts:preset=strong,iters=100",
    "mcts:preset=strong,iters=1000",
    "mcts:preset=strong,iters=10000",
    "alphabeta:depth=1,eval=rich",
    "alphabeta:depth=3,eval=rich",
    "alphabeta:depth=5,eval=rich",
    "alphabeta:depth=7,eval=rich",
    "alphabeta:depth=9,eval=rich",
]
FIELDS = ["game", "agent", "games", "opening_plies", "decisions", "solved", "unsolved", "errors",
          "rate", "low", "high", "rate_where_possible", "low_where_possible",
          "high_where_possible", "win_to_draw", "win_to_loss", "draw_to_loss", "in_won",
          "in_drawn", "in_lost", "seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target/release/arena"))
    parser.add_argument("--only", default="", help="run only rows whose game+agent holds this")
    parser.add_argument("--out", default=os.path.join(ROOT, "results/known-answers/error-rates.csv"))
    args = parser.parse_args()
    done = {}
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {(r["game"], r["agent"]): r for r in csv.DictReader(f)}
    grid = [(game, agent) for game in GAMES for agent in PLAYERS]
    for game, agent in grid:
        games, budget = GAMES[game]
        key = (game, agent)
        if key in done or args.only not in f"{game} {agent}":
            continue
        opening = "2" if agent.startswith("alphabeta") else "0"
        cmd = [args.arena, "errors", "--game", game, "--agent", agent, "--games", str(games),
               "--opening-plies", opening, "--seed", "99"] + budget
        t = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
        r = {"game": game, "agent": agent, "games": games, "opening_plies": opening,
             "seconds": f"{time.time() - t:.1f}"}
        # The line's second low= and high= belong to rate_where_possible.
        seen = set()
        for field in out.stdout.split():
            k, v = field.split("=", 1)
            if k in seen:
                k = f"{k}_where_possible"
            seen.add(k)
            r[k] = v
        print(",".join(str(r[k]) for k in FIELDS), flush=True)
        done[key] = r
        # Every row known so far, in the grid's order (rows of other runs kept).
        tmp = args.out + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(done[k] for k in grid if k in done)
        os.replace(tmp, args.out)

if __name__ == "__main__":
    main()
