#!/usr/bin/env python3
"""How Havannah games in games CSVs were won: by a ring, a bridge or a fork.

    python3 tools/havannah_win_kinds.py FILE.csv...

Replays each decided game's moves on its own board (size from the row's game spec) and reads
the winner's structures in the final position, with the definitions of
engine/src/games/havannah/RULES.md written out plainly (not the engine's incremental
detection): a *bridge* is a group touching two corners, a *fork* a group touching three edges
(corners are not edges), a *ring* a loop of the winner's stones around some cell: a cell that
cannot reach the rim without crossing the winner's stones, or a cell of the winner's whose six
neighbours are all the winner's. A final move can make more than one ("bridge+fork").

Prints a Markdown table for each file: for each winner and loser (agents named by their
label, a `gtp:` engine by its `name=`), the games won and how. A row whose moves do not end a
game as the classifier reads it (no structure after the last move, or one before it) is an
error: one line and exit code 2. Games with the swap rule are refused (a swapped stone changes
colour, which this replay does not follow).
"""

import collections
import csv
import sys
from typing import Dict, Iterable, List, Optional, Set, Tuple

Cell = Tuple[int, int]
#: The columns of a games CSV the script reads.
COLUMNS = ["id", "game", "reason", "winner", "first_spec", "second_spec", "moves"]
NEIGHBOURS = [(-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0)]


class Board:
    """A Havannah board of `size` cells a side, on the d x d grid of RULES.md."""

    def __init__(self, size: int) -> None:
        self.n = size
        self.d = 2 * size - 1
        d, n = self.d, size
        self.corners = [(0, 0), (n - 1, 0), (d - 1, n - 1), (d - 1, d - 1), (n - 1, d - 1), (0, n - 1)]
        self.cells = [(x, y) for y in range(d) for x in range(d) if abs(x - y) < n]

    def on(self, c: Cell) -> bool:
        x, y = c
        return 0 <= x < self.d and 0 <= y < self.d and abs(x - y) < self.n

    def neighbours(self, c: Cell) -> List[Cell]:
        return [q for q in ((c[0] + dx, c[1] + dy) for dx, dy in NEIGHBOURS) if self.on(q)]

    def edge(self, c: Cell) -> Optional[int]:
        """The side a non-corner rim cell is on (0-5), or None."""
        if c in self.corners:
            return None
        x, y = c
        d, n = self.d, self.n
        for side, on_it in enumerate([y == 0, x == d - 1, y == d - 1, x == 0, x - y == n - 1, y - x == n - 1]):
            if on_it:
                return side
        return None

    def is_rim(self, c: Cell) -> bool:
        return len(self.neighbours(c)) < 6

    def parse(self, name: str) -> Cell:
        c = (ord(name[0]) - ord("a"), int(name[1:]) - 1)
        if not self.on(c):
            raise ValueError(f"'{name}' is not a cell of a size-{self.n} board")
        return c


def kinds(board: Board, own: Set[Cell]) -> Set[str]:
    """The structures the stones `own` of one player make."""
    found: Set[str] = set()
    seen: Set[Cell] = set()
    for start in own:
        if start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for q in board.neighbours(c):
                if q in own and q not in group:
                    group.add(q)
                    stack.append(q)
        seen |= group
        if sum(c in group for c in board.corners) >= 2:
            found.add("bridge")
        if len({e for e in map(board.edge, group) if e is not None}) >= 3:
            found.add("fork")
    # Rings: a cell off the player's stones that the rim cannot reach around them, or a
    # player's cell walled in by six of the player's stones.
    reached = {c for c in board.cells if board.is_rim(c) and c not in own}
    stack = list(reached)
    while stack:
        c = stack.pop()
        for q in board.neighbours(c):
            if q not in own and q not in reached:
                reached.add(q)
                stack.append(q)
    if any(c not in own and c not in reached for c in board.cells) or any(
        not board.is_rim(c) and all(q in own for q in board.neighbours(c)) for c in own
    ):
        found.add("ring")
    return found


def win_kind(size: int, moves: List[str]) -> str:
    """How the last of `moves` (White first, alternating, no swap) won the game: the
    structures of its mover, joined by '+' in a fixed order. Raises ValueError when the moves
    repeat a cell, when the last move makes nothing or when the game was won before it."""
    board = Board(size)
    stones: List[Set[Cell]] = [set(), set()]
    for i, name in enumerate(moves):
        c = board.parse(name)
        if c in stones[0] or c in stones[1]:
            raise ValueError(f"move {i + 1} '{name}' is on a taken cell")
        if i == len(moves) - 1 and (kinds(board, stones[0]) or kinds(board, stones[1])):
            raise ValueError(f"the game was won before its last move '{name}'")
        stones[i % 2].add(c)
    made = kinds(board, stones[(len(moves) - 1) % 2])
    if not made:
        raise ValueError(f"the last move '{moves[-1]}' wins nothing")
    return "+".join(k for k in ("ring", "bridge", "fork") if k in made)


def size_of(spec: str) -> int:
    """The board size of a havannah game spec (8 when not given)."""
    name, _, options = spec.partition(":")
    if name != "havannah":
        raise ValueError(f"'{spec}' is not a havannah game")
    pairs = dict(o.split("=", 1) for o in options.split(",") if o)
    if pairs.get("swap", "off") not in ("off", "false"):
        raise ValueError(f"'{spec}': games with the swap rule are not read")
    return int(pairs.get("size", "8"))


def label(spec: str) -> str:
    """An agent's short name: a GTP engine's name=, else its spec."""
    if spec.startswith("gtp:") and "name=" in spec:
        return spec.split("name=", 1)[1].split(",", 1)[0]
    return spec


def tally(rows: Iterable[Dict[str, str]]) -> Dict[Tuple[str, str], collections.Counter]:
    """For each (winner, loser) label, the kinds of its wins. Draws, capped and faulted games
    are left out."""
    out: Dict[Tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    for r in rows:
        if r["reason"] != "normal" or r["winner"] not in ("first", "second"):
            continue
        moves = r["moves"].split()
        try:
            kind = win_kind(size_of(r["game"]), moves)
        except ValueError as e:
            raise ValueError(f"game {r['id']}: {e}") from None
        first, second = label(r["first_spec"]), label(r["second_spec"])
        key = (first, second) if r["winner"] == "first" else (second, first)
        out[key][kind] += 1
    return out


def markdown(name: str, counts: Dict[Tuple[str, str], collections.Counter]) -> str:
    lines = [
        f"{name}:",
        "",
        "| winner | loser | won | by a ring | bridge | fork | more than one |",
        "|---|---|---|---|---|---|---|",
    ]
    for (winner, loser), c in sorted(counts.items()):
        won = sum(c.values())
        several = sum(v for k, v in c.items() if "+" in k)
        ring = c["ring"] + sum(v for k, v in c.items() if "+" in k and "ring" in k)
        lines.append(
            f"| `{winner}` | `{loser}` | {won} | {ring} ({100 * ring / won:.0f}%) | "
            f"{c['bridge']} | {c['fork']} | {several} |"
        )
    return "\n".join(lines) + "\n"


def main(paths: List[str]) -> int:
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for path in paths:
        try:
            with open(path, newline="") as f:
                rows = csv.DictReader(f)
                missing = [c for c in COLUMNS if c not in (rows.fieldnames or [])]
                if missing:
                    raise ValueError(f"not a games CSV (no column {', '.join(missing)})")
                counts = tally(rows)
        except (OSError, ValueError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 2
        print(markdown(path, counts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
