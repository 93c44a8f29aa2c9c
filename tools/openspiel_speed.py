#!/usr/bin/env python3
"""Speed of Ringside's games beside OpenSpiel's, measured in one run on this machine (one
thread): the reference games and Havannah.

- Random playouts per second: `arena playouts --threads 1`, and beside it OpenSpiel's state
  driven from Python (legal_actions and apply_action each move; the Python binding exposes no
  C++ rollout call, so this figure includes Python's overhead and is only indicative).
- MCTS iterations per second from the start with random rollouts and UCT c = 1.4:
  pyspiel.MCTSBot (C++, solver off) against Ringside's `mcts` (solver and tree reuse off),
  both choosing one move, the median of 5 seeds each (single runs of a few milliseconds vary
  by a third from one to the next on this machine).

Needs `open_spiel` from PyPI and a release build of arena (`cargo build --release`):

    python3 tools/openspiel_speed.py > results/openspiel-speed/table.md
"""

import random
import re
import statistics
import subprocess
import sys
import time

import pyspiel

ARENA = "target/release/arena"
ITERATIONS = 20000

# (row label, OpenSpiel name, OpenSpiel parameters, Ringside spec)
GAMES = [
    ("Tic-tac-toe", "tic_tac_toe", {}, "tic_tac_toe"),
    ("Connect Four", "connect_four", {}, "connect_four"),
    ("Hex 11", "hex", {"board_size": 11}, "hex"),
    ("Hex 8", "hex", {"board_size": 8}, "hex:size=8"),
    ("Breakthrough 8x8", "breakthrough", {}, "breakthrough"),
    ("Othello", "othello", {}, "othello"),
    ("Havannah 8", "havannah", {"board_size": 8}, "havannah"),
    ("Havannah 10", "havannah", {"board_size": 10}, "havannah:size=10"),
]


def openspiel_playouts(name, params, seconds=3.0):
    game = pyspiel.load_game(name, params)
    rng = random.Random(7)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return count / (time.perf_counter() - start)


def openspiel_mcts(name, params, repeats=5):
    game = pyspiel.load_game(name, params)
    rates = []
    for seed in range(repeats):
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 1.4, ITERATIONS, 10**9, False, seed, False)
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.step(state)
        rates.append(ITERATIONS / (time.perf_counter() - start))
    return statistics.median(rates)


def arena(*args):
    return subprocess.run([ARENA, *args], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]


def ringside_playouts(spec):
    line = arena("playouts", "--game", spec, "-n", "20000", "--threads", "1", "--seed", "1")
    return float(re.search(r"playouts_per_s=(\d+)", line).group(1))


def ringside_mcts(spec, repeats=5):
    agent = f"mcts:iters={ITERATIONS},c=1.4,solver=off,reuse=off"
    rates = []
    for seed in range(1, repeats + 1):
        line = arena("think", "--game", spec, "--agent", agent, "--seed", str(seed))
        rates.append(float(re.search(r"iterations_per_s=(\d+)", line).group(1)))
    return statistics.median(rates)


def main():
    print("# Speed: Ringside beside OpenSpiel\n")
    print(f"One thread, same machine, one run of tools/openspiel_speed.py. OpenSpiel {getattr(pyspiel, '__version__', '?')};")
    print(f"MCTS: {ITERATIONS} iterations from the start, random rollouts, c = 1.4, median of 5 seeds.\n")
    print("| game | OpenSpiel playouts/s (Python-driven) | Ringside playouts/s | OpenSpiel C++ MCTSBot iter/s | Ringside MCTS iter/s | MCTS ratio |")
    print("|---|---|---|---|---|---|")
    for label, name, params, spec in GAMES:
        op, rp = openspiel_playouts(name, params), ringside_playouts(spec)
        om, rm = openspiel_mcts(name, params), ringside_mcts(spec)
        print(f"| {label} | {op:,.0f} | {rp:,.0f} | {om:,.0f} | {rm:,.0f} | {rm / om:.1f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
