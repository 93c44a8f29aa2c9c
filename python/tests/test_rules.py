"""The Python states against the Rust engine as the arena runs it: random games played
from Python, replayed by `arena replay --every --json`, compared at every ply."""

import json
import random
import subprocess
from typing import List, Tuple

import pytest

import ringside
from conftest import CAP, GAMES


def play_random(
    game: ringside.Game, rng: random.Random
) -> Tuple[str, List[str], List[Tuple[int, List[str], bool]], List[float], bool]:
    """A random game from Python: its spec (chance drawn), moves, and per ply the player,
    board rows and terminal flag, then the returns."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        state.apply_action(rng.choice(outcomes)[0])
    spec = state.spec()
    moves: List[str] = []
    plies: List[Tuple[int, List[str], bool]] = []
    while True:
        rows = ["".join(r.split()) for r in str(state).splitlines()]
        plies.append((state.current_player(), rows, state.is_terminal()))
        if state.is_terminal():
            return spec, moves, plies, state.returns(), state.move_number() >= CAP
        check_position(state, rng)
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)


def check_position(state: ringside.State, rng: random.Random) -> None:
    """What can be checked inside one position: the mask, the notation of every legal
    action, an illegal action refused, a clone that does not share."""
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and legal
    mask = state.legal_actions_mask()
    assert list(mask.nonzero()[0]) == legal
    for a in rng.sample(legal, min(len(legal), 12)):
        assert state.string_to_action(state.action_to_string(a)) == a
    listed = set(legal)
    illegal = [a for a in range(state.num_distinct_actions()) if a not in listed]
    if illegal:
        copy = state.clone()
        with pytest.raises(ValueError):
            copy.apply_action(rng.choice(illegal))
        assert copy.history() == state.history()
    copy = state.clone()
    copy.apply_action(legal[0])
    assert len(copy.history()) == len(state.history()) + 1


@pytest.mark.parametrize("name", GAMES)
def test_python_state_agrees_with_the_engine_at_every_ply(name: str, arena: str) -> None:
    game = ringside.load_game(name, ply_cap=CAP)
    names = game.player_names()
    rng = random.Random(name)
    for _ in range(3):
        spec, moves, plies, returns, capped = play_random(game, rng)
        out = subprocess.run(
            [arena, "replay", "--game", spec, "--moves", " ".join(moves), "--json", "--every"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        replayed = [json.loads(line) for line in out.splitlines()]
        assert len(replayed) == len(plies) == len(moves) + 1
        for k, ((player, rows, terminal), arena_ply) in enumerate(zip(plies, replayed)):
            assert rows == arena_ply["board"], f"{spec} ply {k}"
            if terminal and capped:
                assert arena_ply["result"] is None and k == CAP
            elif terminal:
                assert arena_ply["to_move"] is None and arena_ply["result"] is not None
            else:
                assert names[player] == arena_ply["to_move"], f"{spec} ply {k}"
        result = replayed[-1]["result"]
        expected = {names[0]: [1.0, -1.0], names[1]: [-1.0, 1.0]}.get(result, [0.0, 0.0])
        assert returns == expected, (spec, result)
