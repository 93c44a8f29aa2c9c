"""How well a small convolutional network predicts an engine's Havannah moves: the headroom a
learned move prior would have over the shapes (`arena tune shapes`).

Reads Havannah games CSVs (with their `.settings.json` sidecars, sizes as each names), keeps
the moves of the agents whose label contains `--learn` (as `arena tune shapes --learn`) from ply `--skip` on, holds out a share
of the games (chosen by a seeded hash of file name and row id) and trains a hex-convolutional
network to give the chosen move the highest probability among the empty cells (cross-entropy;
each training position seen under one of the board's twelve symmetries, drawn afresh each
epoch). Reports, for the held-out positions, the mean log-probability of the chosen move and
the share where the chosen move was the network's first choice: the two figures
`arena tune shapes` reports for its shapes, so the two can be set side by side (their held-out
games are drawn differently, from the same files).

The network: the board in axial coordinates (cell `(x, y)`, letter `x`, number `y + 1`, as
Ringside names cells), neighbours at `(±1, 0)`, `(0, ±1)` and `±(1, 1)`; a 3×3 convolution
whose two corners `(x + 1, y − 1)` and `(x − 1, y + 1)` are held at zero sees exactly a cell
and its six neighbours. Input planes, for the player to move: its stones, the opponent's,
the empty cells, the board, the last move, edge cells (corners not among them), corners.
`--layers` such convolutions of `--channels` channels (ReLU, each after the first adding its
input back), then a 1×1 convolution to one logit a cell.

    python3 tools/policy_net.py results/castro-best/castro-s8.csv ... --learn castro \\
        --out results/castro-best/policy-net

Writes OUT/summary.md (the settings, the data, each epoch's figures), OUT/net.pt (PyTorch's
weights) and OUT/net.rspol (the file `mcts:policy=FILE` reads, `agents/src/policy.rs`). Bad input: one line on standard error and exit code 2.
"""

import argparse
import csv
import hashlib
import json
import math
import os
import struct
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import torch

PLANES = 7


class InputError(Exception):
    """Input the script cannot read, said in one line."""


@dataclass
class Board:
    """The geometry of a Havannah board of `base` (cells of the `d × d` square, row-major)."""

    base: int
    d: int = field(init=False)
    on_board: List[bool] = field(init=False)
    edge: List[bool] = field(init=False)
    corner: List[bool] = field(init=False)

    def __post_init__(self) -> None:
        self.d = 2 * self.base - 1
        c = self.base - 1
        self.on_board, self.edge, self.corner = [], [], []
        for y in range(self.d):
            for x in range(self.d):
                u, v = x - c, y - c
                on = abs(u - v) <= c
                sides = (abs(u) == c) + (abs(v) == c) + (abs(u - v) == c)
                self.on_board.append(on)
                self.edge.append(on and sides == 1)
                self.corner.append(on and sides >= 2)

    def cell(self, name: str) -> int:
        """The index of a cell named as Ringside names it (`g11`)."""
        if len(name) < 2 or not name[0].islower() or not name[1:].isdigit():
            raise InputError(f"not a Havannah cell: {name!r}")
        x, y = ord(name[0]) - ord("a"), int(name[1:]) - 1
        if not (0 <= x < self.d and 0 <= y < self.d) or not self.on_board[x + self.d * y]:
            raise InputError(f"cell {name!r} is off the size-{self.base} board")
        return x + self.d * y

    def symmetries(self) -> List[List[int]]:
        """The board's twelve symmetries, each as the cell every cell goes to (off-board cells
        to themselves): six turns by 60° about the centre, `(u, v) → (u − v, u)`, each with and
        without the mirror `(u, v) → (v, u)`."""
        c, d = self.base - 1, self.d
        out = []
        for turn in range(6):
            for mirror in range(2):
                perm = list(range(d * d))
                for i in range(d * d):
                    if not self.on_board[i]:
                        continue
                    u, v = i % d - c, i // d - c
                    if mirror:
                        u, v = v, u
                    for _ in range(turn):
                        u, v = u - v, u
                    perm[i] = (u + c) + d * (v + c)
                out.append(perm)
        return out


@dataclass
class Position:
    """A position before a learned move: stones by colour, the last move, the move."""

    base: int
    mover: List[int]
    other: List[int]
    last: int
    chosen: int


def held_out(file: str, row_id: str, seed: int, share: float) -> bool:
    """Whether a game is held out: a seeded hash of its file's name and row id."""
    h = hashlib.sha256(f"{seed}:{os.path.basename(file)}:{row_id}".encode()).digest()
    return int.from_bytes(h[:8], "little") / 2**64 < share


