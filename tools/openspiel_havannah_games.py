#!/usr/bin/env python3
"""Plays uniformly random Havannah games in OpenSpiel and writes their moves and outcomes.

The file it writes is replayed by engine/tests/havannah_openspiel.rs, which requires Ringside's
engine to end each game at the same ply with the same result.

Regenerate (needs the `open_spiel` package from PyPI: pip install open_spiel):

    python3 tools/openspiel_havannah_games.py > engine/tests/data/havannah_openspiel.txt

Line format: `size swap result plies move move ...`, with result white, black or draw and the
moves in OpenSpiel's action names (letter for x, number for y + 1), which are Ringside's too.
"""

import random
import sys

import pyspiel

# (board size, swap rule, games)
PLAN = [(4, False, 250), (6, False, 200), (8, False, 120), (6, True, 50)]
SEED = 20261122


def play(game, rng):
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    returns = state.returns()
    result = "white" if returns[0] > 0 else "black" if returns[1] > 0 else "draw"
    return result, moves


def main():
    rng = random.Random(SEED)
    print(f"# OpenSpiel {getattr(pyspiel, '__version__', 'unknown')} havannah, random games, seed {SEED}")
    for size, swap, count in PLAN:
        game = pyspiel.load_game("havannah", {"board_size": size, "swap": swap})
        for _ in range(count):
            result, moves = play(game, rng)
            swap_text = "on" if swap else "off"
            print(f"{size} {swap_text} {result} {len(moves)} {' '.join(moves)}")


if __name__ == "__main__":
    sys.exit(main())
