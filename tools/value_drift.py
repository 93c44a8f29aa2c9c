#!/usr/bin/env python3
"""Where games were lost: a judge's value of every position, and what each move cost.

    python3 tools/value_drift.py ARENA FILE.csv --player TEXT --judge SPEC \
        [--game havannah:size=8] [--min-plies 55] [--lost 15] [--won 10] [--from-ply 10] \
        [--jobs 2]
    python3 tools/value_drift.py CASTRO FILE.csv --player TEXT --castro "SETUP;..." ...

Takes the games of FILE.csv (an `arena match` CSV) in which the agent whose spec holds TEXT
played, at least `--min-plies` long: the first `--lost` it lost and the first `--won` it won,
in file order. In each position from ply `--from-ply` to the last, the judge (an agent spec,
say a longer MCTS search) thinks once through `arena think`, seeded by the ply, and its
`value=` (its value for the mover, in [-1, 1]) is turned to the player's side. A move's
*cost* to its mover is the fall of the mover's value over the move: `u_k - u_{k+1}` for the
player's moves, `u_{k+1} - u_k` for the opponent's (a judge that agrees with a move sees a
cost near zero; positions the judge decides at once, with no value, are skipped with the
moves on either side).

With `--castro SETUP` the first argument is the Castro Havannah engine instead, judging over
GTP: `boardsize` (from `--game`'s `size=`), the setup's commands (`;` between them, say
`time -m 1 -g 0 -f 0;player_params ...`), `verbose 1`, the moves (in Castro's coordinates,
the transpose of Ringside's) and `genmove`; its value is `2s - 1` for the `Move Score: s` it
reports (the chosen move's share of wins for the mover).

Prints a Markdown table: for the lost games, the won games and all of them, the mean cost of
the player's moves and of the opponent's by ply in tens, with its standard error and the moves
counted; then each lost game's last ply
at which the player's value stood at zero or above. Bad input (a file without such games, an
arena that fails): one line and exit code 2.
"""

import argparse
import collections
import csv
import os
import re
import subprocess
import sys
from multiprocessing import Pool
from typing import Dict, List, Optional, Sequence, Tuple

# `arena think` is run as paired_think.py runs it, with its one-line refusals.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_think import Refused, think_line  # noqa: E402


#: One game: its id, whether the player moved first, whether it won, its moves.
Game = Tuple[str, bool, bool, List[str]]


def games(path: str, player: str, min_plies: int, lost: int, won: int) -> List[Game]:
    """The first `lost` lost and `won` won games of `player` at least `min_plies` long."""
    out: List[Game] = []
    count = {True: 0, False: 0}
    want = {True: won, False: lost}
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                first = player in row["first_spec"]
                if first == (player in row["second_spec"]):
                    continue
                moves = row["moves"].split()
                if len(moves) < min_plies or row["winner"] not in ("first", "second"):
                    continue
                wins = (row["winner"] == "first") == first
                if count[wins] < want[wins]:
                    count[wins] += 1
                    out.append((row["id"], first, wins, moves))
    except OSError as e:
        raise Refused(f"cannot read {path}: {e.strerror}")
    except KeyError as e:
        raise Refused(f"{path} has no column {e}")
    if not out:
        raise Refused(f"no decided game of {player!r} in {path} is {min_plies} plies or longer")
    return out


def judge(job: Tuple[str, str, str, str, int]) -> Optional[float]:
    """The judge's value for the mover after `moves`, or None when it decides at once."""
    found = re.search(r"value=(-?[0-9.]+)", think_line(*job))
    return float(found.group(1)) if found else None


def castro_cell(cell: str) -> str:
    """A Havannah cell in Castro's coordinates: the transpose of Ringside's (e3 <-> c5)."""
    letter, number = cell[0], int(cell[1:])
    return f"{chr(ord('a') + number - 1)}{ord(letter) - ord('a') + 1}"


def castro_judge(job: Tuple[str, str, str, str, int]) -> Optional[float]:
    """Castro's value for the mover after `moves` (`2s - 1` of its Move Score), or None."""
    castro, game, setup, moves, _ = job
    size = re.search(r"size=(\d+)", game)
    if not size:
        raise Refused(f"--castro needs the board size in --game (havannah:size=N), not {game!r}")
    colours = ["white", "black"]
    plays = [f"play {colours[i % 2]} {castro_cell(m)}" for i, m in enumerate(moves.split())]
    lines = [f"boardsize {size.group(1)}"] + [c.strip() for c in setup.split(";") if c.strip()]
    lines += ["verbose 1"] + plays + [f"genmove {colours[len(plays) % 2]}", "quit"]
    try:
        done = subprocess.run(
            [castro], input="\n".join(lines) + "\n", capture_output=True, text=True
        )
    except OSError as e:
        raise Refused(f"cannot run {castro}: {e.strerror}")
    if done.returncode != 0 or "\n?" in "\n" + done.stdout:
        last = (done.stdout.strip().splitlines() or ["no answer"])[-1]
        raise Refused(f"{castro} refused a command: {last}")
    found = re.search(r"Move Score:\s*(-?[0-9.]+)", done.stdout + done.stderr)
    return 2 * float(found.group(1)) - 1 if found else None


