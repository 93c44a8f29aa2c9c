"""tools/policy_net.py, the move-prior network's trainer: its board against the engine's, its
symmetries, its export against the fixture the Rust evaluator is checked on, its refusals,
and a small training run that learns a rule."""

import json
import os
import random
from typing import List, Set

import pytest

import ringside
from conftest import ROOT
from test_tools import tool

FIXTURE = os.path.join(ROOT, "agents", "tests", "data", "movenet-fixture")


@pytest.mark.parametrize("base", [4, 5, 8])
def test_the_board_is_the_engines_and_its_symmetries_keep_neighbours(base: int) -> None:
    pn = tool("policy_net")
    board = pn.Board(base)
    state = ringside.load_game(f"havannah:size={base}").new_initial_state()
    names = [state.action_to_string(a) for a in state.legal_actions()]
    on = {board.cell(n) for n in names}
    assert on == {i for i, b in enumerate(board.on_board) if b}
    assert sum(board.corner) == 6
    assert sum(board.edge) == 6 * (base - 2)
    d = board.d
    steps = [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1)]

    def neighbours(i: int) -> Set[int]:
        x, y = i % d, i // d
        return {
            (x + dx) + d * (y + dy)
            for dx, dy in steps
            if 0 <= x + dx < d and 0 <= y + dy < d and board.on_board[(x + dx) + d * (y + dy)]
        }

    perms = board.symmetries()
    assert len({tuple(p) for p in perms}) == 12
    for perm in perms:
        assert {perm[i] for i in on} == on
        for i in on:
            assert {perm[j] for j in neighbours(i)} == neighbours(perm[i])
            assert board.corner[perm[i]] == board.corner[i]
            assert board.edge[perm[i]] == board.edge[i]


def test_the_export_reads_back_and_gives_the_fixtures_logits() -> None:
    # The Rust evaluator is checked on the same file (agents/src/movenet.rs): both sides
    # agree with one committed set of logits.
    pn = tool("policy_net")
    with open(FIXTURE + ".rspol", "rb") as f:
        data = f.read()
    net = pn.read_export(data)
    assert pn.export(net) == data
    checked = 0
    with open(FIXTURE + ".txt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            position, logits = line.split("|")
            base, *moves = position.split()
            got = pn.raw_logits(net, int(base), moves)
            want = [float(v) for v in logits.split()]
            assert got == pytest.approx(want, abs=1e-4)
            checked += 1
    assert checked == 4
    with pytest.raises(pn.InputError, match="not a move-prior network"):
        pn.read_export(b"RSNET\0\0\x01" + data[8:])
    with pytest.raises(pn.InputError, match="bytes after"):
        pn.read_export(data + b"\0\0\0\0")


def write_games(folder: str, name: str, game: str, labels: List[str], rows: List[str]) -> str:
    """A games CSV with its settings sidecar, the columns the trainer reads."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("id,first_agent,second_agent,moves\n")
        f.writelines(row + "\n" for row in rows)
    with open(path + ".settings.json", "w") as f:
        json.dump({"settings": {"game": game, "agents": [{"label": l} for l in labels]}}, f)
    return path


def test_bad_input_is_one_line_and_exit_code_2(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    pn = tool("policy_net")
    folder = str(tmp_path)
    off = write_games(folder, "off.csv", "havannah:size=4", ["a", "b"], ["0,0,1,a1 z9"])
    assert pn.main([off, "--learn", "a", "--out", folder]) == 2
    taken = write_games(folder, "taken.csv", "havannah:size=4", ["a", "b"], ["0,0,1,a1 a1"])
    assert pn.main([taken, "--learn", "a", "--out", folder]) == 2
    hex_file = write_games(folder, "hex.csv", "hex:size=5", ["a", "b"], ["0,0,1,a1"])
    assert pn.main([hex_file, "--learn", "a", "--out", folder]) == 2
    agent = write_games(folder, "agent.csv", "havannah:size=4", ["a"], ["0,0,3,a1"])
    assert pn.main([agent, "--learn", "a", "--out", folder]) == 2
    assert pn.main([os.path.join(folder, "missing.csv"), "--out", folder]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 5 and all(line.startswith("policy_net: ") for line in err)
    assert "off the size-4 board" in err[0] and "taken cell" in err[1]
    assert "not a Havannah" in err[2] and "no such agent" in err[3]


def test_a_short_training_run_learns_to_answer_next_to_the_last_stone(
    tmp_path: "os.PathLike[str]",
) -> None:
    # Games on size 4 whose learned player ("near") always answers on a free neighbour of
    # the last stone, drawn at random, and whose other player plays anywhere at random: a
    # rule one convolution sees, the same under every symmetry. After training, the chosen
    # move's held-out log-probability is near that of a guess among the free neighbours and
    # far above the uniform guess among all the free cells.
    pn = tool("policy_net")
    board = pn.Board(4)
    d = board.d
    rng = random.Random(4)
    on = [c for c in range(d * d) if board.on_board[c]]
    name = {c: f"{chr(97 + c % d)}{c // d + 1}" for c in on}
    steps = [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1)]
    rows = []
    for g in range(200):
        taken: List[int] = []
        for ply in range(14):
            free = [c for c in on if c not in taken]
            x, y = (taken[-1] % d, taken[-1] // d) if taken else (-9, -9)
            near = [c for c in free if (c % d - x, c // d - y) in steps]
            taken.append(rng.choice(near if ply % 2 == 1 and near else free))
        rows.append(f"{g},0,1,{' '.join(name[c] for c in taken)}")
    games = write_games(str(tmp_path), "near.csv", "havannah:size=4", ["random", "near"], rows)
    out = os.path.join(str(tmp_path), "out")
    args = [games, "--learn", "near", "--skip", "1", "--layers", "2", "--channels", "8",
            "--epochs", "10", "--batch", "32", "--lr", "0.01", "--threads", "1", "--out", out]
    assert pn.main(args) == 0
    with open(os.path.join(out, "summary.md")) as f:
        text = f.read()
    uniform = float(text.split("mean log-probability ")[1].split(".\n")[0])
    last = [line for line in text.splitlines() if line.startswith("| 10 |")][0]
    log_p = float(last.split("|")[3].split("/")[0])
    # About 4 free neighbours against about 30 free cells: ln 4 = 1.4 below 0, ln 30 = 3.4.
    assert uniform < -3.0
    assert log_p > -2.0, last
    assert os.path.getsize(os.path.join(out, "net.rspol")) > 20
