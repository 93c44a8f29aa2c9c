"""The analysis scripts under tools/ that read games: each checked on hand-built games and
against the engine, through this package."""

import importlib.util
import os
import random
from types import ModuleType
from typing import List, Set, Tuple

import pytest

import ringside
from conftest import ROOT


def tool(name: str) -> ModuleType:
    """The script tools/NAME.py as a module."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ends_exactly_at_the_last_move(spec: str, moves: List[str]) -> bool:
    """Whether the engine plays `moves` with the game over after the last and not before."""
    state = ringside.load_game(spec).new_initial_state()
    for name in moves:
        if state.is_terminal():
            return False
        state.apply_action(state.string_to_action(name))
    return state.is_terminal()


# Size 4 (cells a1..g7, corners a1 d1 g4 g7 d7 a4), White first. Black's stones never
# connect into anything.
HAND_BUILT = [
    # White's top row joins the corners a1 and d1.
    ("bridge", "a1 d4 b1 e5 c1 f6 d1"),
    # White's b-file and a2 touch the top edge (b1), the left edge (a2) and, with b5, the
    # lower left edge.
    ("fork", "b2 d4 b3 e5 b4 f6 a2 f4 b1 d6 b5"),
    # White's six stones around the empty d4.
    ("ring", "c3 a4 d3 g7 e4 b1 e5 e7 d5 g5 c4"),
    # The same ring around White's own stone on d4.
    ("ring", "d4 a4 c3 g7 d3 b1 e4 e7 e5 g5 d5 a3 c4"),
]


@pytest.mark.parametrize("kind,moves", HAND_BUILT)
def test_havannah_win_kinds_names_how_a_hand_built_game_was_won(kind: str, moves: str) -> None:
    kinds = tool("havannah_win_kinds")
    assert ends_exactly_at_the_last_move("havannah:size=4", moves.split())
    assert kinds.win_kind(4, moves.split()) == kind
    # Without its last move the game is not won, and the script says so.
    with pytest.raises(ValueError, match="wins nothing"):
        kinds.win_kind(4, moves.split()[:-2])


def test_havannah_win_kinds_finds_a_win_exactly_where_the_engine_ends_random_games() -> None:
    # The script's plain definitions against the engine's incremental detection: in random
    # games the last move makes a ring, bridge or fork, and nothing was made before it.
    kinds = tool("havannah_win_kinds")
    rng = random.Random(7)
    seen: Set[str] = set()
    for size in (4, 5, 6):
        game = ringside.load_game(f"havannah:size={size}")
        for _ in range(60):
            state = game.new_initial_state()
            moves: List[str] = []
            while not state.is_terminal():
                action = rng.choice(state.legal_actions())
                moves.append(state.action_to_string(action))
                state.apply_action(action)
            if state.returns()[0] == 0:
                continue  # a full board, drawn
            kind = kinds.win_kind(size, moves)
            seen.update(kind.split("+"))
    assert seen == {"ring", "bridge", "fork"}


def test_havannah_win_kinds_refuses_rows_it_cannot_read(tmp_path: "os.PathLike[str]") -> None:
    kinds = tool("havannah_win_kinds")
    with pytest.raises(ValueError, match="taken cell"):
        kinds.win_kind(4, ["a1", "a1"])
    with pytest.raises(ValueError, match="won before"):
        kinds.win_kind(4, "a1 d4 b1 e5 c1 f6 d1 g7 a2".split())
    with pytest.raises(ValueError, match="swap"):
        kinds.size_of("havannah:size=6,swap=on")
    bad = os.path.join(tmp_path, "bad.csv")
    with open(bad, "w") as f:
        f.write("id,game,reason,winner,first_spec,second_spec,moves\n")
        f.write("0,havannah:size=4,normal,first,random,random,a1 d4 b1\n")
    assert kinds.main([bad]) == 2
    other = os.path.join(tmp_path, "other.csv")
    with open(other, "w") as f:
        f.write("iteration,wins\n1,2\n")
    assert kinds.main([other]) == 2


def write_games(path: str, rows: List[str]) -> None:
    """A games CSV with the columns tools/pooled_elo.py reads."""
    with open(path, "w") as f:
        f.write("id,pairing,pair,first_spec,second_spec,winner\n")
        f.writelines(row + "\n" for row in rows)


def test_pooled_elo_pools_colour_swapped_pairs_as_worked_by_hand(
    tmp_path: "os.PathLike[str]",
) -> None:
    pooled = tool("pooled_elo")
    one, two = os.path.join(tmp_path, "one.csv"), os.path.join(tmp_path, "two.csv")
    # Pairs of `mine` against `castro`, seats swapped in each pair: won both, won one, and
    # (second file) won both, lost both; one pair without its second game; one game of two
    # other agents.
    write_games(one, [
        "0,0,0,mine,castro,first", "1,0,0,castro,mine,second",
        "2,0,1,mine,castro,first", "3,0,1,castro,mine,first",
        "4,0,2,mine,castro,first",
        "5,1,0,other,castro,first",
    ])
    # The same pair numbers in another file are other pairs; a draw scores a half.
    write_games(two, [
        "0,0,0,castro,mine,second", "1,0,0,mine,castro,first",
        "2,0,1,castro,mine,first", "3,0,1,mine,castro,second",
        "4,0,2,mine,castro,draw", "5,0,2,castro,mine,draw",
    ])
    scores = pooled.pair_scores("mine", "castro", [one, two])
    assert sorted(scores) == [0.0, 0.5, 0.5, 1.0, 1.0]
    mean, low, high, p = pooled.pooled(scores)
    # By hand: mean 3/5; deviations 0.4, 0.4, -0.1, -0.1, -0.6: variance 0.70/5 = 0.14,
    # standard error sqrt(0.14/5) = 0.167332; Elo of 0.6 is 400 log10(1.5) = 70.437; p is
    # erfc(0.1 / 0.167332 / sqrt 2) = 0.5500.
    assert mean == pytest.approx(0.6)
    assert (high - mean) == pytest.approx(1.959964 * 0.167332, abs=1e-5)
    assert (mean - low) == pytest.approx(high - mean)
    assert pooled.elo(mean) == pytest.approx(70.437, abs=1e-3)
    assert p == pytest.approx(0.5500, abs=1e-3)
    # Against an agent no row names: nothing to pool, and the script says so.
    assert pooled.pair_scores("mine", "nobody", [one, two]) == []
    assert pooled.main(["mine", "--against", "nobody", one, two]) == 2
    assert pooled.main(["mine", os.path.join(tmp_path, "missing.csv")]) == 2
    assert pooled.main(["mine", "--against", "castro", one, two]) == 0
    assert pooled.elo_text(1.0) == "+inf" and pooled.elo_text(0.0) == "-inf"


def script(path: str, body: str) -> str:
    """An executable shell script at `path` that runs `body`: a stand-in for a program."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