def player_values(first: bool, start: int, values: Sequence[Optional[float]]) -> Dict[int, float]:
    """Ply k -> the player's value after k moves, from the mover's values (ply `start` on)."""
    out = {}
    for i, v in enumerate(values):
        k = start + i
        if v is None:
            continue
        # After k moves the first player moves when k is even.
        player_moves = (k % 2 == 0) == first
        out[k] = v if player_moves else -v
    return out


def costs(first: bool, values: Dict[int, float]) -> List[Tuple[int, bool, float]]:
    """(ply k, the player's move?, its cost to its mover) for each move k+1 judged on both sides."""
    out = []
    for k, u in sorted(values.items()):
        if k + 1 not in values:
            continue
        mine = (k % 2 == 0) == first
        fall = u - values[k + 1]
        out.append((k, mine, fall if mine else -fall))
    return out


def cell(costs: List[float]) -> str:
    """A table cell: the mean cost, its standard error (n - 1 in the variance) and the count."""
    if not costs:
        return ""
    n = len(costs)
    mean = sum(costs) / n
    if n < 2:
        return f"{mean:+.3f} ({n})"
    se = (sum((c - mean) ** 2 for c in costs) / (n - 1) / n) ** 0.5
    return f"{mean:+.3f} ±{se:.3f} ({n})"


def table(judged: List[Tuple[Game, Dict[int, float]]]) -> str:
    """The Markdown report of the judged games."""
    sums: Dict[Tuple[bool, bool, int], List[float]] = collections.defaultdict(list)
    for (_, first, wins, _), values in judged:
        for k, mine, cost in costs(first, values):
            sums[(wins, mine, k // 10 * 10)].append(cost)
    tens = sorted({t for (_, _, t) in sums})
    head = "| games | moves of | " + " | ".join(f"plies {t}-{t + 9}" for t in tens) + " |"
    lines = [head, "|---|---|" + "---|" * len(tens)]
    for games_of, outcomes in (("lost", [False]), ("won", [True]), ("all", [False, True])):
        for mine in (True, False):
            cells = []
            for t in tens:
                got = [c for w in outcomes for c in sums.get((w, mine, t), [])]
                cells.append(cell(got))
            who = "the player" if mine else "the opponent"
            lines.append(f"| {games_of} | {who} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| lost game | plies | last ply with the player's value at 0 or above |")
    lines.append("|---|---|---|")
    for (gid, _, wins, moves), values in judged:
        if not wins:
            last = max((k for k, u in values.items() if u >= 0), default=None)
            lines.append(f"| {gid} | {len(moves)} | {'never' if last is None else last} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("arena")
    p.add_argument("file")
    p.add_argument("--player", required=True, help="text in the player's agent spec")
    p.add_argument("--judge", help="the judging agent's spec")
    p.add_argument("--castro", help="judge with Castro over GTP after these setup commands")
    p.add_argument("--game", default="havannah:size=8")
    p.add_argument("--min-plies", type=int, default=55)
    p.add_argument("--lost", type=int, default=15)
    p.add_argument("--won", type=int, default=10)
    p.add_argument("--from-ply", type=int, default=10)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args(argv)
    try:
        if (a.judge is None) == (a.castro is None):
            raise Refused("give one judge: --judge SPEC or --castro SETUP")
        chosen = games(a.file, a.player, a.min_plies, a.lost, a.won)
        jobs = [
            (a.arena, a.game, a.judge or a.castro, " ".join(moves[:k]), 1 + k)
            for _, _, _, moves in chosen
            for k in range(a.from_ply, len(moves))
        ]
        run = judge if a.castro is None else castro_judge
        if a.jobs > 1:
            with Pool(a.jobs) as pool:
                values = pool.map(run, jobs, chunksize=4)
        else:
            values = [run(j) for j in jobs]
    except Refused as e:
        print(f"value_drift: {e}", file=sys.stderr)
        return 2
    judged, i = [], 0
    for g in chosen:
        n = len(g[3]) - a.from_ply
        judged.append((g, player_values(g[1], a.from_ply, values[i:i + n])))
        i += n
    by = a.judge if a.castro is None else f"{a.arena} after {a.castro}"
    print(f"{len(chosen)} games of {a.player!r} in {a.file}, judged by {by}\n")
    print(table(judged), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
