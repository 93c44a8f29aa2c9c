"""Training speed of Ringside's network (``arena tune net``) written in PyTorch, for comparison.

The same net as ``agents/src/net.rs``: per colour's view an EmbeddingBag (sum) of ``H + 1``
lanes over the active inputs, the mover's view first, clipped ReLU on the ``H`` hidden lanes,
one output plus half the difference of the linear lanes; Texel's loss ``(sigmoid(K v) - y)^2``;
Adam at 0.002 in batches of 256. Positions are synthetic with the shape of Hexxagon's (61
cells, 2 planes, about 33 stones), since only the speed is measured. Prints positions a
second for one epoch, after a warm-up epoch.

    python python/bench/net_train_torch.py --threads 1 --positions 200000
"""

import argparse
import time

import torch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--positions", type=int, default=200_000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--cells", type=int, default=61)
    parser.add_argument("--stones", type=int, default=33)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    n, cells, stones, h = args.positions, args.cells, args.stones, args.hidden
    inputs = 2 * cells
    # Each position: `stones` distinct cells, each ZERO's or ONE's stone.
    occupied = torch.rand(n, cells).argsort(dim=1)[:, :stones]
    colour = torch.randint(0, 2, (n, stones))
    active = occupied + colour * cells
    mover = torch.randint(0, 2, (n,))
    label = torch.rand(n)
    views = torch.nn.ModuleList(
        [torch.nn.EmbeddingBag(inputs, h + 1, mode="sum") for _ in range(2)]
    )
    bias = torch.nn.Parameter(torch.zeros(2, h + 1))
    out = torch.nn.Linear(2 * h, 1)
    params = list(views.parameters()) + [bias] + list(out.parameters())
    opt = torch.optim.Adam(params, lr=0.002)
    k = 0.15

    def epoch() -> float:
        order = torch.randperm(n)
        start = time.perf_counter()
        for i in range(0, n, args.batch):
            idx = order[i : i + args.batch]
            a0 = views[0](active[idx]) + bias[0]
            a1 = views[1](active[idx]) + bias[1]
            m = mover[idx].unsqueeze(1).bool()
            mine = torch.where(m, a1, a0)
            theirs = torch.where(m, a0, a1)
            hidden = torch.cat([mine[:, :h], theirs[:, :h]], dim=1).clamp(0.0, 1.0)
            v = out(hidden).squeeze(1) + (mine[:, h] - theirs[:, h]) / 2
            loss = ((torch.sigmoid(k * v) - label[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return time.perf_counter() - start

    epoch()
    seconds = epoch()
    print(
        f"torch {torch.__version__} threads={args.threads} hidden={h} positions={n} "
        f"seconds={seconds:.2f} positions_per_s={n / seconds:.0f}"
    )


if __name__ == "__main__":
    main()
