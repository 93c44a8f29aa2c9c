"""The policy-value network of `mcts:pv=FILE` in PyTorch (issue 102): the model the Rust
agents evaluate (`agents/src/pvnet.rs`), its file format, and (in later steps) the trainer of
`arena tune zero`.

The network reads a grid game's position as 7 planes of the `side × side` grid, for the
player to move: its stones, the opponent's, the empty cells, the board's cells, the last
move, the edges (corners not among them), the corners (the engine's `grid_planes`; cell
`x + side·y` is row `y`, column `x` of the tensor). A trunk of 3×3 convolutions (on hex
grids, in axial coordinates, the two corners `(dx, dy) = (1, −1)` and `(−1, 1)` are held at
zero, so a cell sees its six neighbours), ReLU, each layer after the first adding its input
back; then a policy logit a cell (1×1 convolution), the logit of the one move that fills no
cell and the value `tanh(w₂·relu(W₁·m + b₁) + b₂)`, both from `m`, the trunk's mean over the
board's cells.

Needs the `learn` extra (PyTorch).
"""

import argparse
import io
import json
import os
import struct
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

import torch

PLANES = 7
MAGIC = b"RSPVN\x00\x00\x01"


class GridConv(torch.nn.Conv2d):
    """A 3×3 convolution, zero-padded; on a hex grid its corners `(1, −1)` and `(−1, 1)` are
    held at zero."""

    mask: torch.Tensor

    def __init__(self, inputs: int, outputs: int, hex_grid: bool):
        super().__init__(inputs, outputs, 3, padding=1)
        mask = torch.ones(1, 1, 3, 3)
        if hex_grid:
            mask[0, 0, 0, 2] = 0.0
            mask[0, 0, 2, 0] = 0.0
        self.register_buffer("mask", mask)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.conv2d(x, self.masked(), self.bias, padding=1)

    def masked(self) -> torch.Tensor:
        """The weights with the taps a hex grid does not read held at zero."""
        return self.weight * self.mask


class PvNet(torch.nn.Module):
    """The policy-value network: `layers` convolutions of `channels`, a value head of
    `hidden`."""

    def __init__(self, hex_grid: bool, layers: int = 4, channels: int = 32, hidden: int = 32):
        super().__init__()
        if layers < 1 or channels < 1 or hidden < 1:
            raise ValueError("layers, channels and hidden must be positive")
        self.hex_grid = hex_grid
        self.trunk = torch.nn.ModuleList(
            [GridConv(PLANES if i == 0 else channels, channels, hex_grid) for i in range(layers)]
        )
        self.policy = torch.nn.Conv2d(channels, 1, 1)
        self.other = torch.nn.Linear(channels, 1)
        self.value1 = torch.nn.Linear(channels, hidden)
        self.value2 = torch.nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """For planes `x` (`[n, 7, side, side]`): the logits of the `side²` cells and the
        other move (`[n, side² + 1]`), and the values (`[n]`)."""
        h = torch.relu(self.trunk[0](x))
        for conv in self.trunk[1:]:
            h = h + torch.relu(conv(h))
        n = x.shape[0]
        board = x[:, 3:4]
        m = (h * board).sum(dim=(2, 3)) / board.sum(dim=(2, 3)).clamp(min=1.0)
        cells = self.policy(h).reshape(n, -1)
        logits = torch.cat([cells, self.other(m)], dim=1)
        value = torch.tanh(self.value2(torch.relu(self.value1(m)))).squeeze(1)
        return logits, value


def convs_of(net: PvNet) -> List[GridConv]:
    """The trunk's convolutions, typed."""
    return [c for c in net.trunk if isinstance(c, GridConv)]


def export(net: PvNet) -> bytes:
    """The network in the format the agents crate reads (`agents/src/pvnet.rs`)."""
    convs = convs_of(net)
    channels = convs[0].out_channels
    out = bytearray(MAGIC)
    out += struct.pack(
        "<5I", PLANES, 7 if net.hex_grid else 9, len(convs), channels, net.value1.out_features
    )

    def put(t: torch.Tensor) -> None:
        out.extend(struct.pack(f"<{t.numel()}f", *t.detach().flatten().tolist()))

    for conv in convs:
        put(conv.masked())
        assert conv.bias is not None
        put(conv.bias)
    for layer in (net.policy, net.other, net.value1, net.value2):
        put(layer.weight)
        assert layer.bias is not None
        put(layer.bias)
    return bytes(out)


