//! One writer per output (issue 26): while one process writes a games file (a match, a run, a
//! merge, a game saved by `play`) or an SPSA record, a second writer of the same output is
//! refused with one line and exit code 2, and the first finishes a complete, valid file with
//! nothing duplicated; a reader keeps working during the write.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{ok, path, refused, scratch, text};

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs")
}

/// Waits until `done()` holds, while `child` still runs.
fn wait_until(child: &mut Child, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first writer ended before {what}"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
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

/// A finished random match of `games` games into `out`.
fn random_match(out: &Path, games: &str, extra: &[&str]) {
    let mut args = vec![
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        games,
        "--seed",
        "3",
        "--quiet",
        "--out",
        path(out),
    ];
    args.extend(extra);
    ok(&args);
}

#[test]
fn a_second_merge_into_the_same_place_is_refused_and_the_first_completes() {
    let dir = scratch("lock-merge");
    let (one, two) = (dir.join("s1.csv"), dir.join("s2.csv"));
    random_match(&one, "200000", &["--shard", "1/2"]);
    random_match(&two, "200000", &["--shard", "2/2"]);
    let merged = dir.join("merged.csv");
    let args = ["merge", path(&one), path(&two), "--out", path(&merged)];
    let mut first = spawn(&args);
    // The first merge is under way once its temporary file appears.
    let temporary = |d: &Path| {
        std::fs::read_dir(d).unwrap().any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".partial")
        })
    };
    wait_until(&mut first, "a temporary file", || temporary(&dir));
    refused(&args, "another merge is writing into");
    // Another output in the same folder is refused too: the folder is what a merge locks.
    let other = dir.join("other.csv");
    refused(
        &["merge", path(&one), "--out", path(&other)],
        "another merge is writing into",
    );
    finish(first);
    let summary = text(&ok(&["summary", path(&merged)]).stdout);
    assert!(
        summary.contains("200000 of 200000 planned games"),
        "{summary}"
    );
    assert!(!temporary(&dir), "no temporary file is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_merge_into_a_file_being_played_or_of_a_shard_being_played_is_refused() {
    let dir = scratch("lock-merge-live");
    let done = dir.join("s1.csv");
    random_match(&done, "300", &["--shard", "1/2"]);
    let live = dir.join("s2.csv");
    let mut args = MATCH.to_vec();
    args.push(path(&live));
    args.extend(["--shard", "2/2"]);
    let mut playing = spawn(&args);
    wait_for_lines(&live, 3, &mut playing);
    let merged = dir.join("merged").join("games.csv");
    std::fs::create_dir_all(merged.parent().unwrap()).unwrap();
    refused(
        &["merge", path(&done), path(&live), "--out", path(&merged)],
        "still being written by another process",
    );
    assert!(!merged.exists(), "a refused merge writes nothing");
    // A merge whose output is the file being played is refused, however it is asked.
    refused(
        &["merge", path(&done), "--replace", "--out", path(&live)],
        "being written by another process",
    );
    finish(playing);
    let lines = std::fs::read_to_string(&live).unwrap().lines().count();
    assert_eq!(
        lines, 151,
        "the played shard is whole: a header and 150 games"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_play_saving_to_the_same_file_is_refused_before_its_game() {
    let dir = scratch("lock-play");
    let saved = dir.join("people.csv");
    let args = [
        "play",
        "--game",
        "rin:size=6",
        "--agent",
        "random",
        "--save",
        path(&saved),
    ];
    let mut first = spawn(&args);
    let sidecar = dir.join("people.csv.settings.json");
    wait_until(&mut first, "the saved file's settings", || sidecar.exists());
    // The second person is refused at once, before playing a game that could not be saved.
    refused(&args, "being written by another process");
    std::io::Write::write_all(first.stdin.as_mut().unwrap(), b"quit\n").unwrap();
    drop(first.stdin.take());
    finish(first);
    let summary = text(&ok(&["summary", path(&saved)]).stdout);
    assert!(summary.contains("1 of 2 planned games"), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}
