"""Whether a learned value would read a Havannah position better than the search does: a
small hex-convolutional value network trained on recorded games' results, scored beside MCTS
searches of several budgets on the same held-out positions.

Reads Havannah games CSVs of one board size (`--size`; files of other sizes are skipped, each
file's size from its `.settings.json` sidecar) and takes from each game `--per-game`
positions, plies from `--skip` on, chosen by a seeded hash of the file's name and the game's
row id; each is labelled by the game's result for the player to move (draws left out). A
share of the games is held out (`--holdout`, by the same hash as `tools/policy_net.py`'s), so
no held-out position comes from a game trained on. The network is `policy_net.py`'s trunk
(the same input planes and hex convolutions, residual after the first), then a 1×1
convolution to two planes, a layer of 64 and one logit: the probability that the mover wins,
trained by cross-entropy with each position under one of the board's twelve symmetries, drawn
afresh each epoch.

Then, on `--judged` held-out positions (seeded), each `--judge` agent (an `arena think` spec,
say `mcts:iters=2000,...`) thinks once, seeded by the ply, and its `value=` for the mover `v`
in [−1, 1] is read as the probability `(1 + v) / 2`. For the network, each judge and "½" (no
information) it reports, by ply in bands of 20 and over all: the share of positions whose
winner is the side the predictor favours (a value of exactly ½ counts half), and the Brier
score (mean squared error of the probability against the result, 0.25 for ½). Positions a
judge decides at once (no `value=`) are dropped for every predictor, so all are scored on the
same positions.

    python3 tools/value_net.py FILES... --size 8 --out DIR \\
        --arena target/release/arena --judge "mcts:iters=2000,preset=strong4" ...

Writes OUT/summary.md (the settings, the data, each epoch's held-out figures, the table) and
OUT/net.pt (PyTorch's weights). Bad input: one line on standard error and exit code 2.
"""

import argparse
import hashlib
import json
import math
import os
import random
import re
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_think import Refused, think_line  # noqa: E402
from policy_net import (  # noqa: E402
    PLANES,
    Board,
    HexConv,
    InputError,
    Position,
    base_of,
    encode,
    held_out,
    planes,
    read_rows,
    training_options,
)


@dataclass
class Labelled:
    """A position, its moves from the start (Ringside's names) and whether its mover won."""

    position: Position
    moves: List[str]
    won: float


def chosen_plies(file: str, row_id: str, seed: int, plies: range, k: int) -> List[int]:
    """`k` plies of `plies` (all if fewer), drawn by a seeded hash of the file and the game."""
    h = hashlib.sha256(f"value:{seed}:{os.path.basename(file)}:{row_id}".encode()).digest()
    rng = random.Random(int.from_bytes(h[:8], "little"))
    return sorted(rng.sample(list(plies), min(k, len(plies))))


def read_games(
    files: Sequence[str], size: int, skip: int, per_game: int, seed: int, share: float
) -> Tuple[List[Labelled], List[Labelled], int, List[str]]:
    """Training and held-out positions of the files of board `size`, the games read and the
    files used."""
    train: List[Labelled] = []
    test: List[Labelled] = []
    games = 0
    used: List[str] = []
    board = Board(size)
    for file in files:
        try:
            with open(file + ".settings.json") as f:
                base = base_of(json.load(f)["settings"]["game"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise InputError(f"{file}: no readable settings sidecar ({e})") from e
        if base != size:
            continue
        used.append(file)
        rows = read_rows(file)
        for row in rows:
            try:
                names = row["moves"].split()
                winner = row["winner"]
                row_id = row["id"]
            except KeyError as e:
                raise InputError(f"{file}: no column {e}") from e
            if winner not in ("first", "second"):
                continue
            moves = [board.cell(m) for m in names]
            if len(set(moves)) != len(moves):
                raise InputError(f"{file}: game {row_id} plays on a taken cell")
            games += 1
            out = test if held_out(file, row_id, seed, share) else train
            for ply in chosen_plies(file, row_id, seed, range(skip, len(moves)), per_game):
                side = ply % 2
                mover, other = moves[side:ply:2], moves[1 - side : ply : 2]
                last = moves[ply - 1] if ply >= 1 else -1
                won = 1.0 if (winner == "first") == (side == 0) else 0.0
                out.append(Labelled(Position(size, mover, other, last, 0), names[:ply], won))
    return train, test, games, used


class ValueNet(torch.nn.Module):
    """Hex convolutions, residual after the first, then two planes, 64 units and a logit."""

    def __init__(self, layers: int, channels: int, cells: int):
        super().__init__()
        self.first = HexConv(PLANES, channels)
        self.rest = torch.nn.ModuleList(HexConv(channels, channels) for _ in range(layers - 1))
        self.head = torch.nn.Conv2d(channels, 2, 1)
        self.hidden = torch.nn.Linear(2 * cells, 64)
        self.out = torch.nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.first(x))
        for conv in self.rest:
            h = h + torch.relu(conv(h))
        h = torch.relu(self.head(h)).flatten(1)
        return self.out(torch.relu(self.hidden(h))).squeeze(1)


def train_epoch(net: ValueNet, opt: torch.optim.Optimizer, e, won: torch.Tensor, batch: int,
                seed: int) -> float:
    """One pass in random batches, each position under a random symmetry; the mean loss."""
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(won), generator=g)
    total = 0.0
    net.train()
    for i in range(0, len(order), batch):
        rows = order[i : i + batch]
        sym = torch.randint(0, 12, (len(rows),), generator=g)
        x, _, _ = planes(e, rows, sym)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(net(x), won[rows])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss.detach()) * len(rows)
    return total / len(won)