def read_export(data: bytes) -> PvNet:
    """A network from the bytes [`export`] wrote."""
    if data[:8] != MAGIC:
        raise ValueError("not a policy-value network (RSPVN version 1)")
    planes, taps, layers, channels, hidden = struct.unpack_from("<5I", data, 8)
    if planes != PLANES or taps not in (7, 9):
        raise ValueError(f"{planes} planes and {taps} taps: not a network this reads")
    net = PvNet(taps == 7, layers, channels, hidden)
    at = 8 + 20
    with torch.no_grad():
        params: List[torch.Tensor] = []
        for layer in [*convs_of(net), net.policy, net.other, net.value1, net.value2]:
            weight, bias = layer.weight, layer.bias
            assert isinstance(weight, torch.Tensor) and isinstance(bias, torch.Tensor)
            params += [weight, bias]
        for p in params:
            n = p.numel()
            p.copy_(torch.tensor(struct.unpack_from(f"<{n}f", data, at)).reshape(p.shape))
            at += 4 * n
    if at != len(data):
        raise ValueError(f"{len(data) - at} bytes after the value head")
    return net


SAMPLES_MAGIC = b"RSZSP\x00\x00\x01"


class Samples:
    """Self-play positions read from samples files (`arena tune zero` writes them: the grid
    planes, the root's visit shares and the result for the mover), with the board's
    symmetries."""

    def __init__(self, files: Sequence[str]):
        if not files:
            raise ValueError("no samples files")
        planes: List[torch.Tensor] = []
        policies: List[torch.Tensor] = []
        values: List[torch.Tensor] = []
        games: List[torch.Tensor] = []
        self.side = -1
        for k, name in enumerate(files):
            with open(name, "rb") as f:
                data = f.read()
            if data[:8] != SAMPLES_MAGIC:
                raise ValueError(f"{name}: not a samples file (RSZSP version 1)")
            p, side, count = struct.unpack_from("<3I", data, 8)
            if p != PLANES or (self.side >= 0 and side != self.side):
                raise ValueError(f"{name}: {p} planes of side {side}, not what the others hold")
            self.side = side
            cells = side * side
            at = 20
            perms = [list(struct.unpack_from(f"<{cells}I", data, at + 4 * cells * i)) for i in range(count)]
            at += 4 * cells * count
            self.symmetries = [list(range(cells))] + perms
            record = 4 + PLANES * cells + 4 * (cells + 1) + 4
            body = data[at:]
            if len(body) % record:
                raise ValueError(f"{name}: ends inside a record")
            n = len(body) // record
            rows = torch.frombuffer(bytearray(body), dtype=torch.uint8).reshape(n, record)
            games.append(rows[:, :4].contiguous().view(torch.int32).reshape(n).long() + k * 1_000_000)
            planes.append(rows[:, 4 : 4 + PLANES * cells])
            floats = rows[:, 4 + PLANES * cells :].contiguous().view(torch.float32)
            policies.append(floats[:, : cells + 1])
            values.append(floats[:, cells + 1])
        self.planes = torch.cat(planes)
        self.policy = torch.cat(policies)
        self.value = torch.cat(values)
        self.game = torch.cat(games)
        self.perms = torch.tensor(self.symmetries, dtype=torch.long)
        # Where each cell comes from under each symmetry: image[perm[c]] = x[c].
        self.inverse = torch.argsort(self.perms, dim=1)

    def __len__(self) -> int:
        return len(self.value)

    def batch(self, rows: torch.Tensor, sym: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Positions `rows`, each turned by its symmetry in `sym` (0: as played): the planes
        (`[n, 7, side, side]`), the visit shares (`[n, side² + 1]`) and the results."""
        side, cells = self.side, self.side * self.side
        inv = self.inverse[sym]  # [n, cells]
        x = self.planes[rows].reshape(len(rows), PLANES, cells).float()
        x = torch.gather(x, 2, inv.unsqueeze(1).expand(-1, PLANES, -1))
        p = self.policy[rows]
        p = torch.cat([torch.gather(p[:, :cells], 1, inv), p[:, cells:]], dim=1)
        return x.reshape(len(rows), PLANES, side, side), p, self.value[rows]


def losses(net: PvNet, x: torch.Tensor, p: torch.Tensor, z: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """The policy loss (cross-entropy of the visit shares) and the value loss (squared error
    of the result), each a mean over the positions."""
    logits, v = net(x)
    policy = -(p * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value = ((v - z) ** 2).mean()
    return policy, value


def write_atomically(path: str, data: bytes) -> None:
    """Writes `data` to a temporary file beside `path`, then renames it there."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def train(
    net: PvNet,
    samples: Samples,
    epochs: int,
    batch: int,
    lr: float,
    weight_decay: float,
    holdout: float,
    seed: int,
) -> List[Dict[str, float]]:
    """Trains `net` on `samples` (Adam; each position under a symmetry drawn afresh each
    epoch), holding out a share `holdout` of the games (every position of a game on one side
    of the split). Returns each epoch's mean losses, training and held out."""
    gen = torch.Generator().manual_seed(seed)
    ids = torch.unique(samples.game)
    shuffled = ids[torch.randperm(len(ids), generator=gen)]
    held = set(shuffled[: int(round(holdout * len(ids)))].tolist())
    is_held = torch.tensor([g in held for g in samples.game.tolist()], dtype=torch.bool)
    train_rows = torch.nonzero(~is_held).squeeze(1)
    held_rows = torch.nonzero(is_held).squeeze(1)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    k = len(samples.symmetries)
    record: List[Dict[str, float]] = []
    for _ in range(epochs):
        net.train()
        order = train_rows[torch.randperm(len(train_rows), generator=gen)]
        sums = [0.0, 0.0]
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            sym = torch.randint(0, k, (len(rows),), generator=gen)
            x, p, z = samples.batch(rows, sym)
            lp, lv = losses(net, x, p, z)
            opt.zero_grad()
            torch.autograd.backward(lp + lv)
            opt.step()
            sums[0] += lp.item() * len(rows)
            sums[1] += lv.item() * len(rows)
        entry = {
            "policy": sums[0] / max(len(order), 1),
            "value": sums[1] / max(len(order), 1),
        }
        if len(held_rows):
            net.eval()
            with torch.no_grad():
                x, p, z = samples.batch(held_rows, torch.zeros(len(held_rows), dtype=torch.long))
                lp, lv = losses(net, x, p, z)
            entry["held_policy"], entry["held_value"] = lp.item(), lv.item()
        record.append(entry)
    return record


