"""The package's surface: copies and pickles, errors as ValueError, searches from several
threads, matches equal to `arena match`, games files read and checked, batched stepping."""

import copy
import csv
import os
import pickle
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import ringside
from conftest import GAMES

#: The columns the clock decides, which two runs of the same games need not share.
TIMES = {
    "first_time_ms",
    "second_time_ms",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
}


def advanced(spec: str, plies: int, seed: int = 3) -> ringside.State:
    """A state of `spec` after `plies` moves of a seeded random agent."""
    game = ringside.load_game(spec)
    state = game.new_initial_state()
    agent = ringside.Agent("random", seed=seed)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(agent.choose(state))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_clone_and_pickle_round_trips_keep_the_state_and_do_not_share_it(name: str) -> None:
    state = advanced(name, 12)
    for twin in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin.history() == state.history()
        assert str(twin) == str(state)
        assert twin.legal_actions() == state.legal_actions()
        assert np.array_equal(twin.observation_tensor(), state.observation_tensor())
        if not twin.is_terminal():
            twin.apply_action(twin.legal_actions()[-1])
            assert len(twin.history()) == len(state.history()) + 1
    game = state.get_game()
    assert pickle.loads(pickle.dumps(game)) == game


def test_an_advance_start_is_a_chance_node_with_two_equal_outcomes() -> None:
    state = ringside.load_game("advance").new_initial_state()
    assert state.current_player() == ringside.CHANCE_PLAYER_ID
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    firsts = set()
    for outcome in (0, 1):
        s = state.clone()
        s.apply_action(outcome)
        firsts.add((s.spec(), s.current_player()))
    assert firsts == {("advance:first=o", 1), ("advance:first=x", 0)}
    fixed = ringside.load_game("advance:first=x").new_initial_state()
    assert not fixed.is_chance_node() and fixed.current_player() == 0


def test_rins_double_moves_come_from_the_state_not_from_ply_parity() -> None:
    state = ringside.load_game("rin:size=6").new_initial_state()
    players = []
    for _ in range(6):
        players.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert players == [0, 1, 1, 0, 0, 1]


