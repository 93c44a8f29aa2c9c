"""The analysis scripts under tools/ that read games: each checked on hand-built games and
against the engine, through this package."""

import importlib.util
import os
import random
from types import ModuleType
from typing import List, Set

import pytest

import ringside
from conftest import ROOT


def tool(name: str) -> ModuleType:
    """The script tools/NAME.py as a module."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ends_exactly_at_the_last_move(spec: str, moves: List[str]) -> bool:
    """Whether the engine plays `moves` with the game over after the last and not before."""
    state = ringside.load_game(spec).new_initial_state()
    for name in moves:
        if state.is_terminal():
            return False
        state.apply_action(state.string_to_action(name))
    return state.is_terminal()


# Size 4 (cells a1..g7, corners a1 d1 g4 g7 d7 a4), White first. Black's stones never
# connect into anything.
HAND_BUILT = [
    # White's top row joins the corners a1 and d1.
    ("bridge", "a1 d4 b1 e5 c1 f6 d1"),
    # White's b-file and a2 touch the top edge (b1), the left edge (a2) and, with b5, the
    # lower left edge.
    ("fork", "b2 d4 b3 e5 b4 f6 a2 f4 b1 d6 b5"),
    # White's six stones around the empty d4.
    ("ring", "c3 a4 d3 g7 e4 b1 e5 e7 d5 g5 c4"),
    # The same ring around White's own stone on d4.
    ("ring", "d4 a4 c3 g7 d3 b1 e4 e7 e5 g5 d5 a3 c4"),
]


@pytest.mark.parametrize("kind,moves", HAND_BUILT)
def test_havannah_win_kinds_names_how_a_hand_built_game_was_won(kind: str, moves: str) -> None:
    kinds = tool("havannah_win_kinds")
    assert ends_exactly_at_the_last_move("havannah:size=4", moves.split())
    assert kinds.win_kind(4, moves.split()) == kind
    # Without its last move the game is not won, and the script says so.
    with pytest.raises(ValueError, match="wins nothing"):
        kinds.win_kind(4, moves.split()[:-2])


def test_havannah_win_kinds_finds_a_win_exactly_where_the_engine_ends_random_games() -> None:
    # The script's plain definitions against the engine's incremental detection: in random
    # games the last move makes a ring, bridge or fork, and nothing was made before it.
    kinds = tool("havannah_win_kinds")
    rng = random.Random(7)
    seen: Set[str] = set()
    for size in (4, 5, 6):
        game = ringside.load_game(f"havannah:size={size}")
        for _ in range(60):
            state = game.new_initial_state()
            moves: List[str] = []
            while not state.is_terminal():
                action = rng.choice(state.legal_actions())
                moves.append(state.action_to_string(action))
                state.apply_action(action)
            if state.returns()[0] == 0:
                continue  # a full board, drawn
            kind = kinds.win_kind(size, moves)
            seen.update(kind.split("+"))
    assert seen == {"ring", "bridge", "fork"}


def test_havannah_win_kinds_refuses_rows_it_cannot_read(tmp_path: "os.PathLike[str]") -> None:
    kinds = tool("havannah_win_kinds")
    with pytest.raises(ValueError, match="taken cell"):
        kinds.win_kind(4, ["a1", "a1"])
    with pytest.raises(ValueError, match="won before"):
        kinds.win_kind(4, "a1 d4 b1 e5 c1 f6 d1 g7 a2".split())
    with pytest.raises(ValueError, match="swap"):
        kinds.size_of("havannah:size=6,swap=on")
    bad = os.path.join(tmp_path, "bad.csv")
    with open(bad, "w") as f:
        f.write("id,game,reason,winner,first_spec,second_spec,moves\n")
        f.write("0,havannah:size=4,normal,first,random,random,a1 d4 b1\n")
    assert kinds.main([bad]) == 2
    other = os.path.join(tmp_path, "other.csv")
    with open(other, "w") as f:
        f.write("iteration,wins\n1,2\n")
    assert kinds.main([other]) == 2
