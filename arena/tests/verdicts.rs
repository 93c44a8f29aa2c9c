//! `arena verdicts`: several games CSVs read as one family of tests, end to end.

use crate::common;

use common::{files_under, ok, path, refused, scratch, text};

fn play(out: &std::path::Path, agents: [&str; 2], seed: &str) {
    ok(&[
        "match",
        "--game",
        "connect_four",
        "--agents",
        agents[0],
        agents[1],
        "--games",
        "60",
        "--opening-plies",
        "2",
        "--seed",
        seed,
        "--threads",
        "1",
        "--out",
        path(out),
    ]);
}

#[test]
fn a_family_of_two_matches_calls_the_clear_one_and_states_each_tests_power() {
    let dir = scratch("verdicts");
    let (strong, even) = (dir.join("strong.csv"), dir.join("even.csv"));
    play(&strong, ["alphabeta:depth=3", "random"], "5");
    play(&even, ["random", "random"], "6");
    let md = text(&ok(&["verdicts", path(&strong), path(&even)]).stdout);
    assert!(md.starts_with("2 tests."), "{md}");
    let row = |name: &str| {
        md.lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no row for {name}: {md}"))
            .to_string()
    };
    let strong_row = row("strong.csv");
    assert!(strong_row.contains("| 30 |"), "{strong_row}");
    assert!(strong_row.ends_with("| first stronger |"), "{strong_row}");
    // Each row states the difference its test would find (a number of Elo, not a dash).
    let even_row = row("even.csv");
    assert!(even_row.ends_with("| no difference shown |"), "{even_row}");
    let finds: Vec<&str> = even_row.split('|').map(str::trim).collect();
    assert!(finds[8].parse::<f64>().unwrap() > 50.0, "{even_row}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_is_one_line_and_exit_2() {
    refused(&["verdicts", "no/such/file.csv"], "no/such/file.csv");
}

#[test]
fn every_committed_run_still_reads_its_settings_so_its_verdicts_can_be_recomputed() {
    // A moved net file (or a renamed option) would leave a committed run that `arena summary`
    // and `arena verdicts` can no longer read: the sidecar names each agent, and a net by path
    // and content.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let found = files_under(&root, ".csv.settings.json");
    assert!(found.len() > 100, "{} sidecars", found.len());
    std::env::set_current_dir(root.parent().unwrap()).unwrap();
    let broken: Vec<String> = found
        .iter()
        .filter_map(|s| {
            let csv =
                std::path::PathBuf::from(s.to_string_lossy().trim_end_matches(".settings.json"));
            ringside_arena::records::sidecar::read_sidecar(&csv)
                .err()
                .map(|e| format!("{}: {e}", csv.display()))
        })
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // A file read from outside the repository reads here but not in a clean clone: every file
    // a committed spec reads is named by a path inside it.
    let outside: Vec<String> = found
        .iter()
        .flat_map(|s| {
            let text = std::fs::read_to_string(s).unwrap();
            ["shapes=/", "movenet=/", "net=/", "weights=/"]
                .iter()
                .filter(|key| text.contains(*key))
                .map(|key| format!("{}: {key}…", s.display()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(outside.is_empty(), "{}", outside.join("\n"));
}
