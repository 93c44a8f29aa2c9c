//! The Slurm path of tools/slurm/README.md, run as Slurm runs it (issue 26): the README's
//! scripts (`match.sbatch`, `merge.sbatch`) executed by bash with the array variables exactly
//! as Slurm sets them in each task (`SLURM_ARRAY_TASK_ID`, `_MIN`, `_MAX`, `_COUNT`, `_STEP`),
//! for `--array=1-3`, for `--array=0-2` with one task failed and resubmitted later as
//! `--array=K`, and for a killed task resubmitted; every merge is compared with one machine
//! playing the whole match.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{ok, path, scratch, text};

/// The match of every test, as the README's `sbatch` line passes it to match.sbatch.
const MATCH: [&str; 10] = [
    "--game",
    "rin:size=6",
    "--agents",
    "random",
    "mcts:iters=30",
    "--games",
    "36",
    "--seed",
    "7",
    "--ply-cap",
];
const CAP: &str = "60";

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/slurm")
        .join(name)
}

/// Runs `script` as Slurm runs one task of `sbatch --array=MIN-MAX`: task `id`.
fn task(script_name: &str, args: &[&str], (id, min, max): (u64, u64, u64)) -> Output {
    let mut c = Command::new("bash");
    c.arg(script(script_name)).args(args);
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_CPUS_PER_TASK",
    ] {
        c.env_remove(v);
    }
    c.env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .env("SLURM_ARRAY_JOB_ID", "4242")
        .env("SLURM_ARRAY_TASK_ID", id.to_string())
        .env("SLURM_ARRAY_TASK_MIN", min.to_string())
        .env("SLURM_ARRAY_TASK_MAX", max.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", (max - min + 1).to_string())
        .env("SLURM_ARRAY_TASK_STEP", "1")
        .env("SLURM_CPUS_PER_TASK", "2");
    c.output().expect("bash runs")
}

/// `sbatch --array=MIN-MAX match.sbatch OUT_DIR MATCH...`, task `id`; it must succeed.
fn match_task(out_dir: &Path, array: (u64, u64, u64)) {
    let mut args = vec![path(out_dir)];
    args.extend(MATCH);
    args.push(CAP);
    let o = task("match.sbatch", &args, array);
    assert!(o.status.success(), "task {array:?}: {}", text(&o.stderr));
}

/// `sbatch merge.sbatch OUT_DIR` (the merge job has no array variables of its own to matter).
fn merge_job(out_dir: &Path) -> Output {
    let mut c = Command::new("bash");
    c.arg(script("merge.sbatch")).arg(out_dir);
    c.env("ARENA", env!("CARGO_BIN_EXE_arena"));
    c.output().expect("bash runs")
}

/// The whole match played on one machine.
fn one_machine(dir: &Path) -> PathBuf {
    let whole = dir.join("whole.csv");
    let mut args = vec!["match"];
    args.extend(MATCH);
    args.extend([CAP, "--quiet", "--out", path(&whole)]);
    ok(&args);
    whole
}

/// A games file's rows without the time columns, by id.
fn untimed(p: &Path) -> Vec<Vec<String>> {
    common::untimed_rows(p)
}

fn summary_csv_column(out_dir: &Path, column: &str) -> Vec<String> {
    let mut r = csv::Reader::from_path(out_dir.join("summary/summary.csv")).unwrap();
    let at = r.headers().unwrap().iter().position(|h| h == column);
    let at = at.unwrap_or_else(|| panic!("summary.csv has no column {column}"));
    r.records().map(|x| x.unwrap()[at].to_string()).collect()
}

