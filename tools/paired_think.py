#!/usr/bin/env python3
"""Paired speed of two arena binaries: the same agent thinking in the same positions.

    python3 tools/paired_think.py OLD_ARENA NEW_ARENA --agent SPEC --games FILE.csv \
        [--new-agent SPEC] [--game havannah] [--plies 10,20,30,40] [--positions 20] [--repeats 2]

Positions come from the `moves` column of a committed games CSV (the first `--positions`
games long enough, cut at each of `--plies`). In each position the two binaries think in
turn (old then new, then new then old on the next repeat, so neither always goes first) and
the `iterations=` of each decision is read from `arena think`'s last line. Prints the median
iterations a decision of each, the median of the per-position ratios new/old, and a 95%
bootstrap interval of that median ratio (seeded). Under a time budget (`time_ms=`) the ratio
is the speed-up; run it on an otherwise idle machine. With `--new-agent` the new side thinks
as that spec instead (the two binaries may then be one): the cost of an option in iterations.
"""

import argparse
import csv
import random
import re
import statistics
import subprocess
import sys


def positions(path, plies, count):
    """Move prefixes: from each of the first `count` games with more than max(plies) moves."""
    out = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            moves = row["moves"].split()
            if len(moves) <= max(plies):
                continue
            out.extend(" ".join(moves[:p]) for p in plies)
            if len(out) >= count * len(plies):
                break
    return out


class Refused(Exception):
    """A run that cannot go on: its one-line reason."""


def think_line(arena, game, agent, moves, seed):
    """The last line `arena think` prints for one decision of `agent` after `moves`."""
    try:
        done = subprocess.run(
            [arena, "think", "--game", game, "--agent", agent, "--moves", moves,
             "--seed", str(seed)],
            capture_output=True,
            text=True,
        )
    except OSError as e:
        raise Refused(f"cannot run {arena}: {e.strerror}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Refused(f"{arena} think failed: {last}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def think(arena, game, agent, moves, seed):
    """Iterations of one decision of `agent` after `moves`."""
    found = re.search(r"iterations=(\d+)", think_line(arena, game, agent, moves, seed))
    if not found:
        raise Refused(f"no iterations= in {arena}'s output")
    return int(found.group(1))


def median_ratio(ratios, seed=46, boots=2000):
    """The median of `ratios` and a seeded 95% bootstrap interval of it."""
    rng = random.Random(seed)
    medians = sorted(
        statistics.median(rng.choice(ratios) for _ in ratios) for _ in range(boots)
    )
    return statistics.median(ratios), medians[boots // 40], medians[boots - 1 - boots // 40]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--agent", required=True)
    p.add_argument("--new-agent", help="the new side's spec (default: --agent)")
    p.add_argument("--games", required=True)
    p.add_argument("--game", default="havannah")
    p.add_argument("--plies", default="10,20,30,40")
    p.add_argument("--positions", type=int, default=5, help="games to take positions from")
    p.add_argument("--repeats", type=int, default=2)
    a = p.parse_args(argv)
    try:
        plies = [int(x) for x in a.plies.split(",")]
        spots = positions(a.games, plies, a.positions)
        if not spots:
            raise Refused(f"no game in {a.games} is longer than {max(plies)} plies")
        old, new, ratios = [], [], []
        for r in range(a.repeats):
            for i, moves in enumerate(spots):
                pair = [("old", a.old, a.agent, old), ("new", a.new, a.new_agent or a.agent, new)]
                if r % 2:
                    pair.reverse()
                got = {}
                for side, arena, agent, into in pair:
                    got[side] = think(arena, a.game, agent, moves, 1 + i)
                    into.append(got[side])
                ratios.append(got["new"] / got["old"])
    except (Refused, OSError, ValueError, KeyError) as e:
        print(f"paired_think: {e}", file=sys.stderr)
        return 2
    mid, low, high = median_ratio(ratios)
    print(f"positions {len(spots)}, repeats {a.repeats}, decisions {len(ratios)} each")
    print(
        f"median iterations a decision: old {statistics.median(old):.0f}, "
        f"new {statistics.median(new):.0f}"
    )
    print(f"median ratio new/old {mid:.3f} [{low:.3f}, {high:.3f}] (95% bootstrap)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
