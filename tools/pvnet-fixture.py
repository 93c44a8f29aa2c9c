"""Writes the fixture the Rust policy-value evaluator is checked on
(`agents/tests/data/pvnet-fixture-{square,hex}.*`): a random network of each kernel
(`ringside.zero.PvNet`, exported) and, for a few positions, PyTorch's outputs: the value, the
other move's logit and every grid cell's logit. Square: Connect Four boards (7×6 and 4×5);
hex: Havannah 4 and 5 (planes by `tools/policy_net.py`'s board). `python/tests` checks that
the files still read back to the same outputs.

    python3 tools/pvnet-fixture.py   # needs the learn extra (PyTorch) and the package
"""

import importlib.util
import os
import sys
from typing import List, Sequence

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from policy_net import Board  # noqa: E402

# The module by its path: the package around it needs its built extension, this does not.
_spec = importlib.util.spec_from_file_location(
    "ringside_zero", os.path.join(ROOT, "python", "py", "ringside", "zero.py")
)
assert _spec is not None and _spec.loader is not None
zero = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zero)
PLANES, PvNet, export = zero.PLANES, zero.PvNet, zero.export

OUT = os.path.join(ROOT, "agents", "tests", "data")


def connect_four_planes(rows: int, columns: int, moves: Sequence[str]) -> torch.Tensor:
    """Connect Four's planes as the engine's `grid_planes` writes them (no last-move plane)."""
    side = max(rows, columns)
    owner = [[-1] * rows for _ in range(columns)]
    heights = [0] * columns
    for ply, m in enumerate(moves):
        x = ord(m) - ord("a")
        owner[x][heights[x]] = ply % 2
        heights[x] += 1
    me = len(moves) % 2
    x_ = torch.zeros(PLANES, side, side)
    for x in range(columns):
        for y in range(rows):
            o = owner[x][y]
            x_[0 if o == me else 1 if o >= 0 else 2, y, x] = 1.0
            x_[3, y, x] = 1.0
            ends_x, ends_y = x in (0, columns - 1), y in (0, rows - 1)
            if ends_x and ends_y:
                x_[6, y, x] = 1.0
            elif ends_x or ends_y:
                x_[5, y, x] = 1.0
    return x_


def havannah_planes(base: int, moves: Sequence[str]) -> torch.Tensor:
    """Havannah's planes (the engine's `grid_planes`)."""
    board = Board(base)
    d = board.d
    cells = [board.cell(m) for m in moves]
    me = len(moves) % 2
    x_ = torch.zeros(PLANES, d * d)
    for i in range(d * d):
        if not board.on_board[i]:
            continue
        owner = cells.index(i) % 2 if i in cells else -1
        x_[0 if owner == me else 1 if owner >= 0 else 2, i] = 1.0
        x_[3, i] = 1.0
        if board.corner[i]:
            x_[6, i] = 1.0
        elif board.edge[i]:
            x_[5, i] = 1.0
    if cells:
        x_[4, cells[-1]] = 1.0
    return x_.reshape(PLANES, d, d)


def write(name: str, net: PvNet, cases: List[str], planes: List[torch.Tensor]) -> None:
    with open(os.path.join(OUT, f"pvnet-fixture-{name}.rspvn"), "wb") as f:
        f.write(export(net))
    lines = [
        "# A random policy-value network (python/py/ringside/zero.py's export) and, for each",
        "# position, PyTorch's value, other-move logit and every grid cell's logit (x + side*y):",
        "# the position, then |, value, other, cells.",
    ]
    with torch.no_grad():
        for case, x in zip(cases, planes):
            logits, value = net(x.unsqueeze(0))
            numbers = [value[0].item(), logits[0, -1].item(), *logits[0, :-1].tolist()]
            lines.append(case + " | " + " ".join(f"{v:.6f}" for v in numbers))
    with open(os.path.join(OUT, f"pvnet-fixture-{name}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main() -> None:
    torch.manual_seed(102)
    square = PvNet(False, layers=3, channels=5, hidden=4)
    hexnet = PvNet(True, layers=3, channels=5, hidden=4)
    for net in (square, hexnet):
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(3.0)
    c4 = [(6, 7, ""), (6, 7, "d d c e"), (4, 5, "a b c c e"), (6, 7, "d c d c d")]
    write(
        "square",
        square,
        [f"connect_four:rows={r},columns={c} {m}".rstrip() for r, c, m in c4],
        [connect_four_planes(r, c, m.split()) for r, c, m in c4],
    )
    hv = [(4, ""), (4, "d4 c3"), (5, "e5 d4 f6"), (5, "a1 e5 b2 c3 h6")]
    write(
        "hex",
        hexnet,
        [f"havannah:size={b} {m}".rstrip() for b, m in hv],
        [havannah_planes(b, m.split()) for b, m in hv],
    )


if __name__ == "__main__":
    main()