#[test]
fn an_array_from_one_plays_the_one_machine_games_with_files_named_by_shard() {
    let dir = scratch("slurm-1-3");
    let whole = one_machine(&dir);
    let out = dir.join("run");
    for id in 1..=3 {
        match_task(&out, (id, 1, 3));
    }
    for k in 1..=3 {
        assert!(out.join(format!("shard-{k}.csv")).exists());
    }
    let merged = merge_job(&out);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(untimed(&out.join("games.csv")), untimed(&whole));
    assert_eq!(summary_csv_column(&out, "missing_shards"), vec![""]);

    // A task killed mid-run: its file is cut inside a row. Resubmitted alone (sbatch
    // --array=2: ID 2, MIN 2, MAX 2, COUNT 1), it plays shard 2 of 3 again, keeping its games.
    let shard = out.join("shard-2.csv");
    let full = std::fs::read_to_string(&shard).unwrap();
    let cut = full.len() - full.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&shard, &full[..cut]).unwrap();
    match_task(&out, (2, 2, 2));
    assert_eq!(untimed(&shard), untimed_of_text(&dir, &full));
    let merged = merge_job(&out);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(untimed(&out.join("games.csv")), untimed(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn untimed_of_text(dir: &Path, csv_text: &str) -> Vec<Vec<String>> {
    let file = dir.join("expected.csv");
    std::fs::write(&file, csv_text).unwrap();
    untimed(&file)
}

#[test]
fn an_array_from_zero_with_a_failed_task_is_merged_partial_then_whole_after_the_rerun() {
    let dir = scratch("slurm-0-2");
    let whole = one_machine(&dir);
    let out = dir.join("run");
    // sbatch --array=0-2: tasks 0 and 2 succeed; task 1 fails before playing anything.
    match_task(&out, (0, 0, 2));
    match_task(&out, (2, 0, 2));
    assert!(out.join("shard-1.csv").exists(), "task 0 plays shard 1");
    assert!(out.join("shard-3.csv").exists(), "task 2 plays shard 3");
    assert!(!out.join("shard-2.csv").exists());

    // The afterok merge never runs; merged by hand (README), the file is marked partial and
    // the missing shard is named as its file is named.
    let partial = merge_job(&out);
    assert!(partial.status.success(), "{}", text(&partial.stderr));
    assert!(
        text(&partial.stderr).contains("shard(s) 2 missing"),
        "{}",
        text(&partial.stderr)
    );
    assert_eq!(summary_csv_column(&out, "missing_shards"), vec!["2"]);
    let summary_md = std::fs::read_to_string(out.join("summary/summary.md")).unwrap();
    assert!(summary_md.contains("**Partial:**"), "{summary_md}");

    // A re-merge that fails (here: a stray copy of a shard) keeps the last good file.
    let good = std::fs::read(out.join("games.csv")).unwrap();
    let good_sidecar = std::fs::read(out.join("games.csv.settings.json")).unwrap();
    let stray = out.join("shard-9.csv");
    std::fs::copy(out.join("shard-1.csv"), &stray).unwrap();
    std::fs::copy(
        out.join("shard-1.csv.settings.json"),
        out.join("shard-9.csv.settings.json"),
    )
    .unwrap();
    let failed = merge_job(&out);
    assert_eq!(failed.status.code(), Some(2), "{}", text(&failed.stderr));
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), good);
    assert_eq!(
        std::fs::read(out.join("games.csv.settings.json")).unwrap(),
        good_sidecar
    );
    std::fs::remove_file(&stray).unwrap();
    std::fs::remove_file(out.join("shard-9.csv.settings.json")).unwrap();

    // The failed task resubmitted: sbatch --array=1 (ID 1, MIN 1, MAX 1, COUNT 1) plays shard
    // 2 of 3, and the merge replaces the partial file with the whole match.
    match_task(&out, (1, 1, 1));
    let merged = merge_job(&out);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(untimed(&out.join("games.csv")), untimed(&whole));
    assert_eq!(summary_csv_column(&out, "missing_shards"), vec![""]);

    // An array that is not the recorded one is refused, with one line.
    let mut args = vec![path(&out)];
    args.extend(MATCH);
    args.push(CAP);
    let other = task("match.sbatch", &args, (5, 5, 6));
    assert_eq!(other.status.code(), Some(2));
    assert!(
        text(&other.stderr).contains("records a first array of tasks 0-2"),
        "{}",
        text(&other.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