def _main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ringside.zero",
        description="The policy-value network of arena tune zero: a new one, or one trained on self-play samples.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    init = sub.add_parser("init", help="a network of random weights")
    init.add_argument("--out", required=True, help="the folder for net.pt and net.rspvn")
    init.add_argument("--hex", action="store_true", help="a kernel for hex cells (else square)")
    init.add_argument("--layers", type=int, default=4)
    init.add_argument("--channels", type=int, default=32)
    init.add_argument("--hidden", type=int, default=32)
    init.add_argument("--seed", type=int, default=1)
    tr = sub.add_parser("train", help="train a network on samples files")
    tr.add_argument("--init", required=True, help="the network to start from (net.pt)")
    tr.add_argument("--out", required=True, help="the folder for net.pt, net.rspvn and train.json")
    tr.add_argument("--samples", nargs="+", required=True)
    tr.add_argument("--epochs", type=int, default=2)
    tr.add_argument("--batch", type=int, default=128)
    tr.add_argument("--lr", type=float, default=1e-3)
    tr.add_argument("--weight-decay", type=float, default=1e-4)
    tr.add_argument("--holdout", type=float, default=0.1)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--threads", type=int, default=0, help="torch's threads (0: its default)")
    args = parser.parse_args(argv)
    try:
        os.makedirs(args.out, exist_ok=True)
        if args.command == "init":
            torch.manual_seed(args.seed)
            net = PvNet(args.hex, args.layers, args.channels, args.hidden)
            info: Dict[str, object] = {"layers": args.layers, "channels": args.channels, "hidden": args.hidden}
        else:
            if args.threads > 0:
                torch.set_num_threads(args.threads)
            torch.manual_seed(args.seed)
            state = torch.load(args.init, weights_only=True)
            net = PvNet(bool(state["hex_grid"]), int(state["layers"]), int(state["channels"]), int(state["hidden"]))
            net.load_state_dict(state["weights"])
            samples = Samples(args.samples)
            started = time.time()
            epochs = train(net, samples, args.epochs, args.batch, args.lr, args.weight_decay, args.holdout, args.seed)
            info = {"samples": len(samples), "epochs": epochs, "seconds": round(time.time() - started, 3)}
        layers = len(net.trunk)
        channels = convs_of(net)[0].out_channels
        hidden = net.value1.out_features
        buffer = io.BytesIO()
        torch.save(
            {"hex_grid": net.hex_grid, "layers": layers, "channels": channels, "hidden": hidden, "weights": net.state_dict()},
            buffer,
        )
        write_atomically(os.path.join(args.out, "net.pt"), buffer.getvalue())
        write_atomically(os.path.join(args.out, "train.json"), (json.dumps(info, indent=1) + "\n").encode())
        # Last: its presence says the step is done.
        write_atomically(os.path.join(args.out, "net.rspvn"), export(net))
    except (OSError, ValueError, KeyError, RuntimeError) as e:
        print(f"error: {e}".splitlines()[0], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main())
