"""Batched play in Rust: VecEnv against an opponent searched in Rust, random steps without a
Python loop, truncation and final observations, and the Gymnasium vector environment on top."""

from typing import List, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import ringside

gymnasium = pytest.importorskip("gymnasium")
import ringside.gymnasium as rg  # noqa: E402


def learner_game(
    env: ringside.VecEnv, steps: int, policy_seed: int = 0
) -> List[ringside.Step]:
    """Steps `env` with masked random learner actions: every step's outputs."""
    _, mask, player = env.reset()
    # One stream a game, so that a game's actions do not depend on the batch's size.
    rngs = [np.random.default_rng([policy_seed, i]) for i in range(len(env))]
    seen = []
    for _ in range(steps):
        actions = [int(r.choice(np.flatnonzero(m))) for r, m in zip(rngs, mask)]
        obs, mask, reward, done, player = env.step(actions)
        seen.append((obs.copy(), mask.copy(), reward.copy(), done.copy(), player.copy()))
    return seen


def test_with_an_opponent_the_learner_is_always_to_move() -> None:
    for seat in (0, 1):
        env = ringside.VecEnv("rin:size=6", 6, seed=2, opponent="random", seat=seat)
        _, mask, player = env.reset()
        assert (player == seat).all() and mask.any(axis=1).all()
        for _, mask, _, _, player in learner_game(env, 40):
            assert (player == seat).all()
            assert mask.any(axis=1).all()


def test_a_games_opponent_depends_on_the_seed_and_its_index_not_on_the_batch_or_threads() -> None:
    # 70 games are stepped on rayon's threads; 3 on the calling thread.
    small = learner_game(ringside.VecEnv("hex:size=5", 3, seed=9, opponent="mcts:iters=20"), 12)
    large = learner_game(ringside.VecEnv("hex:size=5", 70, seed=9, opponent="mcts:iters=20"), 12)
    for a, b in zip(small, large):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, np.asarray(y)[:3])


def test_a_search_opponent_beats_a_random_learner() -> None:
    env = ringside.VecEnv("connect_four", 16, seed=1, opponent="mcts:iters=200", seat=0)
    total, games = 0.0, 0
    for _, _, reward, done, _ in learner_game(env, 40):
        total += reward[done, 0].sum()
        games += int(done.sum())
    assert games >= 16
    assert total / games < -0.5, (total, games)


def test_the_cap_truncates_and_the_final_observation_is_kept() -> None:
    game = ringside.load_game("havannah:size=4", ply_cap=3)
    env = ringside.VecEnv(game, 4, seed=1)
    obs, mask, _ = env.reset()
    for _ in range(3):
        obs, mask, reward, done, _ = env.step([int(np.flatnonzero(m)[0]) for m in mask])
    assert done.all() and env.truncated.all() and not reward.any()
    # The final observation is the capped game's (three stones a game), the observation the
    # new game's (none).
    assert env.final_observations.shape == obs.shape
    assert env.final_observations[:, :2].sum() == 3 * 4
    assert obs[:, :2].sum() == 0


def test_random_steps_play_uniform_random_games_seeded_whatever_the_batch() -> None:
    def in_rust(
        n: int, k: int, seed: int = 5
    ) -> Tuple[
        npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]
    ]:
        env = ringside.VecEnv("tic_tac_toe", n, seed=seed, observations=False)
        env.reset()
        episodes, returns = env.random_steps(k)
        _, mask, player = env.current()
        return episodes, returns, mask, player

    # A game's play depends on the seed and its index only (70 games use rayon's threads).
    for a, b in zip(in_rust(3, 200), in_rust(70, 200)):
        np.testing.assert_array_equal(a, np.asarray(b)[:3])
    assert not np.array_equal(in_rust(70, 200)[1], in_rust(70, 200, seed=6)[1])
    # Uniformly random Tic-tac-toe: the first player wins 58.5% of games and loses 28.8%
    # (the exact figures over the game tree), so its mean return is 0.297.
    episodes, returns, mask, player = in_rust(100, 400)
    games = episodes.sum()
    assert games > 4000
    assert abs(returns[:, 0].sum() / games - 0.297) < 0.04
    np.testing.assert_array_equal(returns[:, 0], -returns[:, 1])
    # The games stand where they were left: a mask a game, someone to move.
    assert mask.any(axis=1).all() and set(player) <= {0, 1}


def test_the_vector_environment_batches_one_seat_against_the_opponent() -> None:
    env = rg.make_vec("connect_four", 8, opponent="mcts:iters=50", seat=1)
    obs, info = env.reset(seed=3)
    assert obs.shape == (8, 7, 6, 7) and obs.dtype == np.int8
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (8, 7)
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert reward.shape == (8,) and terminated.dtype == bool
        done = terminated | truncated
        if done.any():
            assert info["_final_obs"].tolist() == done.tolist()
            for i in np.flatnonzero(done):
                assert info["final_obs"][i].shape == (7, 6, 7)
        finished += int(done.sum())
        total += float(reward[done].sum())
    assert finished >= 8 and total / finished < 0
    # The same seed plays the same games.
    again = rg.make_vec("connect_four", 8, opponent="mcts:iters=50", seat=1)
    np.testing.assert_array_equal(again.reset(seed=3)[0], env.reset(seed=3)[0])


def test_bad_opponents_and_seats_are_value_errors() -> None:
    with pytest.raises(ValueError, match="agent"):
        ringside.VecEnv("hex:size=5", 2, opponent="nobody")
    with pytest.raises(ValueError, match="seat"):
        ringside.VecEnv("hex:size=5", 2, opponent="random", seat=3)
