#!/usr/bin/env python3
"""Havannah speed, Ringside beside OpenSpiel, measured in one run on this machine (one thread).

- Random playouts per second: `arena playouts --threads 1`, and beside it OpenSpiel's state
  driven from Python (legal_actions and apply_action each move; the Python binding exposes no
  C++ rollout call, so this figure includes Python overhead and is only indicative).
- MCTS iterations per second from the empty board with random rollouts and UCT c = 1.4:
  pyspiel.MCTSBot (solver off) against Ringside's `mcts` (solver and tree reuse off), both
  choosing one move.

Needs `open_spiel` from PyPI and a release build of arena (`cargo build --release`):

    python3 tools/havannah_speed.py > results/havannah-speed/table.md
"""

import random
import re
import subprocess
import sys
import time

import pyspiel

ARENA = "target/release/arena"
SIZES = [8, 10]
ITERATIONS = 20000


def openspiel_playouts(size, seconds=3.0):
    game = pyspiel.load_game("havannah", {"board_size": size})
    rng = random.Random(7)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return count / (time.perf_counter() - start)


def openspiel_mcts(size, repeats=3):
    game = pyspiel.load_game("havannah", {"board_size": size})
    best = 0.0
    for seed in range(repeats):
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 1.4, ITERATIONS, 10**9, False, seed, False)
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.step(state)
        best = max(best, ITERATIONS / (time.perf_counter() - start))
    return best


def arena(*args):
    return subprocess.run([ARENA, *args], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]


def ringside_playouts(size):
    line = arena("playouts", "--game", f"havannah:size={size}", "-n", "20000", "--threads", "1", "--seed", "1")
    return float(re.search(r"playouts_per_s=(\d+)", line).group(1))


def ringside_mcts(size, repeats=3):
    spec = f"mcts:iters={ITERATIONS},c=1.4,solver=off,reuse=off"
    rates = []
    for seed in range(1, repeats + 1):
        line = arena("think", "--game", f"havannah:size={size}", "--agent", spec, "--seed", str(seed))
        rates.append(float(re.search(r"iterations_per_s=(\d+)", line).group(1)))
    return max(rates)


def main():
    print("# Havannah speed: Ringside beside OpenSpiel\n")
    print(f"One thread, same machine, one run of tools/havannah_speed.py. OpenSpiel {getattr(pyspiel, '__version__', '?')};")
    print(f"MCTS: {ITERATIONS} iterations from the empty board, random rollouts, c = 1.4, best of 3.\n")
    print("| size | OpenSpiel playouts/s (Python-driven) | Ringside playouts/s | OpenSpiel C++ MCTSBot iter/s | Ringside MCTS iter/s | MCTS ratio |")
    print("|---|---|---|---|---|---|")
    for size in SIZES:
        op, rp = openspiel_playouts(size), ringside_playouts(size)
        om, rm = openspiel_mcts(size), ringside_mcts(size)
        print(f"| {size} | {op:,.0f} | {rp:,.0f} | {om:,.0f} | {rm:,.0f} | {rm / om:.1f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