@torch.no_grad()
def predict(net: ValueNet, e, n: int) -> torch.Tensor:
    """The network's probability that the mover wins, for the first `n` positions of `e`."""
    net.eval()
    out = []
    for i in range(0, n, 1024):
        rows = torch.arange(i, min(i + 1024, n))
        x, _, _ = planes(e, rows, torch.zeros(len(rows), dtype=torch.long))
        out.append(torch.sigmoid(net(x)))
    return torch.cat(out)


def scores(p: Sequence[float], won: Sequence[float]) -> Tuple[float, float]:
    """The share of positions won by the side `p` favours (½ counting half) and the Brier
    score."""
    right = sum(0.5 if q == 0.5 else float((q > 0.5) == (w > 0.5)) for q, w in zip(p, won))
    brier = sum((q - w) ** 2 for q, w in zip(p, won))
    return right / len(p), brier / len(p)


def paired_brier(p: Sequence[float], q: Sequence[float], won: Sequence[float]) -> Tuple[float, float, float]:
    """The mean of `q`'s squared error less `p`'s on the same positions, and its 95% normal
    interval (positive: `p` is the better)."""
    d = [(b - w) ** 2 - (a - w) ** 2 for a, b, w in zip(p, q, won)]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1))
    half = 1.96 * sd / math.sqrt(len(d))
    return mean, mean - half, mean + half


