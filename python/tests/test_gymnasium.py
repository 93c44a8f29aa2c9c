"""The Gymnasium environment: Gymnasium's own checker for every game of the registry, and one
seat against an agent played as the rules say (seats, chance, double moves, rewards,
illegal actions, seeds)."""

from typing import Any, Dict, List, Tuple, cast

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("gymnasium")
import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import ringside  # noqa: E402
import ringside.gymnasium as rg  # noqa: E402
from conftest import GAMES  # noqa: E402


@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_gymnasiums_checker_in_either_seat(name: str) -> None:
    for seat in (0, 1, "random"):
        check_env(rg.RingsideEnv(name, seat=seat, ply_cap=300), skip_render_check=True)


def episode(
    env: "gymnasium.Env[Any, Any]", seed: int, policy_seed: int = 0
) -> Tuple[List[npt.NDArray[np.int8]], List[float], bool, bool, Dict[str, Any]]:
    """One episode with masked random learner actions: observations, rewards, the final
    flags and info."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    seen = [observation]
    rewards: List[float] = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append(observation)
        rewards.append(float(reward))
        if terminated or truncated:
            return seen, rewards, terminated, truncated, info


def test_a_seed_fixes_the_episode_opponent_chance_and_seat_included() -> None:
    def make() -> "gymnasium.Env[Any, Any]":
        return rg.make("advance", opponent="mcts:iters=30", seat="random")

    a = episode(make(), seed=11)
    b = episode(make(), seed=11)
    assert len(a[0]) == len(b[0])
    for x, y in zip(a[0], b[0]):
        np.testing.assert_array_equal(x, y)
    assert a[1] == b[1] and a[4]["seat"] == b[4]["seat"]
    seats = {rg.make("advance", seat="random").reset(seed=s)[1]["seat"] for s in range(16)}
    assert seats == {0, 1}


def test_the_reward_is_the_learners_return_and_comes_only_at_the_end() -> None:
    for seat in (0, 1):
        env = rg.RingsideEnv("tic_tac_toe", seat=seat)
        _, rewards, terminated, truncated, info = episode(env, seed=seat)
        assert terminated and not truncated
        assert all(r == 0 for r in rewards[:-1])
        assert rewards[-1] == env.state_object.returns()[seat]
        assert not info["action_mask"].any()


def test_the_second_seat_starts_after_the_opponents_first_move() -> None:
    env = rg.RingsideEnv("tic_tac_toe", seat=1)
    observation, info = env.reset(seed=0)
    assert env.state_object.move_number() == 1
    assert info["action_mask"].sum() == 8
    np.testing.assert_array_equal(info["action_mask"], env.action_masks())
    # The opponent's cell is in range but illegal: the episode ends there.
    taken = env.state_object.history()[0]
    _, reward, terminated, _, info = env.step(taken)
    assert (reward, terminated, info.get("illegal_action")) == (-1.0, True, True)


def test_the_opponent_plays_every_turn_not_the_learners_rins_double_moves_included() -> None:
    env = rg.RingsideEnv("rin:size=6", seat=0, ply_cap=60)
    observation, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    plies_between = []
    for _ in range(8):
        before = env.state_object.move_number()
        assert env.state_object.current_player() == 0
        observation, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        plies_between.append(env.state_object.move_number() - before)
        if terminated or truncated:
            break
    # B, W, W, B, B, W, W, ...: after the learner's first ply the opponent plays two; after
    # the learner's first double move (two steps) it plays two again.
    assert plies_between[:3] == [3, 1, 3]


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    env = rg.RingsideEnv("connect_four", illegal_reward=-5)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(env.game.num_distinct_actions() + 3)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    with pytest.raises(RuntimeError):
        env.step(0)


def test_the_ply_cap_truncates() -> None:
    env = rg.RingsideEnv("havannah:size=4", ply_cap=4)
    _, rewards, terminated, truncated, _ = episode(env, seed=0)
    assert truncated and not terminated and rewards == [0.0, 0.0]


def test_a_search_player_beats_a_random_opponent_through_the_environment() -> None:
    env = rg.make("connect_four", opponent="random", seat="random")
    learner = ringside.Agent("mcts:iters=300", seed=4)
    total = 0.0
    for seed in range(10):
        env.reset(seed=seed)
        while True:
            action = learner.choose(cast(rg.RingsideEnv, env.unwrapped).state_object)
            _, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                total += float(reward)
                break
    assert total >= 6, total


def test_bad_specs_and_seats_are_one_clear_value_error() -> None:
    with pytest.raises(ValueError, match="chess"):
        rg.RingsideEnv("chess")
    with pytest.raises(ValueError):
        rg.RingsideEnv("connect_four", opponent="mcts:iters=-3")
    with pytest.raises(ValueError, match="seat"):
        rg.RingsideEnv("connect_four", seat=2)
