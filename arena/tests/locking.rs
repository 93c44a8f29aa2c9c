//! One writer per output (issue 26): while one process writes a games file (a match, a run)
//! or an SPSA record, a second writer of the same output is refused
//! with one line and exit code 2, and the first finishes a complete, valid file with nothing
//! duplicated; a reader keeps working during the write.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{ok, path, refused, scratch, text};

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs")
}

/// Waits until `file` has more than `lines` lines (the first writer is under way).
fn wait_for_lines(file: &Path, lines: usize, child: &mut Child) {
    let start = Instant::now();
    loop {
        let n = std::fs::read_to_string(file).map_or(0, |t| t.lines().count());
        if n > lines {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first writer ended before writing {lines} lines"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn finish(mut child: Child) {
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(status.success(), "the first writer failed: {err}");
}

const MATCH: [&str; 11] = [
    "match",
    "--game",
    "rin:size=8",
    "--agents",
    "random",
    "mcts:iters=200",
    "--games",
    "300",
    "--threads",
    "1",
    "--out",
];

#[test]
fn a_second_match_on_the_same_file_is_refused_and_the_first_completes() {
    let dir = scratch("lock-match");
    let out = dir.join("c.csv");
    let mut args = MATCH.to_vec();
    args.push(path(&out));
    let mut first = spawn(&args);
    wait_for_lines(&out, 3, &mut first);
    refused(&args, "being written by another process");
    // A reader works during the write.
    let summary = ok(&["summary", path(&out)]);
    assert!(text(&summary.stdout).contains("rin"));
    finish(first);
    let summary = text(&ok(&["summary", path(&out)]).stdout);
    assert!(summary.contains("300 of 300 planned games"), "{summary}");
    // The file is whole: resuming finds nothing to play, and it is no longer locked.
    let again = text(&ok(&args).stderr);
    assert!(!again.contains("another process"), "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_run_of_one_experiment_is_refused() {
    let dir = scratch("lock-run");
    let file = dir.join("exp.toml");
    std::fs::write(
        &file,
        "name = \"lock\"\ngame = \"rin:size=8\"\nseed = 3\ngames = 300\n\n[[match]]\nagents = [\"random\", \"mcts:iters=200\"]\n",
    )
    .unwrap();
    let results = dir.join("results");
    let args = [
        "run",
        path(&file),
        "--results",
        path(&results),
        "--threads",
        "1",
    ];
    let mut first = spawn(&args);
    wait_for_lines(&results.join("lock").join("games.csv"), 3, &mut first);
    refused(&args, "being written by another process");
    finish(first);
    let summary = text(&ok(&["summary", path(&results.join("lock").join("games.csv"))]).stdout);
    assert!(summary.contains("300 of 300 planned games"), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_spsa_run_into_the_same_folder_is_refused() {
    let dir = scratch("lock-spsa");
    let out = dir.join("spsa");
    let args = [
        "tune",
        "spsa",
        "--game",
        "rin:size=8",
        "--agent",
        "mcts:iters=100",
        "--param",
        "c,1.4,0.2,4,0.2",
        "--iterations",
        "30",
        "--pairs",
        "2",
        "--threads",
        "1",
        "--out",
        path(&out),
    ];
    let mut first = spawn(&args);
    wait_for_lines(&out.join("spsa.csv"), 2, &mut first);
    refused(&args, "being written by another process");
    finish(first);
    let record = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let iterations: Vec<&str> = record
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let expected: Vec<String> = (1..=30).map(|i| i.to_string()).collect();
    assert_eq!(iterations, expected, "every iteration once, in order");
    std::fs::remove_dir_all(&dir).unwrap();
}