def judge_value(arena: str, game: str, agent: str, moves: List[str], seed: int) -> Optional[float]:
    """A judge's probability that the mover wins, or None for a position it decides at once."""
    found = re.search(r"value=(-?[0-9.eE+-]+)", think_line(arena, game, agent, " ".join(moves), seed))
    return None if not found else (1.0 + float(found.group(1))) / 2.0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--skip", type=int, default=2, help="positions from this ply on")
    parser.add_argument("--per-game", type=int, default=10)
    training_options(parser, lr=0.0005)
    parser.add_argument("--arena", help="the arena binary the judges think with")
    parser.add_argument("--judge", action="append", default=[], help="an agent spec")
    parser.add_argument("--judged", type=int, default=300)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        if min(args.layers, args.channels, args.epochs, args.batch, args.per_game) < 1:
            raise InputError("layers, channels, epochs, batch and per-game must be at least 1")
        if args.judge and not args.arena:
            raise InputError("--judge needs --arena")
        train, test, games, used = read_games(
            args.files, args.size, args.skip, args.per_game, args.seed, args.holdout
        )
        if not train or not test:
            raise InputError(f"{len(train)} training and {len(test)} held-out positions: need both")
    except InputError as e:
        print(f"value_net: {e}", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    board = Board(args.size)
    e_train = encode([t.position for t in train])[args.size]
    e_test = encode([t.position for t in test])[args.size]
    won_train = torch.tensor([t.won for t in train])
    won_test = [t.won for t in test]
    net = ValueNet(args.layers, args.channels, board.d * board.d)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    lines = []
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        loss = train_epoch(net, opt, e_train, won_train, args.batch, args.seed * 1000 + epoch)
        sched.step()
        right, brier = scores(predict(net, e_test, len(test)).tolist(), won_test)
        line = f"| {epoch} | {loss:.4f} | {100 * right:.1f}% | {brier:.4f} | {time.time() - start:.0f} |"
        print(line, flush=True)
        lines.append(line)
    os.makedirs(args.out, exist_ok=True)
    torch.save(net.state_dict(), os.path.join(args.out, "net.pt"))
    net_p = predict(net, e_test, len(test)).tolist()

    rng = random.Random(args.seed)
    picked = sorted(rng.sample(range(len(test)), min(args.judged, len(test))))
    game = f"havannah:size={args.size}"
    values: Dict[str, List[Optional[float]]] = {}
    try:
        for judge in args.judge:
            values[judge] = [
                judge_value(args.arena, game, judge, test[i].moves, len(test[i].moves))
                for i in picked
            ]
            print(f"judged by {judge}", flush=True)
    except Refused as e:
        print(f"value_net: {e}", file=sys.stderr)
        return 2
    kept = [k for k in range(len(picked)) if all(values[j][k] is not None for j in args.judge)]
    predictors: List[Tuple[str, List[float]]] = [
        ("½", [0.5] * len(kept)),
        ("the network", [net_p[picked[k]] for k in kept]),
        *[(f"`{j}`", [float(values[j][k]) for k in kept]) for j in args.judge],  # type: ignore[arg-type]
    ]
    won = [test[picked[k]].won for k in kept]
    ply = [len(test[picked[k]].moves) for k in kept]
    bands = [(lo, lo + 19) for lo in range(0, max(ply) + 1, 20)] if kept else []
    header = ["| predictor | all (" + str(len(kept)) + ") |"]
    for lo, hi in bands:
        header[0] += f" plies {lo}–{hi} ({sum(lo <= q <= hi for q in ply)}) |"
    table = [header[0], "|---|" + "---|" * (1 + len(bands))]
    for name, p in predictors:
        cells = [scores(p, won)] if kept else []
        for lo, hi in bands:
            sel = [i for i, q in enumerate(ply) if lo <= q <= hi]
            cells.append(scores([p[i] for i in sel], [won[i] for i in sel]) if sel else (math.nan, math.nan))
        table.append(f"| {name} | " + " | ".join(f"{100 * r:.1f}% / {b:.3f}" for r, b in cells) + " |")
    net_all = [(len(t.moves), q, t.won) for t, q in zip(test, net_p)]
    wide = ["| plies | positions | winner favoured | Brier |", "|---|---|---|---|"]
    for tens in range(0, max(n for n, _, _ in net_all) + 1, 10):
        band = [(q, w) for n, q, w in net_all if tens <= n < tens + 10]
        if band:
            r, b = scores([q for q, _ in band], [w for _, w in band])
            wide.append(f"| {tens}–{tens + 9} | {len(band)} | {100 * r:.1f}% | {b:.3f} |")
    late = [i for i, n in enumerate(ply) if n >= 40]
    paired = ["| judge | all | plies 40 and on |", "|---|---|---|"]
    for j in args.judge:
        judged = [float(values[j][k]) for k in kept]  # type: ignore[arg-type]
        texts: List[str] = []
        for among in (list(range(len(kept))), late):
            if len(among) > 1:
                m, low, high = paired_brier(
                    [predictors[1][1][i] for i in among],
                    [judged[i] for i in among],
                    [won[i] for i in among],
                )
                texts.append(f"{m:+.3f} [{low:+.3f}, {high:+.3f}] ({len(among)})")
            else:
                texts.append("–")
        paired.append(f"| `{j}` | " + " | ".join(texts) + " |")
    summary = [
        "# A learned value beside the search's (`tools/value_net.py`)",
        "",
        f"Files (size {args.size}): {' '.join(os.path.basename(f) for f in used)}",
        "",
        f"{games} decided games; {args.per_game} positions a game from ply {args.skip}; "
        f"{args.holdout:.0%} of games held out (seed {args.seed}): {len(train)} training and "
        f"{len(test)} held-out positions. Net: {args.layers} hex convolutions of "
        f"{args.channels} channels, two planes, 64 units; {args.epochs} epochs, Adam at "
        f"{args.lr} (cosine), batches of {args.batch}.",
        "",
        "| epoch | training loss | held out: winner favoured | Brier | s |",
        "|---|---|---|---|---|",
        *lines,
        "",
        f"On {len(kept)} of {len(picked)} held-out positions drawn by seed {args.seed} (those "
        "no judge decides at once): the share whose winner the predictor favours / the Brier "
        "score.",
        "",
        *table,
        "",
        "The judges' Brier score less the network's on the same positions (mean, 95% normal "
        "interval; above zero: the network reads them better):",
        "",
        *paired,
        "",
        f"The network on every held-out position ({len(net_all)}), by ply in tens:",
        "",
        *wide,
        "",
    ]
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(summary))
    print("\n".join(table + [""] + paired + [""] + wide))
    return 0


if __name__ == "__main__":
    sys.exit(main())
