"""A worked learner: masked PPO on Connect Four through Ringside's Gymnasium vector
environment, with PyTorch on the CPU.

    python python/examples/learn_connect_four.py --minutes 10 --out learn-c4
    python python/examples/learn_connect_four.py --smoke          # a few updates, seconds

The learner plays both seats (half the games each) against an opponent searched in Rust
(``ringside.gymnasium.make_vec``): first ``random``, and once it wins 90% of its recent games,
``mcts:iters=50``. The policy is a small convolutional network over the observation planes
(7 × 6 × 7) with a policy head (illegal actions masked out of the softmax) and a value head,
trained by PPO (clipped objective, GAE). At the end the greedy policy plays 200 fresh games
against each opponent in a ``ringside.match`` (a Python player beside an agent spec;
colour-swapped pairs) and the script prints W-D-L, the score and its 95% Wilson interval;
``--out`` gets the training curve (``curve.csv``, ``curve.svg``), the scores
(``evaluation.md``), the weights (``policy.pt``) and each match's games
(``games-random.csv``, ``games-mcts-iters=50.csv``: ``arena summary`` reads them).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

import ringside
import ringside.gymnasium as rg

GAME = "connect_four"
CURRICULUM = ["random", "mcts:iters=50"]


class Policy(nn.Module):
    """Two 3×3 convolutions, a hidden layer, a masked policy head and a value head."""

    def __init__(self, planes: int, rows: int, columns: int, actions: int, width: int = 64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(planes, width, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(width * rows * columns, 128),
            nn.ReLU(),
        )
        self.policy = nn.Linear(128, actions)
        self.value = nn.Linear(128, 1)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


class Seats:
    """Two vector environments, the learner in seat 0 in one and seat 1 in the other."""

    def __init__(self, opponent: str, envs: int, seed: int):
        self.opponent = opponent
        self.parts = [
            rg.make_vec(GAME, envs // 2, opponent=opponent, seat=seat, seed=seed + seat)
            for seat in (0, 1)
        ]

    def reset(self, seed: int) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
        outs = [p.reset(seed=seed + i) for i, p in enumerate(self.parts)]
        return (
            np.concatenate([o for o, _ in outs]),
            np.concatenate([i["action_mask"] for _, i in outs]),
        )

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[
        npt.NDArray[np.int8], npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.bool_]
    ]:
        half = len(actions) // 2
        outs = [p.step(a) for p, a in zip(self.parts, (actions[:half], actions[half:]))]
        obs = np.concatenate([o[0] for o in outs])
        reward = np.concatenate([o[1] for o in outs])
        done = np.concatenate([o[2] | o[3] for o in outs])
        mask = np.concatenate([o[4]["action_mask"] for o in outs])
        return obs, mask, reward, done


def wilson(score: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """The 95% Wilson interval of a share."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class Greedy:
    """The trained network as a player of ``ringside.match``: the most probable legal action
    of the position it is given."""

    name = "ppo"

    def __init__(self, net: Policy):
        self.net = net

    def choose(self, state: ringside.State) -> int:
        player = state.current_player()
        obs = torch.as_tensor(state.observation_tensor(player), dtype=torch.float32)[None]
        mask = torch.as_tensor(state.legal_actions_mask(player).astype(bool))[None]
        with torch.no_grad():
            dist, _ = self.net(obs, mask)
        return int(dist.probs.argmax(dim=-1).item())


def evaluate(
    net: Policy, opponent: str, games: int, seed: int, out: Optional[str] = None
) -> Dict[str, float]:
    """The greedy policy against ``opponent`` in a ``ringside.match``: ``games`` games in
    colour-swapped pairs, seeds the training never used; the games go into ``out``."""
    table = ringside.match(GAME, [Greedy(net), opponent], games=games, seed=seed, out=out)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    wins = sum(1 for r in rows if r["winner_agent"] == 0)
    losses = sum(1 for r in rows if r["winner_agent"] == 1)
    draws = len(rows) - wins - losses
    n = wins + draws + losses
    score = (wins + 0.5 * draws) / n
    lo, hi = wilson(score, n)
    return {"w": wins, "d": draws, "l": losses, "score": score, "lo": lo, "hi": hi}


