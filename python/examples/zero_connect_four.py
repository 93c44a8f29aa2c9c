"""A worked example of `arena tune zero` from Python: run the loop for a few generations,
fine-tune its last network on every generation's self-play positions with
``ringside.zero.train``, and match the fine-tuned network against the loop's own with
``ringside.match`` (both played by ``mcts:pv=FILE``, the search in Rust).

    python python/examples/zero_connect_four.py --arena target/release/arena --out zero-c4
    python python/examples/zero_connect_four.py --arena target/release/arena --out zero-c4 --smoke

Needs the ``learn`` extra (PyTorch). ``--out`` gets the loop's folder (``run/``, resumable:
the same command again continues it), ``finetuned.rspvn`` and ``finetuned.pt``, the match's
games (``match.csv``) and the table it prints (``evaluation.md``).
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import subprocess
import sys

import torch

import ringside
from ringside import zero


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--arena", required=True, help="the arena binary")
    parser.add_argument("--out", required=True)
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=4, help="fine-tuning passes")
    parser.add_argument("--games", type=int, default=40, help="games of the final match (even)")
    parser.add_argument("--smoke", action="store_true", help="a tiny run, for the tests")
    args = parser.parse_args()
    game = "connect_four:rows=4,columns=5" if args.smoke else "connect_four"
    loop = [
        args.arena, "tune", "zero", "--game", game, "--out", os.path.join(args.out, "run"),
        "--generations", str(2 if args.smoke else args.generations), "--python", sys.executable,
        "--gate-games", "0", "--quiet",
    ]
    if args.smoke:
        loop += ["--games", "6", "--iters", "16", "--layers", "2", "--channels", "8", "--hidden", "8"]
    subprocess.run(loop, check=True)

    # The loop's last network, fine-tuned on every generation's positions.
    run = os.path.join(args.out, "run")
    last = sorted(glob.glob(os.path.join(run, "gen-*", "net.pt")))[-1]
    state = torch.load(last, weights_only=True)
    net = zero.PvNet(bool(state["hex_grid"]), int(state["layers"]), int(state["channels"]), int(state["hidden"]))
    net.load_state_dict(state["weights"])
    samples = zero.Samples(sorted(glob.glob(os.path.join(run, "gen-*", "selfplay.samples"))))
    record = zero.train(net, samples, epochs=2 if args.smoke else args.epochs, batch=128,
                        lr=3e-4, weight_decay=1e-4, holdout=0.1, seed=7)
    finetuned = os.path.join(args.out, "finetuned.rspvn")
    zero.write_atomically(finetuned, zero.export(net))
    torch.save({**state, "weights": net.state_dict()}, os.path.join(args.out, "finetuned.pt"))

    iters = 16 if args.smoke else 200
    games = 4 if args.smoke else args.games
    table = ringside.match(
        game,
        [f"mcts:pv={finetuned},iters={iters}", f"mcts:pv={last[:-3]}.rspvn,iters={iters}"],
        games=games, seed=11, opening_plies=2, out=os.path.join(args.out, "match.csv"),
    )
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    points = 0.0
    for r in rows:
        # Agent 0 is the fine-tuned network; the winner column names a colour.
        mine = "first" if int(r["first_agent"]) == 0 else "second"
        points += 1.0 if r["winner"] == mine else 0.5 if r["winner"] == "draw" else 0.0
    n = len(rows)
    score = points / n
    half = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / n)
    last_epoch = record[-1]
    text = (
        f"| network | held-out policy loss | held-out value loss | score against the loop's last ({n} games) |\n"
        f"|---|---|---|---|\n"
        f"| fine-tuned | {last_epoch.get('held_policy', float('nan')):.3f} | {last_epoch.get('held_value', float('nan')):.3f} "
        f"| {score:.3f} ± {half:.3f} |\n"
    )
    with open(os.path.join(args.out, "evaluation.md"), "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
