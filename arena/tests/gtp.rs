//! GTP both ways: the server (`arena gtp`) in a scripted session, the client (`gtp:cmd=...`
//! agents) against a scripted fake engine that fails on purpose, and the two together.

use crate::common;

use std::io::Cursor;
use std::path::Path;

use common::{ok, path, scratch, text};
use ringside_agents::LabelledSpec;
use ringside_agents::gtp::Coords;
use ringside_arena::plan::{PlanBuilder, RunPlan};
use ringside_arena::records::row::{GameRow, Reason};
use ringside_arena::run::play::agent_seed;
use ringside_arena::run::pool::Silent;
use ringside_arena::run::runner::{fault_log_path, run_in_memory};
use ringside_engine::registry::GAMES;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
/// The scripted engine of `tests/fixtures/`, which `cargo test` builds as an example beside
/// the test binaries (`target/<profile>/examples/`).
static FAKE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let deps = std::env::current_exe().unwrap();
    let profile = deps.parent().unwrap().parent().unwrap();
    let fake = profile
        .join("examples")
        .join(format!("gtp-fake-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        fake.exists(),
        "{} is missing: `cargo test` builds it (a run limited with --test all does not: `cargo build --release --example gtp-fake-engine`)",
        fake.display()
    );
    fake.to_string_lossy().into_owned()
});

/// Serves `script` and returns the answers, one string an answer (without the blank line).
fn session(game: &str, agent: &str, script: &str) -> Vec<String> {
    session_in(game, agent, Coords::Ringside, script)
}

/// [`session`] with moves in the notation `coords`.
fn session_in(game: &str, agent: &str, coords: Coords, script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let game = ringside_engine::registry::AnyGame::parse(game).unwrap();
    ringside_arena::protocols::gtp::serve(
        &game,
        &LabelledSpec::parse(agent).unwrap(),
        3,
        coords,
        &mut Cursor::new(script),
        &mut out,
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.ends_with("\n\n"),
        "every answer ends with a blank line: {out:?}"
    );
    out.trim_end_matches('\n')
        .split("\n\n")
        .map(str::to_string)
        .collect()
}

#[test]
fn hex_is_served_in_hexguis_notation_with_swap_pieces_and_two_number_boardsize() {
    let script = "\
boardsize 5 5
boardsize 5 6
play b c2
play w swap-pieces
showboard
genmove b
play w swap
";
    let answers = session_in("hex:swap=on", "random", Coords::HexGui, script);
    assert_eq!(answers[0], "=");
    assert_eq!(answers[1], "? unacceptable size");
    assert_eq!(answers[2], "=");
    assert_eq!(answers[3], "=", "HexGui's swap-pieces is the swap");
    // Black's c2 (column c, row 2) mirrored into White's b3.
    assert!(
        answers[4].contains("\n . . . . .\n  . W . . ."),
        "{}",
        answers[4]
    );
    assert!(answers[5].starts_with("= "), "{}", answers[5]);
    assert!(
        answers[6].starts_with("? illegal move 'swap'"),
        "{}",
        answers[6]
    );
}

#[test]
fn the_server_answers_every_command_and_refuses_bad_ones_with_a_question_mark() {
    let script = "\
protocol_version
7 name
version
known_command genmove
known_command fly
list_commands
komi 6.5
komi lots
boardsize 4
boardsize 99
boardsize x
clear_board
# a comment line, ignored

play w a1
play w b2
play b a1
play b zz9
play purple b2
genmove w
final_score
undo
undo
undo
showboard
frobnicate
ringside-game hexxagon:side=3
genmove b
ringside-game chess
quit
play w a1
";
    let answers = session("havannah:size=5", "mcts:iters=50", script);
    let expected_start = [
        "= 2",
        "=7 Ringside",
        &format!("= {}", env!("CARGO_PKG_VERSION")),
        "= true",
        "= false",
    ];
    assert_eq!(answers[..5], expected_start);
    assert_eq!(
        answers[5],
        format!("= {}", ringside_arena::protocols::gtp::COMMANDS.join("\n"))
    );
    assert_eq!(answers[6], "=", "komi is accepted");
    assert!(answers[7].starts_with("? syntax error"), "{}", answers[7]);
    assert_eq!(answers[8], "=", "boardsize 4 is havannah:size=4");
    assert_eq!(answers[9], "? unacceptable size");
    assert!(answers[10].starts_with("? syntax error"));
    assert_eq!(answers[11], "=");
    assert_eq!(answers[12], "=", "white (the first player) plays a1");
    assert!(
        answers[13].starts_with("? it is black's turn"),
        "{}",
        answers[13]
    );
    assert!(
        answers[14].starts_with("? illegal move 'a1'"),
        "{}",
        answers[14]
    );
    assert!(
        answers[15].starts_with("? illegal move 'zz9'"),
        "{}",
        answers[15]
    );
    assert!(answers[16].contains("not a colour"));
    assert!(
        answers[17].starts_with("? it is black's turn"),
        "{}",
        answers[17]
    );
    assert_eq!(answers[18], "? the game is not over");
    assert_eq!(answers[19], "=", "undo takes a1 back");
    assert!(answers[20].starts_with("? cannot undo"));
    assert!(answers[21].starts_with("? cannot undo"));
    assert!(
        answers[22].starts_with("=\n"),
        "the board starts on a new line"
    );
    assert!(answers[22].contains("white to move"));
    assert_eq!(answers[23], "? unknown command 'frobnicate'");
    assert_eq!(answers[24], "=", "switched to Hexxagon");
    assert!(
        answers[25].starts_with("= "),
        "b is light, Hexxagon's first: {}",
        answers[25]
    );
    assert!(answers[26].starts_with("? unknown game"), "{}", answers[26]);
    assert_eq!(answers[27], "=", "quit answers");
    assert_eq!(answers.len(), 28, "nothing is read after quit");
}

