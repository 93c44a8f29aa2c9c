//! `arena tune zero` end to end with a stand-in trainer (a shell script answering `-m
//! ringside.zero init|train` by copying a fixture network and logging what it was given), so
//! the loop's files, its resume and its refusals are tested without PyTorch; the Python tests
//! run it with the real trainer.

use std::path::{Path, PathBuf};

use super::common::{arena, path, refused, scratch, text};

const NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../agents/tests/data/pvnet-fixture-square.rspvn"
);

/// A stand-in for `python`: `-m ringside.zero COMMAND ... --out DIR ...` writes DIR/net.rspvn
/// (the fixture), net.pt and train.json, and appends the command line to `log`; with
/// `ZERO_FAIL` set it fails saying so.
fn fake_python(dir: &Path) -> PathBuf {
    let script = dir.join("python");
    let log = dir.join("trainer.log");
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/bash
echo "$@" >> {log}
if [ -n "$ZERO_FAIL" ]; then echo "Traceback (most recent call last):" >&2; echo "error: $ZERO_FAIL" >&2; exit 1; fi
out=""
while [ $# -gt 0 ]; do if [ "$1" = --out ]; then out="$2"; fi; shift; done
mkdir -p "$out"
echo weights > "$out/net.pt"
echo '{{"samples": 7, "epochs": [{{"policy": 1.5, "value": 0.5, "held_policy": 1.6, "held_value": 0.6}}]}}' > "$out/train.json"
cp {NET} "$out/net.rspvn"
"#,
            log = log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn run(out: &Path, python: &Path, extra: &[&str]) -> std::process::Output {
    // The defaults below, but where `extra` gives its own.
    let mut defaults = Vec::new();
    for (flag, value) in [("--games", "4"), ("--gate-games", "2")] {
        if !extra.contains(&flag) {
            defaults.extend([flag, value]);
        }
    }
    let mut args = vec![
        "tune",
        "zero",
        "--game",
        "connect_four:rows=4,columns=5",
        "--iters",
        "8",
        "--reference",
        "random",
        "--reference-games",
        "2",
        "--window",
        "2",
        "--threads",
        "2",
        "--quiet",
        "--python",
        path(python),
        "--out",
        path(out),
    ];
    args.extend_from_slice(&defaults);
    args.extend_from_slice(extra);
    arena(&args)
}

#[test]
fn a_zero_run_keeps_every_generation_and_resumes_a_kill_to_the_same_files() {
    let dir = scratch("zero-run");
    let python = fake_python(&dir);
    let out = dir.join("run");
    let o = run(&out, &python, &["--generations", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for g in 0..=3 {
        assert!(
            out.join(format!("gen-{g:03}/net.rspvn")).is_file(),
            "gen {g}"
        );
    }
    for g in 0..3 {
        let samples = std::fs::read(out.join(format!("gen-{g:03}/selfplay.samples"))).unwrap();
        assert_eq!(&samples[..8], b"RSZSP\0\0\x01");
        let games = std::fs::read_to_string(out.join(format!("gen-{g:03}/selfplay.csv"))).unwrap();
        assert_eq!(games.lines().count(), 1 + 4);
    }
    for f in [
        "generations.csv",
        "losses.svg",
        "strength.svg",
        "summary.md",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let rows = std::fs::read_to_string(out.join("generations.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1 + 3);
    // The trainer saw each generation's window of samples, from the generation's network.
    let log = std::fs::read_to_string(dir.join("trainer.log")).unwrap();
    let trains: Vec<&str> = log.lines().filter(|l| l.contains(" train ")).collect();
    assert_eq!(trains.len(), 3);
    assert!(trains[2].contains("gen-002/net.pt") && trains[2].contains("gen-003"));
    assert!(trains[2].contains("gen-001/selfplay.samples"));
    assert!(trains[2].contains("gen-002/selfplay.samples"));
    assert!(
        !trains[2].contains("gen-000/selfplay.samples"),
        "a window of 2"
    );
    // A kill after the last training, in the middle of its gate: the rerun trains nothing
    // again and ends with the same records.
    let before = std::fs::read(out.join("generations.csv")).unwrap();
    let gate = out.join("gen-003/gate.csv");
    let full = std::fs::read_to_string(&gate).unwrap();
    let cut: Vec<&str> = full.lines().take(2).collect();
    std::fs::write(&gate, cut.join("\n") + "\n").unwrap();
    std::fs::remove_file(out.join("gen-002/selfplay.samples")).unwrap();
    std::fs::remove_file(out.join("generations.csv")).unwrap();
    let o = run(&out, &python, &["--generations", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(out.join("generations.csv")).unwrap(), before);
    let log = std::fs::read_to_string(dir.join("trainer.log")).unwrap();
    assert_eq!(log.lines().filter(|l| l.contains(" train ")).count(), 3);
    // More generations continue the run; other settings are refused in one line.
    let o = run(&out, &python, &["--generations", "4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.join("gen-004/net.rspvn").is_file());
    let err = text(&run(&out, &python, &["--generations", "4", "--puct", "1"]).stderr);
    assert!(err.contains("other settings"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_failing_trainer_a_game_without_a_grid_and_bad_settings_are_one_line_each() {
    let dir = scratch("zero-refused");
    let python = fake_python(&dir);
    let out = dir.join("run");
    let o = super::common::arena_env(
        &[
            "tune",
            "zero",
            "--game",
            "connect_four",
            "--python",
            path(&python),
            "--out",
            path(&out),
            "--quiet",
        ],
        &[("ZERO_FAIL", "no torch here")],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the trainer") && err.contains("no torch here"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let base = [
        "tune",
        "zero",
        "--out",
        path(&out),
        "--python",
        path(&python),
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    refused(&with(&["--game", "rin"]), "has no grid for a network");
    refused(
        &with(&["--game", "connect_four", "--games", "0"]),
        "--games must be at least 1",
    );
    refused(
        &with(&["--game", "connect_four", "--gate-games", "3"]),
        "must be even",
    );
    refused(
        &with(&["--game", "connect_four", "--noise", "2"]),
        "--noise must be from 0 to 1",
    );
    refused(
        &with(&["--game", "connect_four", "--reference", "mcts:bogus=1"]),
        "--reference",
    );
}

#[test]
fn resignation_ends_self_play_games_and_check_games_count_the_false_ones() {
    let dir = scratch("zero-resign");
    let python = fake_python(&dir);
    let out = dir.join("run");
    // A threshold of 1: every search is below it, so every game resigns at once, but the
    // check games (half of them here), which play on.
    let o = run(
        &out,
        &python,
        &[
            "--generations",
            "1",
            "--games",
            "12",
            "--resign",
            "1",
            "--resign-check",
            "0.5",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let games = std::fs::read_to_string(out.join("gen-000/selfplay.csv")).unwrap();
    let resigned = games.lines().filter(|l| l.contains(",resigned 0,")).count();
    let checked = games.lines().filter(|l| l.contains(",would 0 ")).count();
    assert_eq!(resigned + checked, 12, "{games}");
    assert!(resigned > 0 && checked > 0, "{games}");
    // A resigned game has no positions and the first player lost it.
    for line in games.lines().filter(|l| l.contains(",resigned 0,")) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!((f[3], f[4]), ("0", "0-1"), "{line}");
    }
    let row = std::fs::read_to_string(out.join("generations.csv")).unwrap();
    let fields: Vec<&str> = row.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(fields[6].parse::<usize>().unwrap(), resigned);
    assert_eq!(fields[7].parse::<usize>().unwrap(), checked);
    let wrongly = games.lines().filter(|l| l.contains(" wrongly,")).count();
    assert_eq!(fields[8].parse::<usize>().unwrap(), wrongly);
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains(&format!("{resigned} games resigned")),
        "{summary}"
    );
    refused(
        &[
            "tune",
            "zero",
            "--game",
            "connect_four",
            "--resign",
            "-3",
            "--out",
            path(&dir.join("x")),
        ],
        "--resign must be a value from -1 to 1",
    );
}

#[test]
fn an_sprt_gate_stops_where_it_decides_and_a_bad_one_is_refused() {
    let dir = scratch("zero-sprt");
    let python = fake_python(&dir);
    let out = dir.join("run");
    // The stand-in trainer writes the same network every generation: the gate plays a
    // network against itself, which an SPRT for +400 Elo rejects early.
    let o = run(
        &out,
        &python,
        &[
            "--generations",
            "1",
            "--gate-games",
            "200",
            "--gate-sprt",
            "0,400,0.05,0.05",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gate = std::fs::read_to_string(out.join("gen-001/gate.csv")).unwrap();
    let played = gate.lines().count() - 1;
    assert!((2..200).contains(&played), "stopped early: {played}");
    let row = std::fs::read_to_string(out.join("generations.csv")).unwrap();
    let last = row.lines().nth(1).unwrap();
    assert!(last.contains(",false,"), "H0 keeps the best: {last}");
    refused(
        &[
            "tune",
            "zero",
            "--game",
            "connect_four",
            "--gate-sprt",
            "0,5",
            "--out",
            path(&dir.join("x")),
        ],
        "elo0,elo1,alpha,beta",
    );
}