def read_rows(file: str) -> List[Dict[str, str]]:
    """A games CSV's rows, by column; one clear line (`InputError`) if it cannot be read."""
    try:
        with open(file, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        raise InputError(f"{file}: {e}") from e


def base_of(game: str) -> int:
    """The board size a sidecar's game spec names (`havannah`, `havannah:size=6`)."""
    name, _, options = game.partition(":")
    if name != "havannah":
        raise InputError(f"not a Havannah games file: game {game!r}")
    base = 8
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key == "size":
            if not value.isdigit():
                raise InputError(f"size {value!r} is not a number")
            base = int(value)
    return base


def read_games(
    files: Sequence[str], learn: str, skip: int, seed: int, share: float
) -> Tuple[List[Position], List[Position], int]:
    """Training and held-out positions of the files, and the number of games read."""
    train: List[Position] = []
    test: List[Position] = []
    games = 0
    for file in files:
        try:
            with open(file + ".settings.json") as f:
                settings = json.load(f)["settings"]
            base = base_of(settings["game"])
            labels = [str(a["label"]) for a in settings["agents"]]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise InputError(f"{file}: no readable settings sidecar ({e})") from e
        board = Board(base)
        rows = read_rows(file)
        for row in rows:
            try:
                moves = [board.cell(m) for m in row["moves"].split()]
                learned = tuple(
                    learn in labels[int(row[k])] for k in ("first_agent", "second_agent")
                )
                row_id = row["id"]
            except KeyError as e:
                raise InputError(f"{file}: no column {e}") from e
            except (ValueError, IndexError) as e:
                raise InputError(f"{file}: game {row.get('id')}: no such agent ({e})") from e
            games += 1
            out = test if held_out(file, row_id, seed, share) else train
            stones: Tuple[List[int], List[int]] = ([], [])
            for ply, mv in enumerate(moves):
                side = ply % 2
                if ply >= skip and learned[side]:
                    out.append(
                        Position(
                            base,
                            list(stones[side]),
                            list(stones[1 - side]),
                            moves[ply - 1] if ply >= 1 else -1,
                            mv,
                        )
                    )
                if mv in stones[0] or mv in stones[1]:
                    raise InputError(f"{file}: game {row_id} plays on a taken cell")
                stones[side].append(mv)
    return train, test, games


class HexConv(torch.nn.Conv2d):
    """A 3×3 convolution over axial coordinates that sees a cell and its six neighbours: the
    kernel's corners `(dx, dy) = (1, −1)` and `(−1, 1)` are held at zero."""

    def __init__(self, inputs: int, outputs: int):
        super().__init__(inputs, outputs, 3, padding=1)
        mask = torch.ones(1, 1, 3, 3)
        mask[0, 0, 0, 2] = 0.0  # dy = −1, dx = +1
        mask[0, 0, 2, 0] = 0.0  # dy = +1, dx = −1
        self.register_buffer("mask", mask)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.conv2d(x, self.weight * self.mask, self.bias, padding=1)


class PolicyNet(torch.nn.Module):
    """Hex convolutions, residual after the first, then one logit a cell."""

    def __init__(self, layers: int, channels: int):
        super().__init__()
        self.first = HexConv(PLANES, channels)
        self.rest = torch.nn.ModuleList(HexConv(channels, channels) for _ in range(layers - 1))
        self.head = torch.nn.Conv2d(channels, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.first(x))
        for conv in self.rest:
            h = h + torch.relu(conv(h))
        return self.head(h).flatten(1)


def make_net(layers: int, channels: int) -> PolicyNet:
    """A fresh network."""
    return PolicyNet(layers, channels)


@dataclass
class Encoded:
    """Positions of one board size as tensors: cells (0 empty, 1 the mover's, 2 the
    opponent's, 3 off the board), the last move (`d²` for none) and the chosen move."""

    board: Board
    cells: torch.Tensor
    last: torch.Tensor
    chosen: torch.Tensor
    perms: torch.Tensor
    fixed: torch.Tensor


def encode(positions: Sequence[Position]) -> Dict[int, Encoded]:
    """The positions grouped by board size."""
    out: Dict[int, Encoded] = {}
    for base in sorted({p.base for p in positions}):
        board = Board(base)
        group = [p for p in positions if p.base == base]
        n, cells = len(group), board.d * board.d
        grid = torch.tensor([0 if on else 3 for on in board.on_board], dtype=torch.int8)
        grid = grid.repeat(n, 1)
        for i, p in enumerate(group):
            grid[i, p.mover] = 1
            grid[i, p.other] = 2
        none = lambda c: c if c >= 0 else cells  # noqa: E731
        # The symmetries, each with "no move" (index d²) going to itself.
        perms = torch.tensor([s + [cells] for s in board.symmetries()], dtype=torch.long)
        fixed = torch.stack(
            [
                torch.tensor(board.on_board, dtype=torch.float32),
                torch.tensor(board.edge, dtype=torch.float32),
                torch.tensor(board.corner, dtype=torch.float32),
            ]
        )
        out[base] = Encoded(
            board,
            grid,
            torch.tensor([none(p.last) for p in group]),
            torch.tensor([p.chosen for p in group]),
            perms,
            fixed,
        )
    return out


def planes(
    e: Encoded, rows: torch.Tensor, sym: torch.Tensor
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The input planes of positions `rows` under symmetries `sym`, the legal-move mask and
    the chosen moves, all in the turned board's cells."""
    d = e.board.d
    cells = d * d
    perm = e.perms[sym]  # [n, cells + 1]: where each cell goes
    inverse = torch.argsort(perm[:, :cells], dim=1)  # which cell lands on each cell
    grid = torch.gather(e.cells[rows].long(), 1, inverse)
    last = torch.gather(perm, 1, e.last[rows].unsqueeze(1)).squeeze(1)
    chosen = torch.gather(perm, 1, e.chosen[rows].unsqueeze(1)).squeeze(1)
    n = len(rows)
    x = torch.zeros(n, PLANES, cells + 1)
    x[:, 0, :cells] = (grid == 1).float()
    x[:, 1, :cells] = (grid == 2).float()
    x[:, 2, :cells] = (grid == 0).float()
    x[:, 3:4, :cells] = e.fixed[0]
    x[torch.arange(n), 4, last] = 1.0
    x[:, 5, :cells] = e.fixed[1]
    x[:, 6, :cells] = e.fixed[2]
    return x[:, :, :cells].reshape(n, PLANES, d, d), grid == 0, chosen


def log_probs(net: PolicyNet, x: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """The network's log-probability of each cell, over the legal cells only."""
    logits = net(x).masked_fill(~legal, float("-inf"))
    return torch.log_softmax(logits, dim=1)


def train_epoch(net: PolicyNet, opt: torch.optim.Optimizer, train: Sequence[Position],
                batch: int, seed: int, encoded: Optional[Dict[int, Encoded]] = None) -> float:
    """One pass over the training positions in random batches of one board size each, each
    position under a random symmetry; the mean log-probability of the chosen moves."""
    groups = encoded if encoded is not None else encode(train)
    g = torch.Generator().manual_seed(seed)
    batches = []
    for base, e in groups.items():
        order = torch.randperm(len(e.chosen), generator=g)
        batches += [(base, order[i : i + batch]) for i in range(0, len(order), batch)]
    total, count = 0.0, 0
    net.train()
    for k in torch.randperm(len(batches), generator=g).tolist():
        base, rows = batches[k]
        e = groups[base]
        sym = torch.randint(0, 12, (len(rows),), generator=g)
        x, legal, chosen = planes(e, rows, sym)
        lp = log_probs(net, x, legal)
        loss = -lp[torch.arange(len(rows)), chosen].mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss.detach()) * len(rows)
        count += len(rows)
    return total / count


@torch.no_grad()
def evaluate(net: PolicyNet, test: Sequence[Position],
             encoded: Optional[Dict[int, Encoded]] = None) -> Dict[object, Tuple[float, float]]:
    """Mean log-probability of the chosen move and the share chosen first, by board size and
    over all (`"all"`)."""
    groups = encoded if encoded is not None else encode(test)
    net.eval()
    sums: Dict[object, List[float]] = {"all": [0.0, 0.0, 0.0]}
    for base, e in groups.items():
        for i in range(0, len(e.chosen), 1024):
            rows = torch.arange(i, min(i + 1024, len(e.chosen)))
            x, legal, chosen = planes(e, rows, torch.zeros(len(rows), dtype=torch.long))
            lp = log_probs(net, x, legal)
            picked = lp[torch.arange(len(rows)), chosen]
            first = (lp.argmax(dim=1) == chosen).float()
            for key in ("all", base):
                s = sums.setdefault(key, [0.0] * 3)
                s[0] += float(picked.sum())
                s[1] += float(first.sum())
                s[2] += len(rows)
    return {k: (s[0] / s[2], s[1] / s[2]) if s[2] else (math.nan, math.nan) for k, s in sums.items()}


MAGIC = b"RSPOL\0\0\x01"


def export(net: PolicyNet) -> bytes:
    """The network in the format the agents crate reads (`agents/src/policy.rs`)."""
    convs = [net.first, *net.rest]
    channels = net.first.out_channels
    out = bytearray(MAGIC)
    out += struct.pack("<3I", PLANES, len(convs), channels)
    for conv in convs:
        for t in (conv.weight.detach(), conv.bias.detach()):
            out += struct.pack(f"<{t.numel()}f", *t.flatten().tolist())
    for t in (net.head.weight.detach(), net.head.bias.detach()):
        out += struct.pack(f"<{t.numel()}f", *t.flatten().tolist())
    return bytes(out)


def read_export(data: bytes) -> PolicyNet:
    """A network from the bytes [`export`] wrote."""
    if data[:8] != MAGIC:
        raise InputError("not a move-prior network (RSPOL version 1)")
    planes, layers, channels = struct.unpack_from("<3I", data, 8)
    if planes != PLANES:
        raise InputError(f"{planes} input planes, not {PLANES}")
    net = make_net(layers, channels)
    at = 20
    with torch.no_grad():
        for t in [p for conv in (net.first, *net.rest) for p in (conv.weight, conv.bias)] + [
            net.head.weight,
            net.head.bias,
        ]:
            n = t.numel()
            t.copy_(torch.tensor(struct.unpack_from(f"<{n}f", data, at)).reshape(t.shape))
            at += 4 * n
    if at != len(data):
        raise InputError(f"{len(data) - at} bytes after the head")
    return net


@torch.no_grad()
def raw_logits(net: PolicyNet, base: int, moves: Sequence[str]) -> List[float]:
    """The network's logit of every cell of the `d × d` grid (off the board and taken cells
    included) after `moves` from the empty board of `base`, for the player to move."""
    board = Board(base)
    cells = [board.cell(m) for m in moves]
    side = len(cells) % 2
    p = Position(base, cells[side::2], cells[1 - side :: 2], cells[-1] if cells else -1, 0)
    e = encode([p])[base]
    x, _, _ = planes(e, torch.tensor([0]), torch.tensor([0]))
    return [float(v) for v in net(x)[0]]


def training_options(parser: argparse.ArgumentParser, lr: float) -> None:
    """The options of a training run this trainer and `value_net.py` share: the held-out
    share, the seed, the net's shape, the epochs, batches, learning rate `lr` and threads."""
    parser.add_argument("--holdout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--threads", type=int, default=2)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--learn", default="castro", help="learn agents whose label holds this")
    parser.add_argument("--skip", type=int, default=2, help="learn from this ply on")
    training_options(parser, lr=0.002)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        if args.layers < 1 or args.channels < 1 or args.epochs < 1 or args.batch < 1:
            raise InputError("layers, channels, epochs and batch must be at least 1")
        train, test, games = read_games(
            args.files, args.learn, args.skip, args.seed, args.holdout
        )
        if not train or not test:
            raise InputError(
                f"{len(train)} training and {len(test)} held-out positions: need both"
            )
    except InputError as e:
        print(f"policy_net: {e}", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    net = make_net(args.layers, args.channels)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    lines = []
    start = time.time()
    train_set, test_set = encode(train), encode(test)
    columns: List[object] = ["all", *sorted(test_set)]
    for epoch in range(1, args.epochs + 1):
        loss = train_epoch(net, opt, train, args.batch, args.seed * 1000 + epoch, train_set)
        sched.step()
        figures = evaluate(net, test, test_set)
        line = (
            f"| {epoch} | {-loss:.4f} | "
            + " | ".join(f"{figures[k][0]:.4f} / {100 * figures[k][1]:.1f}%" for k in columns)
            + f" | {time.time() - start:.0f} |"
        )
        print(line, flush=True)
        lines.append(line)
    os.makedirs(args.out, exist_ok=True)
    torch.save(net.state_dict(), os.path.join(args.out, "net.pt"))
    with open(os.path.join(args.out, "net.rspol"), "wb") as f:
        f.write(export(net))
    uniform = sum(-math.log(empties(p)) for p in test) / len(test)
    summary = [
        "# A hex-convolutional network's prediction of the learned moves (`tools/policy_net.py`)",
        "",
        f"Files: {' '.join(os.path.basename(f) for f in args.files)}",
        "",
        f"Moves of: {args.learn}; plies from {args.skip}; {args.holdout:.0%} of games held out "
        f"(seed {args.seed}). {games} games, {len(train)} training and {len(test)} held-out "
        f"positions. Net: {args.layers} hex convolutions of {args.channels} channels; "
        f"{args.epochs} epochs, Adam at {args.lr} (cosine), batches of {args.batch}.",
        f"Held out, uniform over the empty cells: mean log-probability {uniform:.4f}.",
        "",
        "| epoch | training log-p | held-out log-p / first choice: all | "
        + " | ".join(f"size {b}" for b in columns[1:])
        + " | s |",
        "|---|---|---|" + "---|" * len(columns),
        *lines,
        "",
    ]
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(summary))
    return 0


def empties(p: Position) -> int:
    """The number of empty cells of a position's board."""
    return 3 * p.base * (p.base - 1) + 1 - len(p.mover) - len(p.other)


if __name__ == "__main__":
    sys.exit(main())