#[test]
fn the_server_plays_a_whole_game_and_scores_it() {
    // Hexxagon side 3 between the server's agent and moves from the script is long to
    // script; a random agent playing both colours through genmove reaches the end.
    let mut script = String::from("ringside-game hexxagon:side=3\n");
    for _ in 0..200 {
        script.push_str("genmove b\ngenmove w\n");
    }
    script.push_str("final_score\n");
    let answers = session("rin:size=6", "random", &script);
    let last = answers.last().unwrap();
    assert!(
        last.starts_with("= B+") || last.starts_with("= W+") || last == "= 0",
        "{last}"
    );
}

/// A plan of one colour-swapped pair: `engine` against random on `game`.
fn pair(game: &str, engine: &str) -> RunPlan {
    PlanBuilder::new(game)
        .pairing(engine, "random")
        .games(2)
        .seed(11)
        .build()
        .unwrap()
}

/// Processes whose parent is this test process and whose name starts with `name`.
fn children_named(name: &str) -> usize {
    let me = std::process::id().to_string();
    let mut count = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let Some((head, tail)) = stat.rsplit_once(") ") else {
            continue;
        };
        let comm = head.split_once(" (").map_or("", |(_, c)| c);
        let ppid = tail.split_whitespace().nth(1).unwrap_or("");
        if ppid == me && name.starts_with(comm) {
            count += 1;
        }
    }
    count
}

#[test]
fn every_engine_fault_loses_the_game_with_its_reason_and_leaves_no_process() {
    let cases = [
        ("crash", Reason::EngineCrash),
        ("stall", Reason::TimeForfeit),
        ("garbage", Reason::ProtocolError),
        ("error", Reason::ProtocolError),
        ("illegal", Reason::IllegalMove),
        ("unparsable", Reason::IllegalMove),
        ("resign", Reason::Resign),
    ];
    for (mode, reason) in cases {
        let engine = format!(
            "gtp:cmd={} havannah:size=4 {mode} 2,time_ms=300,margin_ms=200",
            *FAKE
        );
        let plan = pair("havannah:size=4", &engine);
        let started = std::time::Instant::now();
        let rows = run_in_memory(&plan, Some(2), &mut Silent).unwrap();
        assert!(
            started.elapsed().as_secs() < 20,
            "{mode}: the match never hangs"
        );
        assert_eq!(rows.len(), 2, "{mode}: both games finish");
        for row in &rows {
            assert_eq!(row.reason, reason, "{mode}");
            assert_eq!(row.winner_agent(), Some(1), "{mode}: the engine lost");
            let fault = row.fault.as_deref().unwrap_or("");
            if reason != Reason::Resign {
                assert!(
                    fault.contains("fake engine: now"),
                    "{mode}: stderr tail kept: {fault}"
                );
            }
        }
        assert_eq!(
            children_named("gtp-fake-engine"),
            0,
            "{mode}: no process left"
        );
    }
    // An engine that ignores `quit` is killed after the grace period; its games are fine.
    let plan = pair(
        "havannah:size=4",
        &format!("gtp:cmd={} havannah:size=4 deaf 0", *FAKE),
    );
    let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
    assert!(
        rows.iter()
            .all(|r| r.reason == Reason::Normal && r.fault.is_none())
    );
    assert_eq!(
        children_named("gtp-fake-engine"),
        0,
        "deaf: killed and reaped"
    );
}

