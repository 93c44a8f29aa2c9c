"""What the package refuses (issue 101, item 7): an action, a player, a seed, a count or a cap is
an ``int`` or a NumPy integer, never a float that would be truncated, a string, or a bool
(``bool`` is a subclass of ``int`` only by an accident of Python's history; ``True`` is not
action 1). Anything else is a ``TypeError``; a whole number out of range (a player the game
does not have, ``ply_cap=-1``) a ``ValueError``. Every refusal tested here failed before: the
value was taken (``apply_action(1.9)`` played 1) or refused with the wrong error
(``OverflowError``); beside them, what must still be taken (NumPy integers, chance's player).

And one rule for an illegal action in the environments, single and vector alike: it loses."""

from typing import Any, Callable, List

import numpy as np
import pytest

import ringside

#: Not integers: each must be a TypeError wherever an action, a player or a count is taken.
NOT_INTEGERS: List[Any] = [1.9, 2.0, np.float32(2.7), True, False, np.True_, "3", None, [1]]

#: Integers of every kind an action may come as.
INTEGERS: List[Any] = [4, np.int64(4), np.int32(4), np.uint8(4), np.intp(4)]

#: What the type annotations refuse, to be passed as the runtime must refuse it.
HALF: Any = 1.5
TWO: Any = 2.0
ONE: Any = 1.0
ONE_NP: Any = np.int64(1)


def fresh() -> ringside.State:
    return ringside.load_game("tic_tac_toe").new_initial_state()


# Actions.


@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_apply_action_refuses_what_is_not_an_integer_and_plays_nothing(action: Any) -> None:
    state = fresh()
    with pytest.raises(TypeError, match="action must be an integer"):
        state.apply_action(action)
    assert state.history() == []


@pytest.mark.parametrize("action", INTEGERS, ids=repr)
def test_apply_action_takes_python_and_numpy_integers(action: Any) -> None:
    state = fresh()
    state.apply_action(action)
    assert state.history() == [4]


def test_an_action_out_of_every_range_is_a_value_error_not_an_overflow() -> None:
    state = fresh()
    with pytest.raises(ValueError, match="negative"):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="out of range"):
        state.apply_action(10**30)
    with pytest.raises(ValueError, match="negative"):
        state.action_to_string(-1)
    assert state.history() == []


def test_action_to_string_and_string_to_action_refuse_non_integers_and_non_strings() -> None:
    state = fresh()
    with pytest.raises(TypeError, match="action must be an integer"):
        state.action_to_string(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="action must be an integer"):
        state.action_to_string(0, True)
    with pytest.raises(TypeError, match="string"):
        state.string_to_action(4)
    with pytest.raises(TypeError):
        state.action_to_string()
    assert state.string_to_action(state.action_to_string(4)) == 4


# Players.


