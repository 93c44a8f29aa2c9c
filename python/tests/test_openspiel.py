"""The OpenSpiel adapter: Havannah and the reference games against pyspiel's own games, and
OpenSpiel's MCTSBot playing every Ringside game through it."""

import random
from typing import Any, Dict

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

from ringside import openspiel  # noqa: E402
from conftest import GAMES  # noqa: E402

openspiel.register()


def agree_at_every_ply(theirs: Any, ours: Any, games: int, seed: int) -> int:
    """Plays `games` random games in both, requiring at every ply the same player to move,
    terminal state, legal actions, action strings and, at the end, returns and history.
    Returns the number of decided games."""
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    rng = random.Random(seed)
    decided = 0
    for _ in range(games):
        a, b = theirs.new_initial_state(), ours.new_initial_state()
        while True:
            assert a.current_player() == b.current_player()
            assert a.is_terminal() == b.is_terminal()
            if a.is_terminal():
                assert a.returns() == b.returns()
                decided += a.returns() != [0.0, 0.0]
                break
            legal = a.legal_actions()
            assert b.legal_actions() == legal
            action = rng.choice(legal)
            player = a.current_player()
            assert b.action_to_string(player, action) == a.action_to_string(player, action)
            a.apply_action(action)
            b.apply_action(action)
        assert b.history() == a.history()
    return decided


@pytest.mark.parametrize("size,swap", [(4, False), (5, True), (6, False), (8, True)])
def test_havannah_through_the_adapter_agrees_with_pyspiels_havannah(size: int, swap: bool) -> None:
    theirs = pyspiel.load_game("havannah", {"board_size": size, "swap": swap})
    ours = pyspiel.load_game(f"ringside_havannah(size={size},swap={'on' if swap else 'off'})")
    assert agree_at_every_ply(theirs, ours, 30, size) > 0


REFERENCE = [
    ("tic_tac_toe", {}, "ringside_tic_tac_toe()"),
    ("connect_four", {}, "ringside_connect_four()"),
    (
        "connect_four",
        {"rows": 5, "columns": 4, "x_in_row": 3},
        "ringside_connect_four(rows=5,columns=4,x_in_row=3)",
    ),
    ("hex", {"board_size": 5}, "ringside_hex(size=5)"),
    ("hex", {"board_size": 7, "swap": True}, "ringside_hex(size=7,swap=on)"),
    ("hex", {}, "ringside_hex()"),
    ("breakthrough", {}, "ringside_breakthrough()"),
    ("breakthrough", {"rows": 6, "columns": 5}, "ringside_breakthrough(rows=6,columns=5)"),
    ("othello", {}, "ringside_othello()"),
    ("mnk", {"m": 4, "n": 3, "k": 3}, "ringside_mnk(m=4,n=3,k=3)"),
    ("mnk", {"m": 3, "n": 6, "k": 4}, "ringside_mnk(m=3,n=6,k=4)"),
    ("mnk", {}, "ringside_mnk()"),
]


@pytest.mark.parametrize("name,params,ours", REFERENCE)
def test_the_reference_games_through_the_adapter_agree_with_pyspiels(
    name: str, params: Dict[str, Any], ours: str
) -> None:
    theirs = pyspiel.load_game(name, params)
    ours = pyspiel.load_game(ours)
    assert agree_at_every_ply(theirs, ours, 30, 11) > 0


def test_the_adapter_names_every_registry_game() -> None:
    names = openspiel.register()
    assert sorted(names) == sorted("ringside_" + g for g in GAMES)
    assert set(names) <= set(pyspiel.registered_names())


def test_parameters_come_from_the_registry_options_as_data() -> None:
    params = openspiel.parameters("havannah")
    assert params == {"size": 8, "swap": "off", "ply_cap": 1000}
    # Cells without a default (x=, o=) are no parameters.
    params = openspiel.parameters("advance")
    assert params == {"side": 6, "offset": 3, "first": "random", "ply_cap": 1000}
    assert openspiel.parameters("othello") == {"ply_cap": 1000}
    game = pyspiel.load_game("ringside_hexxagon(side=4,ply_cap=77)")
    assert game.max_game_length() == 77
    assert game.ringside.spec() == "hexxagon:side=4"


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_mcts_bot_plays_complete_games_of_every_game(name: str) -> None:
    game = pyspiel.load_game(f"ringside_{name}(ply_cap=40)")
    rng = np.random.RandomState(7)
    bots = [
        mcts.MCTSBot(game, 1.4, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        for _ in range(2)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    observation = state.observation_tensor(0)
    assert len(observation) == int(np.prod(game.observation_tensor_shape()))
