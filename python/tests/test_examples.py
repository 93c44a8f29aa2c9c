"""The worked learner's smoke version: a few PPO updates through the Gymnasium vector
environment, then its evaluation table. Needs PyTorch (``pip install "./python[learn]"``);
skipped without it."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_connect_four_learner_trains_and_reports_its_scores(tmp_path: "os.PathLike[str]") -> None:
    pytest.importorskip("torch")
    script = os.path.join(HERE, "examples", "learn_connect_four.py")
    done = subprocess.run(
        [sys.executable, script, "--smoke", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "| `random` |" in done.stdout and "| `mcts:iters=50` |" in done.stdout
    curve = open(os.path.join(tmp_path, "curve.csv")).read().splitlines()
    assert curve[0] == "steps,recent_score,opponent" and len(curve) >= 2
    assert open(os.path.join(tmp_path, "curve.svg")).read().startswith("<svg")
    # The scores come from ringside.match with the policy as a Python player: its games
    # files name it and read back as the arena reads them.
    import ringside

    for name in ("games-random.csv", "games-mcts-iters=50.csv"):
        rows = ringside.read_games(os.path.join(tmp_path, name))
        rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
        assert len(rows) == 8
        assert all("host:name=ppo" in (r["first_spec"], r["second_spec"]) for r in rows)
    assert os.path.getsize(os.path.join(tmp_path, "policy.pt")) > 0


def test_the_zero_example_runs_the_loop_fine_tunes_and_matches_its_networks(
    tmp_path: "os.PathLike[str]", arena: str
) -> None:
    pytest.importorskip("torch")
    script = os.path.join(HERE, "examples", "zero_connect_four.py")
    done = subprocess.run(
        [sys.executable, script, "--smoke", "--arena", arena, "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "| fine-tuned |" in done.stdout
    assert os.path.getsize(os.path.join(tmp_path, "finetuned.rspvn")) > 0
    assert os.path.exists(os.path.join(tmp_path, "run", "gen-002", "net.rspvn"))
    import ringside

    rows = ringside.read_games(os.path.join(tmp_path, "match.csv"))
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert len(rows) == 4 and all("pv=" in r["first_spec"] for r in rows)
