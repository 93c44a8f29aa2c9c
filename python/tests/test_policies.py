"""Python players in `ringside.match`: the policy's moves are the ones recorded, it sees the
game with its history, its faults lose games, its exceptions stop the run."""

from pathlib import Path
from typing import Any, Dict, List

import pytest

import ringside


def lowest(state: ringside.State) -> int:
    """The legal action with the smallest number."""
    return min(state.legal_actions())


def replay(spec: str, moves: str) -> List[ringside.State]:
    """The states before each recorded move of a games-table row."""
    game = ringside.load_game(spec)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = []
    for text in moves.split():
        before.append(state.clone())
        state.apply_action(state.string_to_action(text))
    return before


def rows(table: Any) -> List[Dict[str, Any]]:
    return table.to_dict("records") if hasattr(table, "to_dict") else list(table)


def test_a_callable_plays_every_move_of_its_seat_and_is_recorded_by_name() -> None:
    table = rows(ringside.match("connect_four", [lowest, "random"], games=10, seed=5))
    assert len(table) == 10
    for row in table:
        policy_first = row["first_spec"] == "host:name=lowest"
        assert {row["first_spec"], row["second_spec"]} == {"host:name=lowest", "random"}
        states = replay(row["game"], row["moves"])
        mine = [s for i, s in enumerate(states) if (i % 2 == 0) == policy_first]
        assert mine, row
        for state, text in zip(states, row["moves"].split()):
            if state in mine:
                assert state.action_to_string(lowest(state)) == text, row
    # Column a first, every move: random seldom stops four in a column.
    won = sum(r["winner_agent"] == 0 for r in table)
    assert won >= 7, table


def test_an_object_with_choose_is_named_by_its_name_and_sees_the_history() -> None:
    seen: List[int] = []

    class Counter:
        name = "counts moves"

        def choose(self, state: ringside.State) -> int:
            # The state carries its whole game: its history has one action a move (and
            # chance's draw in Advance, which draws the first player).
            assert len(state.history()) == state.move_number() + 1
            assert state.current_player() in (0, 1)
            seen.append(state.move_number())
            return state.legal_actions()[-1]

    table = rows(ringside.match("advance", [Counter(), "random"], games=4, seed=2,
                                opening_plies=2, ply_cap=40))
    assert all("host:name=counts_moves" in (r["first_spec"], r["second_spec"]) for r in table)
    assert seen and min(seen) >= 2


def test_an_illegal_action_loses_the_game_and_an_exception_stops_the_run() -> None:
    table = rows(ringside.match("connect_four", [lambda s: 99, "random"], games=2, seed=1))
    assert [r["reason"] for r in table] == ["illegal_move", "illegal_move"]
    assert all(r["winner_agent"] == 1 for r in table)
    assert all(r["first_spec"] in ("host:name=_lambda_", "random") for r in table)

    def broken(state: ringside.State) -> int:
        raise KeyError("no such move")

    with pytest.raises(KeyError, match="no such move"):
        ringside.match("connect_four", [broken, "random"], games=4, seed=1)
    # The name is free again once the call returns, even after an exception.
    ringside.match("connect_four", [broken if False else lowest, "random"], games=2)


def test_a_policy_match_resumes_its_file_and_two_policies_play_each_other(
    tmp_path: Path,
) -> None:
    out = tmp_path / "games.csv"

    def highest(state: ringside.State) -> int:
        return max(state.legal_actions())

    first = ringside.match("tic_tac_toe", [lowest, highest], games=4, out=out, table=False)
    assert first["played"] == 4
    again = ringside.match("tic_tac_toe", [lowest, highest], games=4, out=out, table=False)
    assert (again["resumed"], again["played"]) == (4, 0)
    # Both deterministic: the two colours of each pair play the same two games.
    table = rows(ringside.read_games(out))
    assert len({r["moves"] for r in table}) == 2


def test_a_host_spec_nobody_registered_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no agent named 'nobody'"):
        ringside.match("connect_four", ["host:name=nobody", "random"], games=2)
    with pytest.raises(ValueError, match="expected a spec, a callable"):
        ringside.match("connect_four", [42, "random"], games=2)
