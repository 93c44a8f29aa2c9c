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

import struct
from typing import Tuple

import torch

PLANES = 7
MAGIC = b"RSPVN\x00\x00\x01"


class GridConv(torch.nn.Conv2d):
    """A 3×3 convolution, zero-padded; on a hex grid its corners `(1, −1)` and `(−1, 1)` are
    held at zero."""

    def __init__(self, inputs: int, outputs: int, hex_grid: bool):
        super().__init__(inputs, outputs, 3, padding=1)
        mask = torch.ones(1, 1, 3, 3)
        if hex_grid:
            mask[0, 0, 0, 2] = 0.0
            mask[0, 0, 2, 0] = 0.0
        self.register_buffer("mask", mask)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.conv2d(x, self.weight * self.mask, self.bias, padding=1)


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


def export(net: PvNet) -> bytes:
    """The network in the format the agents crate reads (`agents/src/pvnet.rs`)."""
    convs = list(net.trunk)
    channels = convs[0].out_channels
    out = bytearray(MAGIC)
    out += struct.pack(
        "<5I", PLANES, 7 if net.hex_grid else 9, len(convs), channels, net.value1.out_features
    )

    def put(t: torch.Tensor) -> None:
        out.extend(struct.pack(f"<{t.numel()}f", *t.detach().flatten().tolist()))

    for conv in convs:
        put(conv.weight * conv.mask)
        put(conv.bias)
    for layer in (net.policy, net.other, net.value1, net.value2):
        put(layer.weight)
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
        params = []
        for conv in net.trunk:
            params += [conv.weight, conv.bias]
        for layer in (net.policy, net.other, net.value1, net.value2):
            params += [layer.weight, layer.bias]
        for p in params:
            n = p.numel()
            p.copy_(torch.tensor(struct.unpack_from(f"<{n}f", data, at)).reshape(p.shape))
            at += 4 * n
    if at != len(data):
        raise ValueError(f"{len(data) - at} bytes after the value head")
    return net