/// The moves of each row, by id.
fn moves(rows: &[GameRow]) -> Vec<String> {
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| r.id);
    rows.into_iter().map(|r| r.moves).collect()
}

#[test]
fn the_server_driven_by_the_client_plays_the_in_process_agents_moves_on_every_game() {
    for info in GAMES {
        let agent = "mcts:iters=40,reuse=off";
        let pair_against_random = |first: &str| {
            PlanBuilder::new(info.name)
                .pairing(first, "random")
                .games(2)
                .seed(5)
                .opening_plies(2)
                .ply_cap(Some(80))
                .build()
                .unwrap()
        };
        let local = pair_against_random(agent);
        // Both games of the pair seat the pairing's first agent as role 0.
        let seed = agent_seed(local.pair_seed(local.slot(0).unwrap()), 0);
        // The agent spec has a comma: the command goes in double quotes.
        let served = format!(
            "gtp:cmd=\"{ARENA} gtp --game {} --agent {agent} --seed {seed}\"",
            info.name
        );
        let remote = pair_against_random(&served);
        let a = run_in_memory(&local, Some(2), &mut Silent).unwrap();
        let b = run_in_memory(&remote, Some(2), &mut Silent).unwrap();
        assert!(
            b.iter().all(|r| r.fault.is_none()),
            "{}: {:?}",
            info.name,
            b[0].fault
        );
        assert_eq!(moves(&a), moves(&b), "{}", info.name);
    }
}

#[test]
fn a_hex_engine_speaking_hexguis_notation_plays_the_in_process_agents_moves() {
    // Both ends in HexGui's notation: the client writes swap-pieces, the server reads it.
    // Over 100 games with random play as White half the time, some games swap.
    let game = "hex:size=4,swap=on";
    let agent = "mcts:iters=20,reuse=off";
    let plan = |first: &str| {
        PlanBuilder::new(game)
            .pairing(first, "random")
            .games(100)
            .seed(9)
            .ply_cap(Some(80))
            .build()
            .unwrap()
    };
    let local = plan(agent);
    let seed = agent_seed(local.pair_seed(local.slot(0).unwrap()), 0);
    let served = format!(
        "gtp:cmd=\"{ARENA} gtp --game {game} --coords hexgui --agent {agent} --seed {seed}\",coords=hexgui"
    );
    let remote = plan(&served);
    let a = run_in_memory(&local, Some(2), &mut Silent).unwrap();
    let b = run_in_memory(&remote, Some(2), &mut Silent).unwrap();
    assert!(b.iter().all(|r| r.fault.is_none()), "{:?}", b[0].fault);
    // The same seed for every pair only when the plan gives one: compare the first pair.
    assert_eq!(moves(&a)[..2], moves(&b)[..2]);
    assert!(
        moves(&b).iter().any(|m| m.contains("swap")),
        "some game swaps"
    );
}

#[test]
fn two_outside_engines_play_a_match_through_the_binary_with_a_csv_summary_and_fault_log() {
    let dir = scratch("gtp-match");
    let csv = dir.join("games.csv");
    let served = format!("gtp:cmd={ARENA} gtp --game havannah --agent mcts:iters=30");
    let crashing = format!("gtp:cmd={} havannah:size=5 crash 3,name=fake", *FAKE);
    let o = ok(&[
        "match",
        "--game",
        "havannah:size=5",
        "--agents",
        &served,
        &crashing,
        "--games",
        "4",
        "--out",
        path(&csv),
        "--quiet",
    ]);
    let summary = text(&o.stdout);
    assert!(
        summary.contains("engine_crash") || summary.contains("faults"),
        "{summary}"
    );
    let content = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(content.lines().count(), 5, "a header and four games");
    assert_eq!(content.matches(",engine_crash,").count(), 4, "{content}");
    let log = std::fs::read_to_string(fault_log_path(&csv)).unwrap();
    assert_eq!(log.matches("engine_crash").count(), 4, "{log}");
    assert!(log.contains("fake engine: now 'crash'"), "{log}");
    // The file reads back, replays and summarises like any other.
    ok(&["summary", path(&csv)]);
    assert!(Path::new(&csv).exists());
}

#[test]
fn boardsize_keeps_the_games_other_options() {
    // With the swap rule the second player may take the first stone's cell; without it, not.
    let script = "boardsize 4\nplay w a1\nplay b a1\n";
    let swap = session("havannah:size=5,swap=on", "mcts:iters=20", script);
    assert_eq!(swap, ["=", "=", "="], "swap=on survives boardsize");
    let plain = session("havannah:size=5", "mcts:iters=20", script);
    assert_eq!(plain[..2], ["=", "="]);
    assert!(plain[2].starts_with("? illegal move"), "{}", plain[2]);
}