def test_a_player_the_game_does_not_have_is_a_value_error_in_every_method_that_takes_one() -> None:
    state = fresh()
    calls: List[Callable[[], object]] = [
        lambda: state.legal_actions(player=7),
        lambda: state.legal_actions(player=-4),
        lambda: state.legal_actions_mask(player=2),
        lambda: state.observation_tensor(player=5),
        lambda: state.observation_tensor(-1),
        lambda: state.observation_string(2),
        lambda: state.player_return(2),
        # returns()[-1] was player 1's return.
        lambda: state.player_return(-1),
        lambda: state.action_to_string(7, 4),
        lambda: state.string_to_action(5, "a1"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="player"):
            call()
    for call in [
        lambda: state.legal_actions(player=1.0),  # type: ignore[arg-type]
        lambda: state.observation_tensor(player=True),
    ]:
        with pytest.raises(TypeError, match="player must be an integer"):
            call()


def test_the_games_players_and_chance_are_still_taken_where_openspiel_takes_them() -> None:
    state = fresh()
    assert state.legal_actions(0) == state.legal_actions() and state.legal_actions(1) == []
    assert state.legal_actions_mask(ONE_NP).sum() == 0
    assert state.observation_tensor(1).shape == (7, 3, 3)
    assert state.player_return(ONE_NP) == 0.0
    assert state.action_to_string(0, 4) == "x(1,1)"
    chance = ringside.load_game("advance").new_initial_state()
    assert chance.legal_actions(ringside.CHANCE_PLAYER_ID) == [0, 1]
    assert chance.legal_actions(0) == []
    assert chance.action_to_string(ringside.CHANCE_PLAYER_ID, 0).startswith("start")


# The ply cap, seeds and counts.


@pytest.mark.parametrize("cap", [-1, 0, -(2**70)])
def test_a_ply_cap_below_one_is_one_clear_value_error(cap: int) -> None:
    with pytest.raises(ValueError, match="ply_cap must be at least 1"):
        ringside.load_game("rin", ply_cap=cap)
    with pytest.raises(ValueError, match="ply_cap must be at least 1"):
        ringside.match("tic_tac_toe", ["random", "random"], games=2, ply_cap=cap)


def test_a_ply_cap_too_large_or_not_an_integer_is_refused() -> None:
    with pytest.raises(ValueError, match="ply_cap must be at most 4294967295"):
        ringside.load_game("rin", ply_cap=2**32)
    for cap in [2.5, True, "100"]:
        with pytest.raises(TypeError, match="ply_cap must be an integer"):
            ringside.load_game("rin", ply_cap=cap)  # type: ignore[arg-type]
    seven: Any = np.int64(7)
    assert ringside.load_game("rin", ply_cap=seven).max_game_length() == 7


def test_seeds_counts_and_seats_are_integers_in_range() -> None:
    refused: List[Any] = [
        (TypeError, lambda: ringside.Agent("random", seed=True)),
        (TypeError, lambda: ringside.Agent("random", seed=HALF)),
        (ValueError, lambda: ringside.Agent("random", seed=-1)),
        (ValueError, lambda: ringside.Agent("random", seed=2**64)),
        (TypeError, lambda: ringside.VecEnv("tic_tac_toe", True)),
        (TypeError, lambda: ringside.VecEnv("tic_tac_toe", TWO)),
        (ValueError, lambda: ringside.VecEnv("tic_tac_toe", -1)),
        (ValueError, lambda: ringside.VecEnv("tic_tac_toe", 2, seed=-1)),
        (TypeError, lambda: ringside.VecEnv("tic_tac_toe", 2, opponent="random", seat=True)),
        (TypeError, lambda: ringside.VecEnv("tic_tac_toe", 2, opponent="random", seat=ONE)),
        (TypeError, lambda: ringside.VecEnv("tic_tac_toe", 2).random_steps(HALF)),
        (ValueError, lambda: ringside.VecEnv("tic_tac_toe", 2).random_steps(-1)),
        (TypeError, lambda: ringside.match("tic_tac_toe", ["random"] * 2, games=TWO)),
        (ValueError, lambda: ringside.match("tic_tac_toe", ["random"] * 2, games=-1)),
        (ValueError, lambda: ringside.match("tic_tac_toe", ["random"] * 2, seed=-1)),
        (ValueError, lambda: ringside.match("tic_tac_toe", ["random"] * 2, threads=-2)),
        (TypeError, lambda: ringside.match("tic_tac_toe", ["random"] * 2, opening_plies=HALF)),
    ]
    for error, call in refused:
        with pytest.raises(error):
            call()
    largest: Any = np.uint64(2**64 - 1)
    assert ringside.Agent("random", seed=largest).choose(fresh()) in range(9)


# Batched actions.


@pytest.mark.parametrize(
    "actions",
    [
        [0.7, 1.2, 2.9],
        np.array([0.7, 1.2, 2.9]),
        np.array([0, 1, 2], dtype=np.float32),
        np.array([True, False, True]),
        [True, 1, 2],
        [0, 1, "2"],
        "012",
    ],
    ids=repr,
)
def test_vecenv_step_refuses_actions_that_are_not_integers_and_plays_none(actions: Any) -> None:
    env = ringside.VecEnv("tic_tac_toe", 3, seed=1)
    env.reset()
    with pytest.raises(TypeError):
        env.step(actions)
    _, _, player = env.current()
    assert (player == 0).all(), "nothing was played"


@pytest.mark.parametrize(
    "actions", [np.array([[0, 1, 2]]), np.array([[0], [1], [2]]), [[0, 1, 2]], [0, 1], [0, 1, 2, 3]],
    ids=repr,
)
def test_vecenv_step_refuses_any_shape_but_one_action_a_game(actions: Any) -> None:
    env = ringside.VecEnv("tic_tac_toe", 3, seed=1)
    env.reset()
    with pytest.raises(ValueError, match="step takes 3 actions"):
        env.step(actions)
    _, _, player = env.current()
    assert (player == 0).all(), "nothing was played"


@pytest.mark.parametrize(
    "actions",
    [[0, 1, 2], (0, 1, 2), [np.int64(0), np.int32(1), 2], np.array([0, 1, 2], dtype=np.uint8),
     np.array([0, 1, 2], dtype=np.int32), np.array([0, 1, 2], dtype=object)],
    ids=repr,
)
def test_vecenv_step_takes_lists_of_integers_and_any_integer_dtype(actions: Any) -> None:
    env = ringside.VecEnv("tic_tac_toe", 3, seed=1)
    env.reset()
    _, _, _, _, player = env.step(actions)
    assert (player == 1).all()


# Python players.


def test_a_policy_answering_a_float_or_a_bool_stops_the_match_with_a_type_error() -> None:
    for answer in [1.9, True, "4"]:

        def policy(state: ringside.State, answer: Any = answer) -> Any:
            return answer

        with pytest.raises(TypeError, match="policy's action must be an integer"):
            ringside.match("tic_tac_toe", [policy, "random"], games=2)


def test_a_policy_answering_a_negative_action_loses_like_any_illegal_action() -> None:
    # It used to raise OverflowError from the conversion and stop the run.
    table = ringside.match("tic_tac_toe", [lambda s: -1, "random"], games=2, table=True)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    assert [r["reason"] for r in rows] == ["illegal_move", "illegal_move"]
    # NumPy integers are actions.
    def lowest(state: ringside.State) -> Any:
        return np.int64(min(state.legal_actions()))

    ringside.match("tic_tac_toe", [lowest, "random"], games=2)


# The environments.


def test_gymnasium_step_refuses_an_action_that_is_not_an_integer_and_plays_nothing() -> None:
    pytest.importorskip("gymnasium")
    import ringside.gymnasium as rg

    env = rg.RingsideEnv("connect_four")
    env.reset(seed=0)
    for action in ["3", 3.0, True, None]:
        with pytest.raises(TypeError, match="action must be an integer"):
            env.step(action)
    assert env.state_object.history() == []
    _, reward, terminated, _, _ = env.step(np.int64(3))
    assert (reward, terminated, env.state_object.history()[0]) == (0.0, False, 3)


def test_gymnasium_seats_and_illegal_rewards_are_refused_when_not_what_they_say() -> None:
    pytest.importorskip("gymnasium")
    import ringside.gymnasium as rg

    for seat in [True, 1.0]:
        with pytest.raises(TypeError, match="seat"):
            rg.RingsideEnv("connect_four", seat=seat)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="seat"):
            rg.make_vec("connect_four", 2, seat=seat)
    with pytest.raises(ValueError, match="seat"):
        rg.RingsideEnv("connect_four", seat="1")
    with pytest.raises(TypeError, match="illegal_reward"):
        rg.RingsideEnv("connect_four", illegal_reward="-1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="n must be an integer"):
        rg.make_vec("connect_four", 2.0)  # type: ignore[arg-type]
    assert rg.RingsideEnv("connect_four", seat=ONE_NP).seat == 1


def test_gymnasium_vector_step_refuses_floats_and_wrong_shapes() -> None:
    pytest.importorskip("gymnasium")
    import ringside.gymnasium as rg

    env = rg.make_vec("tic_tac_toe", 3, seat=0)
    env.reset(seed=1)
    with pytest.raises(TypeError):
        env.step([0.7, 1.2, 2.9])
    with pytest.raises(ValueError, match="step takes 3 actions"):
        env.step(np.array([[0, 1, 2]]))


def test_an_illegal_action_loses_in_the_single_and_the_vector_environment_alike() -> None:
    """The one rule for both: an illegal action (an integer that is no legal move here) ends
    the learner's game at once, terminated, with ``illegal_reward`` and
    ``info["illegal_action"]``. Why: PettingZoo's classic games with action masks end the game
    with the mover losing (``TerminateIllegalWrapper``, ``illegal_reward``), the arena scores
    an illegal move as a loss, and Gymnasium, which has no general rule, checks environments by
    stepping unmasked samples of the action space, so a masked environment must take an illegal
    action rather than raise. The vector environment used to raise instead."""
    pytest.importorskip("gymnasium")
    import ringside.gymnasium as rg

    single = rg.RingsideEnv("tic_tac_toe", seat=1, illegal_reward=-2)
    single.reset(seed=0)
    taken = single.state_object.history()[0]
    _, reward, terminated, truncated, info = single.step(taken)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)

    vector = rg.make_vec("tic_tac_toe", 3, seat=0, illegal_reward=-2)
    obs, info = vector.reset(seed=1)
    before = obs[2].copy()
    obs, rewards, ended, cut, info = vector.step([0, 4, 99])
    assert rewards.tolist() == [0.0, 0.0, -2.0]
    assert ended.tolist() == [False, False, True] and not cut.any()
    assert info["illegal_action"].tolist() == info["_illegal_action"].tolist() == [False, False, True]
    # The game that ended is kept as its final observation; a new one starts in its place.
    np.testing.assert_array_equal(info["final_obs"][2], before)
    assert info["action_mask"][2].all()
    # The next step has no illegal action: no flags.
    _, _, _, _, info = vector.step([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
    assert "illegal_action" not in info


def test_vecenv_raises_on_an_illegal_action_unless_given_an_illegal_reward() -> None:
    env = ringside.VecEnv("tic_tac_toe", 2, seed=1)
    env.reset()
    with pytest.raises(ValueError, match="game 1: action 9"):
        env.step([0, 9])
    _, mask, reward, done, player = env.step([0, 9], illegal_reward=-1.0)
    # Game 0 played its move; game 1 is lost by its mover (player 0) and started again.
    assert done.tolist() == [False, True] and env.illegal.tolist() == [False, True]
    assert reward.tolist() == [[0.0, 0.0], [-1.0, 0.0]]
    assert player.tolist() == [1, 0] and mask[1].all()
    assert not env.truncated.any()
    with pytest.raises(TypeError, match="illegal_reward"):
        env.step([1, 0], illegal_reward="-1")  # type: ignore[arg-type]


def test_pettingzoo_raw_env_refuses_an_action_that_is_not_an_integer() -> None:
    pytest.importorskip("pettingzoo")
    from ringside.pettingzoo import raw_env

    e = raw_env("connect_four")
    e.reset(seed=0)
    for action in [1.9, True, "3"]:
        with pytest.raises(TypeError, match="action must be an integer"):
            e.step(action)  # type: ignore[arg-type]
    assert e.state_object.history() == []


def test_openspiel_refuses_a_negative_ply_cap_with_a_value_error() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from ringside import openspiel

    openspiel.register()
    with pytest.raises(ValueError, match="ply_cap must be at least 1"):
        pyspiel.load_game("ringside_tic_tac_toe(ply_cap=-1)")