#: A program that fails as `arena` does on bad input: one line on stderr, exit code 2.
BROKEN = "echo 'error: bad spec' >&2\nexit 2\n"


def fake_arena(path: str, iterations: int) -> str:
    """An executable standing in for `arena`: its `think` prints `iterations=N` last."""
    return script(path, f"echo thinking\necho move=a1 iterations={iterations} nodes=9\n")


def test_paired_think_pairs_decisions_and_reads_the_speed_up(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    paired = tool("paired_think")
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("id,moves\n0,a1 b2 c3\n1,a1 b2 c3 d4 e5 f6\n2,g1 g2 g3 g4 g5\n")
    # Cut at plies 2 and 4 from the games longer than 4 plies (the first is too short).
    assert paired.positions(games, [2, 4], 5) == ["a1 b2", "a1 b2 c3 d4", "g1 g2", "g1 g2 g3 g4"]
    assert paired.positions(games, [2, 4], 1) == ["a1 b2", "a1 b2 c3 d4"]
    # A median and its bootstrap interval, by hand: the median of 1, 2, 4 is 2, and every
    # resample's median lies between the smallest and the largest.
    mid, low, high = paired.median_ratio([1.0, 2.0, 4.0])
    assert mid == 2.0 and 1.0 <= low <= mid <= high <= 4.0
    assert paired.median_ratio([3.0] * 5) == (3.0, 3.0, 3.0)
    old = fake_arena(os.path.join(tmp_path, "old"), 200)
    new = fake_arena(os.path.join(tmp_path, "new"), 300)
    args = [old, new, "--agent", "mcts", "--games", games, "--plies", "2,4"]
    assert paired.main(args) == 0
    out = capsys.readouterr().out
    assert "positions 4, repeats 2, decisions 8 each" in out
    assert "old 200, new 300" in out and "median ratio new/old 1.500 [1.500, 1.500]" in out
    # A binary that fails, one that is missing and a file with no long game: one line, exit 2.
    broken = script(os.path.join(tmp_path, "broken"), BROKEN)
    assert paired.main([old, broken, "--agent", "x", "--games", games, "--plies", "2"]) == 2
    assert "broken think failed: error: bad spec" in capsys.readouterr().err
    assert paired.main([old, os.path.join(tmp_path, "none"), "--agent", "x", "--games", games]) == 2
    assert paired.main([old, new, "--agent", "x", "--games", games, "--plies", "9"]) == 2
    assert "no game in" in capsys.readouterr().err


def test_paired_think_with_a_new_agent_compares_two_specs_in_one_binary(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    paired = tool("paired_think")
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("id,moves\n0,a1 b2 c3 d4 e5\n")
    # One binary whose iterations follow the spec it is given (`--agent` is its 5th argument).
    one = script(os.path.join(tmp_path, "one"), 'case "$5" in *net*) n=150;; *) n=600;; esac\n'
                 'echo move=a1 iterations=$n nodes=9\n')
    args = [one, one, "--agent", "mcts", "--new-agent", "mcts:net", "--games", games,
            "--plies", "2,4"]
    assert paired.main(args) == 0
    out = capsys.readouterr().out
    assert "old 600, new 150" in out and "median ratio new/old 0.250 [0.250, 0.250]" in out
    # Without it both sides think as --agent: the same binary is level.
    assert paired.main(args[:3] + args[5:]) == 0
    assert "median ratio new/old 1.000" in capsys.readouterr().out


def test_value_drift_charges_each_move_the_fall_of_its_movers_value_as_worked_by_hand(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    drift = tool("value_drift")
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("id,first_spec,second_spec,winner,moves\n")
        f.write("1,mcts:mine,gtp:other,first,a b c d e f\n")  # won, moving first
        f.write("2,gtp:other,mcts:mine,first,a b c d e\n")  # lost, moving second
        f.write("3,gtp:other,mcts:mine,first,a b\n")  # too short
        f.write("4,gtp:other,gtp:other,second,a b c d e f\n")  # not the player's
    # A judge whose value for the mover after k moves is k/10, and none after a "z".
    judge = script(os.path.join(tmp_path, "judge"),
                   'set -- $7\ncase "$*" in *z*) echo move=x; exit 0;; esac\n'
                   'echo move=x iterations=1 value=0.$#\n')
    chosen = drift.games(games, "mine", 5, 5, 5)
    assert [(g[0], g[1], g[2]) for g in chosen] == [("1", True, True), ("2", False, False)]
    assert drift.judge((judge, "g", "s", "a b c", 1)) == 0.3
    assert drift.judge((judge, "g", "s", "a z c", 1)) is None
    # By hand, game 1 (the player first): its values after 2..5 moves are +0.2, -0.3, +0.4,
    # -0.5; its moves at plies 3 and 5 cost 0.2 + 0.3 and 0.4 + 0.5, the opponent's at ply 4
    # 0.3 + 0.4. Game 2 (second): -0.2, +0.3, -0.4; the opponent's move costs 0.5, its 0.7.
    won = drift.player_values(True, 2, [0.2, 0.3, 0.4, 0.5])
    assert won == {2: 0.2, 3: -0.3, 4: 0.4, 5: -0.5}

    def rounded(cs: List[Tuple[int, bool, float]]) -> List[Tuple[int, bool, float]]:
        return [(k, mine, round(c, 9)) for k, mine, c in cs]

    assert rounded(drift.costs(True, won)) == [(2, True, 0.5), (3, False, 0.7), (4, True, 0.9)]
    lost = drift.player_values(False, 2, [0.2, 0.3, 0.4])
    assert rounded(drift.costs(False, lost)) == [(2, False, 0.5), (3, True, 0.7)]
    # A position the judge decides at once is skipped with the moves on either side of it.
    gap = drift.player_values(True, 2, [0.2, None, 0.4, 0.5])
    assert [k for k, _, _ in drift.costs(True, gap)] == [4]
    args = [judge, games, "--player", "mine", "--judge", "j", "--min-plies", "5",
            "--from-ply", "2", "--jobs", "1"]
    assert drift.main(args) == 0
    out = capsys.readouterr().out
    assert "| lost | the player | +0.700 (1) |" in out and "| lost | the opponent | +0.500 (1) |" in out
    # The won game's two moves cost 0.5 and 0.9: mean 0.7, standard error sqrt(0.08 / 2) = 0.2.
    assert "| won | the player | +0.700 ±0.200 (2) |" in out
    assert "| won | the opponent | +0.700 (1) |" in out
    # All games: the player's 0.5, 0.9 and 0.7 (mean 0.7, se sqrt(0.04 / 3) = 0.115), the
    # opponent's 0.7 and 0.5 (mean 0.6, se sqrt(0.02 / 2) = 0.1).
    assert "| all | the player | +0.700 ±0.115 (3) |" in out
    assert "| all | the opponent | +0.600 ±0.100 (2) |" in out
    # Game 2's value stood at 0 or above last after 3 moves.
    assert "| 2 | 5 | 3 |" in out
    # No such game, a missing file, a failing arena: one line, exit 2.
    assert drift.main(args[:3] + ["nobody"] + args[4:]) == 2
    assert "no decided game of 'nobody'" in capsys.readouterr().err
    assert drift.main([judge, os.path.join(tmp_path, "none.csv")] + args[2:]) == 2
    broken = script(os.path.join(tmp_path, "broken"), BROKEN)
    assert drift.main([broken] + args[1:]) == 2
    assert "think failed: error: bad spec" in capsys.readouterr().err


def test_value_drift_asks_castro_over_gtp_in_its_transposed_coordinates(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str]
) -> None:
    drift = tool("value_drift")
    assert [drift.castro_cell(c) for c in ("e3", "c5", "a10", "k11")] == ["c5", "e3", "j1", "k11"]
    # A stand-in for Castro: keeps the commands it was sent, answers each, and reports a
    # Move Score of 0.75 on stderr (as Castro's verbose genmove does).
    sent = os.path.join(tmp_path, "sent.txt")
    castro = script(os.path.join(tmp_path, "castro"),
                    f'while read -r line; do echo "$line" >> {sent}; echo "= "; echo; done\n'
                    'echo "Move Score:  0.75" >&2\n')
    job = (castro, "havannah:size=8", "time -m 1;player_params -O 5", "e3 h10", 1)
    assert drift.castro_judge(job) == pytest.approx(0.5)
    with open(sent) as f:
        assert f.read().splitlines() == [
            "boardsize 8", "time -m 1", "player_params -O 5", "verbose 1",
            "play white c5", "play black j8", "genmove white", "quit",
        ]
    # No size in the game, a command Castro refuses: one line, exit 2 through main.
    with pytest.raises(drift.Refused, match="board size"):
        drift.castro_judge((castro, "havannah", "", "e3", 1))
    refusing = script(os.path.join(tmp_path, "refusing"),
                      'while read -r line; do echo "? illegal move"; echo; done\n')
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("id,first_spec,second_spec,winner,moves\n1,mcts:mine,gtp:other,first,a1 b2 c3\n")
    args = [refusing, games, "--player", "mine", "--castro", "x", "--min-plies", "3",
            "--from-ply", "1", "--jobs", "1"]
    assert drift.main(args) == 2
    assert "refused a command: ? illegal move" in capsys.readouterr().err
    # One judge, not none and not both.
    assert drift.main(args[:4] + ["--min-plies", "3"]) == 2
    assert "give one judge" in capsys.readouterr().err
    assert drift.main(args + ["--judge", "mcts"]) == 2


def test_ingame_speed_gives_each_agent_its_median_and_the_paired_ratio_by_hand(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str],
) -> None:
    speed = tool("ingame_speed")
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("first_spec,second_spec,first_time_ms,second_time_ms,"
                "first_iterations,second_iterations\n")
        # Three games of `one` and `two,batch=8`, seats swapped; one against a GTP engine,
        # which reports no iterations.
        f.write("one,two batch=8,100,200,2000,6000\n")   # 20 and 30 a ms: ratio 1.5
        f.write("two batch=8,one,100,100,4000,2000\n")   # 40 and 20: ratio 2
        f.write("one,two batch=8,50,50,1500,1500\n")     # 30 and 30: ratio 1
        f.write("one,gtp:castro,100,100,1000,0\n")       # 10 a ms; the engine left out
    found = speed.game_speeds([games])
    assert found[3] == {"one": 10.0}
    # By hand: `one` searched 20, 20, 30, 10 a ms (median 20), `two` 30, 40, 30 (median 30).
    assert speed.medians(found) == {"one": (20.0, 4), "two batch=8": (30.0, 3)}
    assert sorted(speed.ratios(found, "batch=8")) == [1.0, 1.5, 2.0]
    # Both or neither spec holding the text: no ratio.
    assert speed.ratios(found, "o") == [] and speed.ratios(found, "zzz") == []
    assert speed.main([games, "--new", "batch=8"]) == 0
    out = capsys.readouterr().out
    assert "median ratio 1.500" in out
    # The interval (paired_think.py's bootstrap) lies within the three ratios.
    low, high = (float(x) for x in out.split("[")[-1].split("]")[0].split(", "))
    assert 1.0 <= low <= 1.5 <= high <= 2.0
    assert speed.main([games, "--new", "zzz"]) == 2
    assert speed.main([os.path.join(tmp_path, "none.csv")]) == 2
    assert "cannot read the games" in capsys.readouterr().err


def test_castro_scaling_sends_castro_the_position_and_divides_each_engines_counts(
    tmp_path: "os.PathLike[str]", capsys: pytest.CaptureFixture[str],
) -> None:
    scaling = tool("castro_scaling")
    # Castro's commands: White first, cells transposed (e3 is c5, h10 is j8), one thread count.
    assert scaling.castro_commands(8, ["e3", "h10"], "-O 5", 2, 0.25) == [
        "boardsize 8", "verbose 1", "time -m 0.25 -g 0 -f 0", "player_params -O 5 -t 2",
        "play white c5", "play black j8", "genmove white", "quit",
    ]
    # Stand-ins: Castro reports 1,000 runs with one thread and 1,800 with two (on stderr, as
    # its verbose genmove does); arena 1,300 iterations with one and 2,080 with two.
    castro = script(os.path.join(tmp_path, "castro"),
                    'n=1000\nwhile read -r line; do\n'
                    '  case "$line" in *"-t 2"*) n=1800;; esac\n  echo "= "; echo\ndone\n'
                    'echo "Finished $n runs in 250 msec" >&2\n')
    arena = script(os.path.join(tmp_path, "arena"),
                   'case "$5" in *threads=2*) n=2080;; *) n=1300;; esac\n'
                   'echo move=a1 iterations=$n nodes=9\n')
    games = os.path.join(tmp_path, "games.csv")
    with open(games, "w") as f:
        f.write("id,moves\n0,e3 h10 a1 b2 c3\n")
    args = [arena, castro, "--games", games, "--agent", "mcts", "--plies", "2,4"]
    assert scaling.main(args) == 0
    out = capsys.readouterr().out
    # By hand: Castro 1800/1000 = 1.8, Ringside 2080/1300 = 1.6; Ringside over Castro 1.3 and
    # 2080/1800 = 1.156 (every position alike, so each interval is its point).
    assert "positions 2," in out
    assert "castro: median iterations a decision 1000 (one thread), 1800 (two); " \
           "two over one 1.800 [1.800, 1.800]" in out
    assert "two over one 1.600 [1.600, 1.600]" in out
    assert "ringside over castro, 1 thread: 1.300" in out
    assert "ringside over castro, 2 threads: 1.156" in out
    # A move Castro refuses, and no game long enough: one line, exit 2.
    refusing = script(os.path.join(tmp_path, "refusing"),
                      'while read -r line; do echo "? illegal move"; echo; done\n')
    assert scaling.main([arena, refusing] + args[2:]) == 2
    assert "Castro refused a command: ? illegal move" in capsys.readouterr().err
    assert scaling.main(args[:-1] + ["9"]) == 2
    assert "no game in" in capsys.readouterr().err


#: The runs behind each headline score of results/castro-best/README.md's "Where it stands",
#: as that table names them: (files, games they hold).
CASTRO_BEST_HEADLINES = [
    (["ctx-s6-user-d0.csv", "ctx-s6b-user-d0.csv"], 400),
    ([f"{run}-user-d0-know.csv" for run in ("ctx-s8x", "ctx-s8", "ctx-s8b", "ctx01-s8", "ctx5-s8")],
     1000),
    ([f"{run}-user-d0-know.csv" for run in ("ctx-s8", "ctx-s8b", "ctx01-s8", "ctx5-s8")], 800),
    ([f"ctx-s8t2{run}-user-d0-know.csv" for run in ("b8", "b8b", "b8c", "b8d")], 800),
    # The nearest to the size-8 target, by the throwaway build of shapes18/.
    ([f"resid-s8{run}-user-d0-know.csv" for run in ("", "b", "c")], 600),
    # preset=strong6 with one thread: the throwaway build's three runs and main's.
    ([f"{run}-user-d0-know.csv" for run in ("resid-s8", "resid-s8b", "resid-s8c", "wide-s8")], 800),
    # preset=strong6 with two threads, main's build.
    ([f"wide-s8t2b8{run}-user-d0-know.csv" for run in ("", "b")], 400),
    # strong6's fit on twice the games, one thread.
    ([f"wide2-s8{run}-user-d0-know.csv" for run in ("", "b")], 400),
    # ... and with two threads each: the two-thread target met.
    ([f"wide2-s8t2b8{run}-user-d0-know.csv" for run in ("", "b")], 400),
    # preset=strong7 (the refit built in) on size 6, one thread.
    ([f"strong7-s6{run}-user-d0.csv" for run in ("", "b")], 400),
    # ... and with tree parallelism's round on one thread, size 8: the one-thread target met.
    ([f"strong7r8-s8{run}-user-d0-know.csv" for run in ("", "b")], 400),
    # preset=strong8 on size 6: one preset for all three targets.
    ([f"strong8-s6{run}-user-d0.csv" for run in ("", "b")], 400),
]


@pytest.mark.parametrize("files,games", CASTRO_BEST_HEADLINES)
def test_castro_best_headline_scores_are_the_committed_games_pooled(
    files: List[str], games: int
) -> None:
    pooled = tool("pooled_elo")
    folder = os.path.join(ROOT, "results", "castro-best")
    scores = pooled.pair_scores("mcts:", "castro", [os.path.join(folder, f) for f in files])
    assert 2 * len(scores) == games
    mean, low, high, _ = pooled.pooled(scores)
    figure = (f"{100 * mean:.1f}%, {pooled.elo_text(mean)} "
              f"[{pooled.elo_text(low)}, {pooled.elo_text(high)}]").replace("-", "\u2212")
    with open(os.path.join(folder, "README.md")) as f:
        readme = f.read()
    start = readme.index("## Where it stands")
    section = readme[start:readme.index("\n## ", start + 1)]
    assert figure in section, f"{figure} not in the README's headline"