def test_the_observation_shows_stones_empty_cells_and_the_mover() -> None:
    game = ringside.load_game("havannah:size=4")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d4"))
    obs = state.observation_tensor()
    assert obs.shape == tuple(game.observation_tensor_shape()) == (7, 7, 7)
    assert obs[0].sum() == 1 and obs[1].sum() == 0
    assert obs[4].sum() == 36  # 37 cells, one taken
    assert obs[6].all() and not obs[5].any()  # player 1 to move


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ringside.load_game("havannah:size=99"), "size must be from 4 to 10"),
        (lambda: ringside.load_game("chess"), "chess"),
        (lambda: ringside.Agent("mcts:iters=x"), "iters takes a whole number"),
        (lambda: ringside.Agent("minimax"), "minimax"),
        (lambda: ringside.load_game("rin", ply_cap=0), "ply_cap"),
    ],
)
def test_bad_specs_raise_value_error_with_the_arenas_message(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_illegal_actions_and_moves_raise_value_error_and_change_nothing() -> None:
    state = advanced("havannah:size=4", 3)
    taken = state.history()[0]
    with pytest.raises(ValueError, match="not a legal move"):
        state.apply_action(taken)
    with pytest.raises(ValueError, match="negative"):
        state.apply_action(-1)
    with pytest.raises(ValueError):
        state.string_to_action("zz99")
    assert len(state.history()) == 3
    done = advanced("havannah:size=4", 1000)
    assert done.is_terminal()
    with pytest.raises(ValueError, match="over"):
        ringside.Agent("random").choose(done)
    with pytest.raises(ValueError, match="over"):
        done.apply_action(0)


def test_an_agent_follows_its_seed_and_moves_to_a_new_game() -> None:
    state = advanced("hexxagon:side=4", 6)
    a = [ringside.Agent("mcts:iters=300", seed=5).choose(state) for _ in range(2)]
    assert a[0] == a[1] and a[0] in state.legal_actions()
    agent = ringside.Agent("alphabeta:depth=2", seed=1)
    for spec in ("hexxagon:side=4", "rin:size=6", "hexxagon:side=4"):
        s = advanced(spec, 4)
        assert agent.choose(s) in s.legal_actions()
        assert agent.last["nodes"] > 0


def test_searches_run_from_several_threads_at_once_and_agree_with_one_thread() -> None:
    state = advanced("havannah:size=6", 4)
    spec = "mcts:iters=30000"
    alone = [ringside.Agent(spec, seed=s).choose(state) for s in (1, 2)]
    spans: Dict[int, Tuple[float, float]] = {}
    moves: Dict[int, int] = {}

    def search(seed: int) -> None:
        agent = ringside.Agent(spec, seed=seed)
        start = time.perf_counter()
        moves[seed] = agent.choose(state)
        spans[seed] = (start, time.perf_counter())

    threads = [threading.Thread(target=search, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [moves[1], moves[2]] == alone
    # With the lock held through a search, one search could only start once the other
    # had ended; released, they run side by side.
    (a0, a1), (b0, b1) = spans[1], spans[2]
    overlap = min(a1, b1) - max(a0, b0)
    assert overlap > 0.5 * min(a1 - a0, b1 - b0)


def read_csv(path: "os.PathLike[str]") -> List[Dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_match_plays_the_rows_arena_match_plays(arena: str, tmp_path: Path) -> None:
    ours = tmp_path / "py.csv"
    frame = ringside.match(
        "rin:size=8", ["random", "mcts:iters=30"], threads=2, out=ours,
        games=12, seed=9, ply_cap=200, opening_plies=2,
    )
    theirs = tmp_path / "cli.csv"
    subprocess.run(
        [arena, "match", "--game", "rin:size=8", "--agents", "random", "mcts:iters=30",
         "--games", "12", "--seed", "9", "--ply-cap", "200", "--opening-plies", "2",
         "--threads", "1", "--quiet", "--out", str(theirs)],
        check=True, capture_output=True,
    )
    a, b = read_csv(ours), read_csv(theirs)
    assert len(a) == len(b) == 12
    def strip(rows: List[Dict[str, str]]) -> List[Dict[str, str]]:
        return sorted(
            ({k: v for k, v in r.items() if k not in TIMES} for r in rows),
            key=lambda r: int(r["id"]),
        )

    assert strip(a) == strip(b)
    assert list(frame.columns) == list(a[0].keys())
    # The table in game-id order; the file as the games ended.
    assert len(frame) == 12 and frame["moves"].tolist() == [r["moves"] for r in strip(a)]


PAIR = ["random", "mcts:iters=5"]


def test_match_resumes_its_file_and_summary_reads_it(tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    ringside.match("rin:size=6", PAIR, games=20, seed=2, out=out)
    # A run killed after 9 games: the file keeps its header and 9 rows.
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:10]))
    frame = ringside.match("rin:size=6", PAIR, games=20, seed=2, out=out)
    assert len(frame) == 20 and sorted(frame["id"]) == list(range(20))
    fresh = ringside.match("rin:size=6", PAIR, games=20, seed=2)
    assert frame.sort_values("id")["moves"].tolist() == fresh.sort_values("id")["moves"].tolist()
    table = ringside.summary(out)
    assert len(table) == 1
    row = table.iloc[0]
    assert row["games"] == 20
    wins = frame["winner_agent"] == 0
    draws = (frame["winner"] == "draw").sum()
    assert (row["a_wins"], row["draws"]) == (wins.sum(), draws)
    assert row["a_score"] == pytest.approx((wins.sum() + draws / 2) / 20, abs=1e-6)


def test_a_games_file_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    ringside.match("rin:size=6", ["random", "random"], games=4, seed=2, out=out)
    text = out.read_text().splitlines()
    fields = text[2].split(",")
    moves = fields[-1].split()
    moves[0], moves[1] = moves[1], moves[1]
    fields[-1] = " ".join(moves)
    text[2] = ",".join(fields)
    out.write_text("\n".join(text) + "\n")
    with pytest.raises(ValueError):
        ringside.read_games(out)
    with pytest.raises(ValueError):
        ringside.summary(out)


def test_without_pandas_tables_are_lists_of_dicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real = builtins.__import__

    def no_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pandas":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = ringside.match("rin:size=6", ["random", "random"], games=4, seed=2)
    assert isinstance(rows, list) and len(rows) == 4
    assert rows[0]["id"] == 0 and isinstance(rows[0]["moves"], str)
    # In game-id order whatever order two threads finished them in: the same table again.
    again = ringside.match("rin:size=6", ["random", "random"], games=8, seed=2, threads=2)
    assert [row["id"] for row in again] == list(range(8))
    one = ringside.match("rin:size=6", ["random", "random"], games=8, seed=2, threads=1)
    def untimed(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in TIMES} for r in rows]

    assert untimed(again) == untimed(one)


def test_match_tables_are_in_game_id_order_whatever_the_thread_count() -> None:
    two = ringside.match("rin:size=6", ["random", "random"], games=8, seed=3, threads=2)
    assert list(two["id"]) == list(range(8))
    one = ringside.match("rin:size=6", ["random", "random"], games=8, seed=3, threads=1)
    columns = [c for c in two.columns if c not in TIMES]
    assert two[columns].equals(one[columns])


def test_vecenv_steps_every_game_and_restarts_finished_ones() -> None:
    game = ringside.load_game("havannah:size=4")
    env = ringside.VecEnv(game, 5, seed=3)
    obs, mask, player = env.reset()
    assert obs.shape == (5, 7, 7, 7) and mask.shape == (5, game.num_distinct_actions())
    assert (player == 0).all() and (mask.sum(axis=1) == 37).all()
    # The same games stepped one by one through State.
    states = [game.new_initial_state() for _ in range(5)]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(120):
        actions = [rng.choice(np.flatnonzero(m)) for m in mask]
        obs, mask, reward, done, player = env.step(actions)
        for i, s in enumerate(states):
            s.apply_action(actions[i])
            if s.is_terminal():
                assert done[i] and list(reward[i]) == s.returns()
                states[i] = s = game.new_initial_state()
                finished += 1
            else:
                assert not done[i] and not reward[i].any()
            assert np.array_equal(obs[i], s.observation_tensor())
            assert np.array_equal(mask[i], s.legal_actions_mask().astype(bool))
            assert player[i] == s.current_player()
    assert finished > 0


def test_vecenv_refuses_an_illegal_action_and_plays_none() -> None:
    env = ringside.VecEnv("havannah:size=4", 2, seed=1)
    _, mask, _ = env.reset()
    before = env.step([0, 1])
    with pytest.raises(ValueError, match="game 1"):
        env.step([2, 1])
    after = env.step([2, 3])
    assert not np.array_equal(before[0], after[0])


def test_vecenv_draws_chance_from_its_seed() -> None:
    def players(seed: int) -> npt.NDArray[np.int64]:
        env = ringside.VecEnv("advance:side=4", 64, seed=seed)
        return env.reset()[2]

    assert np.array_equal(players(1), players(1))
    assert 0 < players(1).sum() < 64
    assert not np.array_equal(players(1), players(2))


def test_random_actions_are_legal_seeded_and_play_without_observations() -> None:
    def run(seed: int) -> npt.NDArray[np.int64]:
        env = ringside.VecEnv("hexxagon:side=4", 8, seed=seed, observations=False)
        obs, mask, _ = env.reset()
        assert obs.shape == (8, 0)
        chosen, finished = [], 0
        for _ in range(60):
            actions = env.random_actions()
            assert mask[np.arange(8), actions].all()
            chosen.append(actions)
            obs, mask, _, done, _ = env.step(actions)
            finished += done.sum()
        return np.array(chosen)

    assert np.array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


def test_match_without_a_table_reports_what_it_played_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    done = ringside.match("rin:size=6", PAIR, games=8, seed=2, out=out, table=False)
    assert done["resumed"] == 0 and done["played"] == 8 and done["seconds"] > 0
    again = ringside.match("rin:size=6", PAIR, games=8, seed=2, out=out, table=False)
    assert again["resumed"] == 8 and again["played"] == 0
