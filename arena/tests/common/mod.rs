//! Helpers shared by the end-to-end tests: run the real `arena` binary, make scratch folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `arena` with `args` and extra environment variables.
pub fn arena_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the arena binary runs")
}

/// Runs `arena` with `args`.
pub fn arena(args: &[&str]) -> Output {
    arena_env(args, &[])
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A fresh folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ringside-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir` (depth first) whose name ends with `suffix`.
pub fn files_under(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out
}

/// Runs `arena` and requires success.
pub fn ok(args: &[&str]) -> Output {
    let o = arena(args);
    assert!(o.status.success(), "{args:?} failed: {}", text(&o.stderr));
    o
}

/// A path as `&str`.
pub fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit code 2 and exactly one line on stderr containing `expected`; no panic. Returns the line.
pub fn refused(args: &[&str], expected: &str) -> String {
    let o = arena(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: {err:?} lacks {expected:?}"
    );
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(!err.contains("panic"), "{args:?}: {err}");
    err
}

/// Whether a games CSV column holds what the clock decides (time spent, longest move, moves
/// over budget), which two runs of the same games need not share.
pub fn timing_column(name: &str) -> bool {
    ["_time_ms", "_max_ms", "_overruns"]
        .iter()
        .any(|end| name.ends_with(end))
}

/// The rows of a games CSV without the columns the clock decides, sorted by id.
pub fn untimed_rows(file: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(file).unwrap();
    let h = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..h.len()).filter(|&i| !timing_column(&h[i])).collect();
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|row| {
            let row = row.unwrap();
            keep.iter().map(|&i| row[i].to_string()).collect()
        })
        .collect();
    rows.sort_by_key(|r| r[0].parse::<u64>().unwrap());
    rows
}
