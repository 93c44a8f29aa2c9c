#!/usr/bin/env python3
"""Two threads against one, for Castro and for Ringside, in the same fresh positions.

    python3 tools/castro_scaling.py ARENA CASTRO --games FILE.csv --agent SPEC \
        [--castro-params "-e 0 ..."] [--size 8] [--plies 10,20,30,40] [--positions 5] \
        [--time-ms 250]

Positions come from the `moves` column of a Havannah games CSV (as `paired_think.py` cuts
them). In each, each engine thinks once with one thread and once with two, on a fresh tree,
for `--time-ms`: Castro over GTP (White first, cells transposed as `value_drift.py` sends
them; `time -m`, `player_params PARAMS -t N`, `verbose 1`, its last "Finished N runs" line),
Ringside through `arena think` (SPEC, then SPEC with `threads=2,parallel=tree,batch=8`).
Prints each engine's median iterations a decision at one and two threads, and the medians of
the per-position ratios (two threads over one; Ringside over Castro at each count), each with
`paired_think.py`'s seeded 95% bootstrap interval. Run it on an otherwise idle machine. A
command either engine refuses is one line on stderr and exit 2.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_think import Refused, median_ratio, positions, think  # noqa: E402
from value_drift import castro_cell  # noqa: E402

# Castro's best on size 8 (`user-d0-know`, results/castro-best/), less its thread count.
BEST8 = "-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 25 -c 20 -y 0 -l 0 -S 0 -D 0 -R -0.7 -G 3 -w 0"

# What Ringside's SPEC gains for two threads: issue 46's two-thread player.
TWO_THREADS = ",threads=2,parallel=tree,batch=8"


def castro_commands(size, moves, params, threads, seconds):
    """The GTP commands of one Castro decision after `moves` (Ringside's cells)."""
    colours = ["white", "black"]
    lines = [f"boardsize {size}", "verbose 1", f"time -m {seconds} -g 0 -f 0",
             f"player_params {params} -t {threads}"]
    lines += [f"play {colours[i % 2]} {castro_cell(mv)}" for i, mv in enumerate(moves)]
    return lines + [f"genmove {colours[len(moves) % 2]}", "quit"]


def castro_runs(castro, commands):
    """Castro's count of runs (descents) in the decision `commands` end with."""
    try:
        done = subprocess.run([castro], input="\n".join(commands) + "\n", capture_output=True,
                              text=True)
    except OSError as e:
        raise Refused(f"cannot run {castro}: {e.strerror}")
    refused = [line for line in done.stdout.splitlines() if line.startswith("?")]
    if refused:
        raise Refused(f"Castro refused a command: {refused[0]}")
    found = re.findall(r"Finished (\d+) runs", done.stdout + done.stderr)
    if not found:
        raise Refused("no 'Finished N runs' in Castro's output (verbose 1)")
    return int(found[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("arena")
    p.add_argument("castro")
    p.add_argument("--games", required=True)
    p.add_argument("--agent", required=True, help="Ringside's one-thread spec, with time_ms=")
    p.add_argument("--castro-params", default=BEST8)
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--plies", default="10,20,30,40")
    p.add_argument("--positions", type=int, default=5, help="games to take positions from")
    p.add_argument("--time-ms", type=int, default=250)
    a = p.parse_args(argv)
    game = f"havannah:size={a.size}"
    rows = []
    try:
        plies = [int(x) for x in a.plies.split(",")]
        spots = positions(a.games, plies, a.positions)
        if not spots:
            raise Refused(f"no game in {a.games} is longer than {max(plies)} plies")
        for i, moves in enumerate(spots):
            castro = [
                castro_runs(a.castro, castro_commands(a.size, moves.split(), a.castro_params,
                                                      t, a.time_ms / 1000))
                for t in (1, 2)
            ]
            ringside = [think(a.arena, game, spec, moves, 1 + i)
                        for spec in (a.agent, a.agent + TWO_THREADS)]
            rows.append(castro + ringside)
    except (Refused, OSError, ValueError, KeyError) as e:
        print(f"castro_scaling: {e}", file=sys.stderr)
        return 2
    print(f"positions {len(rows)}, {a.time_ms} ms a decision, fresh trees")
    for name, k in (("castro", 0), ("ringside", 2)):
        mid, low, high = median_ratio([r[k + 1] / r[k] for r in rows])
        print(f"{name}: median iterations a decision {statistics.median(r[k] for r in rows):.0f} "
              f"(one thread), {statistics.median(r[k + 1] for r in rows):.0f} (two); "
              f"two over one {mid:.3f} [{low:.3f}, {high:.3f}]")
    for threads in (1, 2):
        mid, low, high = median_ratio([r[threads + 1] / r[threads - 1] for r in rows])
        print(f"ringside over castro, {threads} thread{'s' * (threads > 1)}: "
              f"{mid:.3f} [{low:.3f}, {high:.3f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