def write_curve(out: str, rows: List[Tuple[int, float, str]]) -> None:
    """The training curve: the learner's score over its last 400 games against the opponent of
    the time, by environment steps; a CSV and an SVG with the ½ line and the phases."""
    with open(os.path.join(out, "curve.csv"), "w") as f:
        f.write("steps,recent_score,opponent\n")
        for steps, score, opponent in rows:
            f.write(f"{steps},{score:.4f},{opponent}\n")
    if not rows:
        return
    width, height, left, bottom, top, right = 720, 400, 60, 50, 40, 20
    x_max = max(r[0] for r in rows) or 1

    def x(v: float) -> float:
        return left + (width - left - right) * v / x_max

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - v)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">'
        "Connect Four, masked PPO: score over the last 400 games</text>",
    ]
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        colour = "#888" if v == 0.5 else "#e5e5e5"
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}" stroke="{colour}"/>'
        )
        parts.append(f'<text x="{left - 8}" y="{y(v) + 4}" text-anchor="end">{v:g}</text>')
    for i in range(6):
        v = x_max * i / 5
        parts.append(
            f'<text x="{x(v)}" y="{height - bottom + 18}" text-anchor="middle">{v / 1e3:.0f}k</text>'
        )
    parts.append(
        f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle">'
        "environment steps (the learner's moves)</text>"
    )
    colours = {"random": "#0072b2", "mcts:iters=50": "#d55e00"}
    for opponent in dict.fromkeys(r[2] for r in rows):
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v, o in rows if o == opponent)
        colour = colours.get(opponent, "black")
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
    for i, opponent in enumerate(dict.fromkeys(r[2] for r in rows)):
        colour = colours.get(opponent, "black")
        ly = top + 60 + 18 * i  # upper right: the curves start low and end high on the left
        parts.append(
            f'<line x1="{width - 230}" x2="{width - 205}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        parts.append(f'<text x="{width - 198}" y="{ly + 4}">against {opponent}</text>')
    parts.append("</svg>")
    with open(os.path.join(out, "curve.svg"), "w") as f:
        f.write("\n".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--envs", type=int, default=128, help="games played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="a folder for the curve and scores")
    parser.add_argument("--smoke", action="store_true", help="two updates and a tiny check")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    envs, horizon = (8, 8) if args.smoke else (args.envs, 16)
    game = ringside.load_game(GAME)
    planes, rows, columns = game.observation_tensor_shape()
    actions = game.num_distinct_actions()
    net = Policy(planes, rows, columns, actions)
    optimiser = torch.optim.Adam(net.parameters(), lr=3e-4)

    phase = 0
    seats = Seats(CURRICULUM[phase], envs, args.seed)
    obs, mask = seats.reset(args.seed)
    recent: List[float] = []
    curve: List[Tuple[int, float, str]] = []
    steps = 0
    started = time.perf_counter()
    updates = 0
    while True:
        if args.smoke and updates == 2:
            break
        if not args.smoke and time.perf_counter() - started > 60 * args.minutes:
            break
        # A rollout of `horizon` learner moves in every game.
        batch_obs, batch_mask, batch_act, batch_logp, batch_val, batch_rew, batch_done = (
            [], [], [], [], [], [], []
        )
        for _ in range(horizon):
            o = torch.as_tensor(obs, dtype=torch.float32)
            m = torch.as_tensor(mask)
            with torch.no_grad():
                dist, value = net(o, m)
                action = dist.sample()
            obs, mask, reward, done = seats.step(action.numpy())
            batch_obs.append(o)
            batch_mask.append(m)
            batch_act.append(action)
            batch_logp.append(dist.log_prob(action))
            batch_val.append(value)
            batch_rew.append(torch.as_tensor(reward, dtype=torch.float32))
            batch_done.append(torch.as_tensor(done, dtype=torch.float32))
            recent.extend(((reward[done] + 1) / 2).tolist())
            steps += envs
        with torch.no_grad():
            _, last_value = net(torch.as_tensor(obs, dtype=torch.float32), torch.as_tensor(mask))
        # GAE, gamma 1 (rewards come at the end), lambda 0.95; a finished game bootstraps 0.
        advantages = torch.zeros(horizon, envs)
        next_value, running = last_value, torch.zeros(envs)
        for t in reversed(range(horizon)):
            alive = 1.0 - batch_done[t]
            delta = batch_rew[t] + next_value * alive - batch_val[t]
            running = delta + 0.95 * alive * running
            advantages[t] = running
            next_value = batch_val[t]
        returns = advantages + torch.stack(batch_val)
        flat_obs = torch.cat(batch_obs)
        flat_mask = torch.cat(batch_mask)
        flat_act = torch.cat(batch_act)
        flat_logp = torch.cat(batch_logp)
        flat_adv = advantages.flatten()
        flat_adv = (flat_adv - flat_adv.mean()) / (flat_adv.std() + 1e-8)
        flat_ret = returns.flatten()
        # PPO: 4 epochs of minibatches of 512, clip 0.2, entropy bonus 0.01.
        for _ in range(4):
            order = torch.randperm(len(flat_act))
            for start in range(0, len(order), 512):
                idx = order[start : start + 512]
                dist, value = net(flat_obs[idx], flat_mask[idx])
                ratio = (dist.log_prob(flat_act[idx]) - flat_logp[idx]).exp()
                clipped = ratio.clamp(0.8, 1.2)
                policy_loss = -torch.min(ratio * flat_adv[idx], clipped * flat_adv[idx]).mean()
                value_loss = 0.5 * (value - flat_ret[idx]).pow(2).mean()
                loss = policy_loss + value_loss - 0.01 * dist.entropy().mean()
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimiser.step()
        updates += 1
        recent = recent[-400:]
        if recent:
            score = float(np.mean(recent))
            curve.append((steps, score, seats.opponent))
            print(
                f"{time.perf_counter() - started:6.0f} s  steps {steps:8d}  "
                f"against {seats.opponent}: recent score {score:.3f} ({len(recent)} games)",
                flush=True,
            )
            # On to the stronger opponent once the learner wins 90% of 400 recent games.
            if score >= 0.9 and len(recent) == 400 and phase + 1 < len(CURRICULUM):
                phase += 1
                seats = Seats(CURRICULUM[phase], envs, args.seed + 10 * phase)
                obs, mask = seats.reset(args.seed + 10 * phase)
                recent = []

    seconds = time.perf_counter() - started
    games = 8 if args.smoke else 200
    lines = [
        f"Connect Four, masked PPO, {seconds / 60:.1f} min of training on this machine, "
        f"{steps:,} learner moves; the greedy policy in `ringside.match`, {games} games an "
        "opponent (colour-swapped pairs, seeds the training never used):",
        "",
        "| opponent | W-D-L | score | 95% interval |",
        "|---|---|---|---|",
    ]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for opponent in CURRICULUM:
        games_csv = None
        if args.out:
            games_csv = os.path.join(args.out, f"games-{opponent.replace(':', '-')}.csv")
        r = evaluate(net, opponent, games, seed=args.seed + 1000, out=games_csv)
        lines.append(
            f"| `{opponent}` | {r['w']:.0f}-{r['d']:.0f}-{r['l']:.0f} | {r['score']:.3f} "
            f"| [{r['lo']:.3f}, {r['hi']:.3f}] |"
        )
    print("\n".join(lines))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        write_curve(args.out, curve)
        torch.save(net.state_dict(), os.path.join(args.out, "policy.pt"))
        with open(os.path.join(args.out, "evaluation.md"), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
