#!/usr/bin/env python3
"""Plays uniformly random games of the field's reference games in OpenSpiel and writes, ply by
ply, what OpenSpiel says: the action played, its action string, how many actions were legal
and their sum, and at the end the returns.

Each file it writes is replayed by engine/tests/openspiel_games.rs, which requires Ringside's
engine to agree at every ply: the same player to move, the same legal actions (count and sum
of action numbers), the same action number and action string for the move played, the game
over at the same ply with the same returns.

Regenerate (needs the `open_spiel` package from PyPI: pip install open_spiel):

    python3 tools/openspiel_games.py engine/tests/data/openspiel

or only some of the files, by name (each file draws from its own seeded generator, so the
others are not needed to reproduce it):

    python3 tools/openspiel_games.py engine/tests/data/openspiel mnk

Line format: `spec return0 plies step step ...`, with `spec` Ringside's game spec, `return0`
player 0's return (1, 0 or -1), and each step `action;string;legal;sum` (semicolons: some
action strings hold commas).
"""

import os
import random
import sys

import pyspiel

# file name -> [(OpenSpiel name, OpenSpiel parameters, Ringside spec, games)]
PLAN = {
    "tic_tac_toe": [("tic_tac_toe", {}, "tic_tac_toe", 1000)],
    "connect_four": [
        ("connect_four", {}, "connect_four", 600),
        ("connect_four", {"rows": 4, "columns": 5}, "connect_four:rows=4,columns=5", 150),
        ("connect_four", {"rows": 5, "columns": 4, "x_in_row": 3}, "connect_four:rows=5,columns=4,x_in_row=3", 150),
        ("connect_four", {"rows": 6, "columns": 9, "x_in_row": 5}, "connect_four:columns=9,x_in_row=5", 100),
        ("connect_four", {"rows": 9, "columns": 12}, "connect_four:rows=9,columns=12", 60),
    ],
    "hex": [
        ("hex", {"board_size": 3}, "hex:size=3", 300),
        ("hex", {"board_size": 5}, "hex:size=5", 200),
        ("hex", {"board_size": 5, "swap": True}, "hex:size=5,swap=on", 150),
        ("hex", {"board_size": 8}, "hex:size=8", 100),
        ("hex", {"board_size": 11}, "hex", 60),
        ("hex", {"board_size": 11, "swap": True}, "hex:swap=on", 40),
    ],
    "breakthrough": [
        ("breakthrough", {}, "breakthrough", 150),
        ("breakthrough", {"rows": 6, "columns": 5}, "breakthrough:rows=6,columns=5", 150),
        ("breakthrough", {"rows": 4, "columns": 3}, "breakthrough:rows=4,columns=3", 150),
    ],
    "othello": [("othello", {}, "othello", 150)],
    "mnk": [
        ("mnk", {"m": 3, "n": 3, "k": 3}, "mnk:m=3,n=3,k=3", 300),
        ("mnk", {"m": 4, "n": 4, "k": 3}, "mnk:m=4,n=4,k=3", 200),
        ("mnk", {"m": 5, "n": 4, "k": 4}, "mnk:m=5,n=4,k=4", 150),
        ("mnk", {"m": 3, "n": 6, "k": 4}, "mnk:m=3,n=6,k=4", 150),
        ("mnk", {"m": 7, "n": 2, "k": 3}, "mnk:m=7,n=2,k=3", 100),
        ("mnk", {}, "mnk", 40),
    ],
}
SEED = 20261125


def play(game, rng):
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        swap = [a for a in legal if state.action_to_string(state.current_player(), a) == "swap"]
        if swap and rng.random() < 0.5:
            # Half the games that may swap do, so the swap is well covered.
            action = swap[0]
        text = state.action_to_string(state.current_player(), action)
        steps.append(f"{action};{text};{len(legal)};{sum(legal)}")
        state.apply_action(action)
    return int(state.returns()[0]), steps


def main(out_dir, files):
    os.makedirs(out_dir, exist_ok=True)
    version = getattr(pyspiel, "__version__", "unknown")
    unknown = set(files) - set(PLAN)
    if unknown:
        sys.exit(f"no such file in the plan: {', '.join(sorted(unknown))}")
    for file, entries in PLAN.items():
        if files and file not in files:
            continue
        rng = random.Random(f"{SEED}-{file}")
        with open(os.path.join(out_dir, f"{file}.txt"), "w") as out:
            out.write(f"# OpenSpiel {version} {file}, random games, seed {SEED}\n")
            for name, params, spec, count in entries:
                game = pyspiel.load_game(name, params)
                for _ in range(count):
                    ret, steps = play(game, rng)
                    out.write(f"{spec} {ret} {len(steps)} {' '.join(steps)}\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
