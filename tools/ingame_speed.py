#!/usr/bin/env python3
"""Search speed in recorded games: iterations a millisecond of thinking, by agent.

    python3 tools/ingame_speed.py FILE.csv [FILE.csv ...] [--new TEXT]

For each agent (its spec as recorded) of the games files, the median over games of its
iterations over its think time (`*_iterations` / `*_time_ms`; agents that report no
iterations, such as a GTP engine, are left out). With `--new TEXT`, in every game between
two searching agents, one of whose specs contains TEXT, the ratio of that agent's speed to
the other's in the same game (both searched the same game's positions, on the same machine,
at the same moment): their median, with a seeded 95% bootstrap interval (paired_think.py's). That ratio is the
only in-game comparison that holds across machines: iterations a millisecond from runs made
on different days can differ by a third on the same hardware type.
"""

import argparse
import csv
import os
import statistics
import sys
from typing import Dict, List, Optional, Tuple

# The median ratio and its bootstrap interval are paired_think.py's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_think import median_ratio  # noqa: E402


def game_speeds(paths: List[str]) -> List[Dict[str, float]]:
    """Each game's agents and their iterations a millisecond, for agents that report them."""
    games = []
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                speeds = {}
                for side in ("first", "second"):
                    iterations = float(row[f"{side}_iterations"] or 0)
                    time_ms = float(row[f"{side}_time_ms"] or 0)
                    if iterations > 0 and time_ms > 0:
                        speeds[row[f"{side}_spec"]] = iterations / time_ms
                games.append(speeds)
    return games


def medians(games: List[Dict[str, float]]) -> Dict[str, Tuple[float, int]]:
    """Each agent's median speed over the games it searched in, and how many those were."""
    by_agent: Dict[str, List[float]] = {}
    for speeds in games:
        for spec, speed in speeds.items():
            by_agent.setdefault(spec, []).append(speed)
    return {spec: (statistics.median(v), len(v)) for spec, v in by_agent.items()}


def ratios(games: List[Dict[str, float]], new: str) -> List[float]:
    """In each game of two searching agents, one (only) of whose specs contains `new`: its
    speed over the other's."""
    out = []
    for speeds in games:
        if len(speeds) != 2:
            continue
        newer = [s for s in speeds if new in s]
        if len(newer) != 1:
            continue
        other = next(s for s in speeds if s != newer[0])
        out.append(speeds[newer[0]] / speeds[other])
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--new", help="text of one agent's spec: its speed over the other's")
    args = parser.parse_args(argv)
    try:
        games = game_speeds(args.files)
    except (OSError, KeyError, ValueError) as e:
        print(f"ingame_speed: cannot read the games: {e}", file=sys.stderr)
        return 2
    for spec, (median, n) in sorted(medians(games).items()):
        print(f"{median:8.2f} iterations/ms (median of {n} games)  {spec}")
    if args.new is not None:
        found = ratios(games, args.new)
        if not found:
            print(f"ingame_speed: no game of two searching agents, one spec with {args.new!r}",
                  file=sys.stderr)
            return 2
        mid, low, high = median_ratio(found)
        print(f"{args.new} over the other: median ratio {mid:.3f} "
              f"[{low:.3f}, {high:.3f}] (95% bootstrap) over {len(found)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
