"""tools/value_net.py, the value network's study: its positions and labels worked by hand, its
scores, its refusals, and a short training run that learns a planted rule."""

import json
import os
import random
from typing import List

import pytest

from test_tools import tool


def write_games(folder: str, name: str, game: str, rows: List[str]) -> str:
    """A games CSV with its settings sidecar, the columns the study reads."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("id,winner,moves\n")
        f.writelines(row + "\n" for row in rows)
    with open(path + ".settings.json", "w") as f:
        json.dump({"settings": {"game": game}}, f)
    return path


def test_each_position_is_labelled_by_whether_its_mover_won(tmp_path: "os.PathLike[str]") -> None:
    vn = tool("value_net")
    folder = str(tmp_path)
    games = write_games(
        folder, "g.csv", "havannah:size=4", ["0,second,a1 b1 c1 d1", "1,draw,a2 b2", "2,first,a3"]
    )
    other = write_games(folder, "h.csv", "havannah:size=5", ["0,first,a1 b1"])
    train, test, count, used = vn.read_games([games, other], 4, 0, 99, 1, 0.0)
    assert (count, used, test) == (2, [games], [])
    first, last = train[:4], train[4:]
    assert [(len(t.moves), t.won) for t in last] == [(0, 1.0)]
    assert [len(t.moves) for t in first] == [0, 1, 2, 3]
    # The second player won: its positions (plies 1 and 3) are wins for the mover.
    assert [t.won for t in first] == [0.0, 1.0, 0.0, 1.0]
    board = vn.Board(4)
    at3 = first[3].position
    assert at3.mover == [board.cell("b1")]
    assert at3.other == [board.cell("a1"), board.cell("c1")]
    assert at3.last == board.cell("c1")
    # One position a game from ply 1 on (the one-move game has none), drawn the same each time.
    one, _, _, _ = vn.read_games([games], 4, 1, 1, 1, 0.0)
    again, _, _, _ = vn.read_games([games], 4, 1, 1, 1, 0.0)
    assert [t.moves for t in one] == [t.moves for t in again]
    assert len(one) == 1 and 1 <= len(one[0].moves) <= 3


def test_scores_are_the_favoured_sides_share_and_the_brier_score() -> None:
    vn = tool("value_net")
    # Right, wrong, a half, right: 2.5 of 4; squared errors 0.04 + 0.49 + 0.25 + 0.
    right, brier = vn.scores([0.8, 0.7, 0.5, 0.0], [1.0, 0.0, 1.0, 0.0])
    assert right == pytest.approx(0.625)
    assert brier == pytest.approx((0.04 + 0.49 + 0.25) / 4)


def test_bad_input_is_one_line_and_exit_code_2(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    vn = tool("value_net")
    folder = str(tmp_path)
    taken = write_games(folder, "taken.csv", "havannah:size=4", ["0,first,a1 a1"])
    assert vn.main([taken, "--size", "4", "--out", folder]) == 2
    fine = write_games(folder, "fine.csv", "havannah:size=4", ["0,first,a1 b1"])
    assert vn.main([fine, "--size", "4", "--judge", "random", "--out", folder]) == 2
    assert vn.main([os.path.join(folder, "missing.csv"), "--out", folder]) == 2
    assert vn.main([fine, "--size", "4", "--out", folder]) == 2  # nothing held out
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("value_net: ") for line in err)
    assert "taken cell" in err[0] and "--arena" in err[1] and "sidecar" in err[2]


def test_a_short_training_run_learns_that_the_corners_owner_wins(
    tmp_path: "os.PathLike[str]",
) -> None:
    # Size-4 games in which one corner is taken on the first or the second ply, no other
    # corner is ever played, and the corner's owner wins: from ply 2 on, a position says who
    # won by which colour stands on a corner, a rule the same under every symmetry. After
    # training, the network favours the winner in nearly every held-out position, where ½
    # favours no one.
    vn = tool("value_net")
    board = vn.Board(4)
    d = board.d
    rng = random.Random(4)
    on = [c for c in range(d * d) if board.on_board[c]]
    corners = [c for c in on if board.corner[c]]
    name = {c: f"{chr(97 + c % d)}{c // d + 1}" for c in on}
    rows = []
    for g in range(300):
        free = [c for c in on if not board.corner[c]]
        rng.shuffle(free)
        by = rng.randrange(2)
        moves = free[:12]
        moves.insert(by, rng.choice(corners))
        rows.append(f"{g},{'first' if by == 0 else 'second'},{' '.join(name[c] for c in moves)}")
    games = write_games(str(tmp_path), "corner.csv", "havannah:size=4", rows)
    out = os.path.join(str(tmp_path), "out")
    args = [games, "--size", "4", "--per-game", "6", "--layers", "2", "--channels", "8",
            "--epochs", "8", "--batch", "32", "--lr", "0.005", "--threads", "1",
            "--holdout", "0.2", "--judged", "200", "--out", out]
    assert vn.main(args) == 0
    with open(os.path.join(out, "summary.md")) as f:
        text = f.read()
    row = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| ")}
    half = float(row["½"].split("|")[2].split("%")[0])
    net = float(row["the network"].split("|")[2].split("%")[0])
    assert half == 50.0
    # Positions at plies 0 and 1 may show no corner yet: the rule decides the rest.
    assert net > 85.0, row["the network"]
    assert os.path.getsize(os.path.join(out, "net.pt")) > 1000
