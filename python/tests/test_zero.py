"""`ringside.zero`, the trainer of `arena tune zero`: its export against the fixtures the
Rust evaluator is checked on, the samples file and its symmetries, and the loop end to end
with the real trainer, killed during training and resumed to the same network."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import torch

from conftest import ROOT
from ringside import zero

FIXTURES = os.path.join(ROOT, "agents", "tests", "data")


@pytest.mark.parametrize("name", ["square", "hex"])
def test_the_fixture_networks_export_back_to_the_same_bytes(name: str) -> None:
    with open(os.path.join(FIXTURES, f"pvnet-fixture-{name}.rspvn"), "rb") as f:
        data = f.read()
    net = zero.read_export(data)
    assert net.hex_grid == (name == "hex")
    assert zero.export(net) == data
    with pytest.raises(ValueError, match="bytes after the value head"):
        zero.read_export(data + b"\0\0\0\0")


def test_the_square_fixture_gives_the_outputs_rust_is_checked_against_on_an_empty_board() -> None:
    with open(os.path.join(FIXTURES, "pvnet-fixture-square.rspvn"), "rb") as f:
        net = zero.read_export(f.read())
    lines = [l for l in open(os.path.join(FIXTURES, "pvnet-fixture-square.txt")) if not l.startswith("#")]
    position, numbers = lines[0].split("|")
    assert position.strip() == "connect_four:rows=6,columns=7"
    want = [float(v) for v in numbers.split()]
    # Connect Four 7x6 on a 7x7 grid, its top grid row off the board: the empty board.
    x = torch.zeros(1, zero.PLANES, 7, 7)
    x[0, 2, :6, :] = 1.0
    x[0, 3, :6, :] = 1.0
    for y in range(6):
        for c in range(7):
            ends = (c in (0, 6), y in (0, 5))
            if all(ends):
                x[0, 6, y, c] = 1.0
            elif any(ends):
                x[0, 5, y, c] = 1.0
    with torch.no_grad():
        logits, value = net(x)
    assert abs(value.item() - want[0]) < 1e-4
    assert abs(logits[0, -1].item() - want[1]) < 1e-4
    assert torch.allclose(logits[0, :-1], torch.tensor(want[2:]), atol=1e-4)


def run_zero(arena: str, out: str, generations: int) -> "subprocess.Popen[bytes]":
    return subprocess.Popen(
        [arena, "tune", "zero", "--game", "connect_four:rows=4,columns=5", "--generations", str(generations),
         "--games", "6", "--iters", "16", "--gate-games", "2", "--epochs", "3", "--batch", "16",
         "--layers", "2", "--channels", "8", "--hidden", "8", "--threads", "1", "--quiet",
         "--python", sys.executable, "--out", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_the_loop_trains_learns_its_samples_and_a_kill_during_training_resumes_to_the_same_network(
    arena: str, tmp_path: "os.PathLike[str]"
) -> None:
    whole = os.path.join(tmp_path, "whole")
    p = run_zero(arena, whole, 2)
    _, err = p.communicate(timeout=600)
    assert p.returncode == 0, err.decode()
    with open(os.path.join(whole, "gen-002", "net.rspvn"), "rb") as f:
        wanted = f.read()
    # The samples: the board's mirror, and visit shares that sum to 1.
    samples = zero.Samples([os.path.join(whole, "gen-000", "selfplay.samples")])
    assert samples.side == 5 and len(samples.symmetries) == 2
    assert torch.allclose(samples.policy.sum(dim=1), torch.ones(len(samples)), atol=1e-5)
    assert set(samples.value.tolist()) <= {-1.0, 0.0, 1.0}
    rows = torch.arange(len(samples))
    x0, p0, z0 = samples.batch(rows, torch.zeros(len(samples), dtype=torch.long))
    x1, p1, z1 = samples.batch(rows, torch.ones(len(samples), dtype=torch.long))
    # The mirror turns a 4x5 board's columns around (the fifth grid row is off the board).
    assert torch.equal(x1[:, :, :4, :5], torch.flip(x0[:, :, :4, :5], dims=[3]))
    assert torch.equal(p1[:, :25].reshape(-1, 5, 5)[:, :4], torch.flip(p0[:, :25].reshape(-1, 5, 5)[:, :4], dims=[2]))
    assert torch.equal(z0, z1)
    # Killed while training generation 2, then run again: the same network.
    killed = os.path.join(tmp_path, "killed")
    p = run_zero(arena, killed, 2)
    deadline = time.time() + 300
    while not os.path.isdir(os.path.join(killed, "gen-002")) and time.time() < deadline:
        time.sleep(0.01)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert not os.path.exists(os.path.join(killed, "gen-002", "net.rspvn")), "killed before its end"
    p = run_zero(arena, killed, 2)
    _, err = p.communicate(timeout=600)
    assert p.returncode == 0, err.decode()
    with open(os.path.join(killed, "gen-002", "net.rspvn"), "rb") as f:
        assert f.read() == wanted


def test_training_lowers_the_loss_on_the_positions_it_sees(tmp_path: "os.PathLike[str]", arena: str) -> None:
    out = os.path.join(tmp_path, "run")
    p = run_zero(arena, out, 1)
    _, err = p.communicate(timeout=600)
    assert p.returncode == 0, err.decode()
    samples = zero.Samples([os.path.join(out, "gen-000", "selfplay.samples")])
    torch.manual_seed(3)
    net = zero.PvNet(False, 2, 8, 8)
    epochs = zero.train(net, samples, epochs=30, batch=16, lr=3e-3, weight_decay=0.0, holdout=0.0, seed=3)
    first, last = epochs[0], epochs[-1]
    assert last["policy"] + last["value"] < 0.8 * (first["policy"] + first["value"]), epochs


def test_bad_input_is_one_line_and_exit_code_2(tmp_path: "os.PathLike[str]") -> None:
    bad = os.path.join(tmp_path, "bad.samples")
    with open(bad, "wb") as f:
        f.write(b"not samples")
    init = os.path.join(tmp_path, "init")
    assert zero._main(["init", "--out", init, "--layers", "1", "--channels", "4", "--hidden", "4"]) == 0
    p = subprocess.run(
        [sys.executable, "-m", "ringside.zero", "train", "--init", os.path.join(init, "net.pt"),
         "--out", os.path.join(tmp_path, "next"), "--samples", bad],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "not a samples file" in p.stderr, p.stderr


def test_a_network_plays_from_python_as_mcts_pv_and_is_refused_where_it_cannot(tmp_path: "os.PathLike[str]") -> None:
    import ringside

    net = os.path.join(FIXTURES, "pvnet-fixture-square.rspvn")
    state = ringside.load_game("connect_four").new_initial_state()
    moves = []
    while not state.is_terminal():
        a = ringside.Agent(f"mcts:pv={net},iters=30", seed=4).choose(state)
        assert a in state.legal_actions()
        moves.append(a)
        state.apply_action(a)
    again = ringside.load_game("connect_four").new_initial_state()
    for a in moves:
        assert ringside.Agent(f"mcts:pv={net},iters=30", seed=4).choose(again) == a
        again.apply_action(a)
    with pytest.raises(ValueError, match="kernel is for square cells"):
        ringside.Agent(f"mcts:pv={net}", seed=1).choose(ringside.load_game("havannah:size=4").new_initial_state())
