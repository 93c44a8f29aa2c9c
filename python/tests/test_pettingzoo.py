"""The PettingZoo environments: PettingZoo's own API and seed tests for every game of the
registry, and the rules' turns, chance, rewards, truncation and illegal moves as PettingZoo
expects them."""

from typing import Any, List, Tuple

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import ringside  # noqa: E402
from conftest import GAMES  # noqa: E402
from ringside.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_pettingzoos_api_and_seed_tests(name: str) -> None:
    api_test(env(name, ply_cap=300), num_cycles=300)
    seed_test(lambda: env(name, ply_cap=300), num_cycles=300)


def play_random(e: Any, seed: int) -> Tuple[List[str], List[int]]:
    """Plays one game with masked random actions: the agents in the order they were asked to
    act, and their actions."""
    e.reset(seed=seed)
    order: List[str] = []
    actions: List[int] = []
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        order.append(agent)
        actions.append(action)
        e.step(action)
    return order, actions


def test_agents_act_as_the_rules_say_rins_double_moves_included() -> None:
    order, actions = play_random(env("rin:size=6", ply_cap=40), seed=5)
    assert order[:5] == ["player_0", "player_1", "player_1", "player_0", "player_0"]
    # The mover at every ply is the state's current player for the same actions.
    state = ringside.load_game("rin:size=6", ply_cap=40).new_initial_state()
    for agent, action in zip(order, actions):
        assert agent == f"player_{state.current_player()}"
        state.apply_action(action)
    assert state.is_terminal()


def test_the_drawn_first_player_comes_from_the_reset_seed() -> None:
    firsts = set()
    for seed in range(12):
        a = raw_env("advance")
        b = raw_env("advance")
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.agent_selection == b.agent_selection
        assert a.state_object.history() == b.state_object.history()
        firsts.add(a.agent_selection)
    assert firsts == {"player_0", "player_1"}, "chance draws both first players"


def test_a_win_pays_one_to_the_winner_and_minus_one_to_the_loser() -> None:
    e = raw_env("tic_tac_toe")
    e.reset(seed=0)
    for action in [0, 3, 1, 4, 2]:  # X takes the top row
        e.step(action)
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.truncations == {"player_0": False, "player_1": False}
    assert e._cumulative_rewards == {"player_0": 1, "player_1": -1}
    # The mask is empty for everyone once the game is over.
    assert e.observe("player_0")["action_mask"].sum() == 0


def test_the_ply_cap_truncates_with_no_reward() -> None:
    e = raw_env("havannah:size=4", ply_cap=3)
    e.reset(seed=0)
    for _ in range(3):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e._cumulative_rewards == {"player_0": 0, "player_1": 0}


def test_an_illegal_action_loses_under_the_wrapper_and_raises_in_the_raw_env() -> None:
    wrapped = env("connect_four")
    wrapped.reset(seed=0)
    for _ in range(6):  # fill column 0
        wrapped.step(0)
    agent = wrapped.agent_selection
    wrapped.step(0)
    _, reward, termination, _, _ = wrapped.last()
    assert termination
    assert wrapped.rewards[agent] == -1
    raw = raw_env("connect_four")
    raw.reset(seed=0)
    for _ in range(6):
        raw.step(0)
    with pytest.raises(ValueError):
        raw.step(0)


def test_each_agent_sees_the_states_tensor_and_only_the_mover_has_a_mask() -> None:
    e = raw_env("hex:size=5")
    e.reset(seed=0)
    e.step(12)
    state = e.state_object
    for player, agent in enumerate(e.possible_agents):
        seen = e.observe(agent)
        assert seen["observation"].dtype == np.int8
        np.testing.assert_array_equal(
            seen["observation"], state.observation_tensor(player).astype(np.int8)
        )
    assert e.observe("player_1")["action_mask"].sum() == 24
    assert e.observe("player_0")["action_mask"].sum() == 0
