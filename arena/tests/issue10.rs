//! Regression tests for issue 10: each failure the issue lists, driven through the real
//! binary (and the library, where the issue asks for it).

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{arena, arena_env, ok, path, refused, scratch, text};

/// A small finished match of random players on 6×6 Rin into `out`.
fn small_match(out: &Path, seed: &str, games: &str) -> Output {
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        games,
        "--seed",
        seed,
        "--out",
        path(out),
        "--quiet",
        "--threads",
        "1",
    ])
}

/// Replaces the first occurrence of `from` in the data rows (not the header) of `csv`.
fn edit_rows(csv: &Path, edit: impl Fn(&str) -> String) {
    let content = std::fs::read_to_string(csv).unwrap();
    let (header, rows) = content.split_once('\n').unwrap();
    std::fs::write(csv, format!("{header}\n{}", edit(rows))).unwrap();
}

/// The data lines of a CSV, split into fields naively (our fields hold no newlines).
fn data_lines(csv: &Path) -> Vec<String> {
    std::fs::read_to_string(csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

#[test]
fn issue10_rows_of_another_seed_under_a_sidecar_are_refused() {
    let dir = scratch("i10-seed");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    small_match(&a, "1", "4");
    small_match(&b, "2", "4");
    std::fs::copy(&b, &a).unwrap();
    refused(&["summary", path(&a)], "not the seed of game");
    let o = arena(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--out",
        path(&a),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2), "resume refuses it too");
}

#[test]
fn issue10_ids_pairings_winners_and_moves_are_checked_on_read() {
    let dir = scratch("i10-rows");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "4");
    let pristine = std::fs::read_to_string(&csv).unwrap();
    let restore = || std::fs::write(&csv, &pristine).unwrap();
    // Each edit changes the first data row (line 2).
    type Edit<'a> = &'a dyn Fn(&str) -> String;
    let cases: [(Edit, &str); 5] = [
        (
            &|row| {
                let (_, rest) = row.split_once(',').unwrap();
                format!("41,{rest}")
            },
            "game id 41 is outside the run",
        ),
        (
            &|row| {
                let (id, rest) = row.split_once(',').unwrap();
                let (_, rest) = rest.split_once(',').unwrap();
                format!("{id},5,{rest}")
            },
            "not pairing 5",
        ),
        (
            &|row| {
                [",first,", ",second,", ",draw,"]
                    .iter()
                    .find(|w| row.contains(*w))
                    .map(|w| row.replacen(w, ",bogus,", 1))
                    .unwrap()
            },
            "winner 'bogus' is not one of first|second|draw",
        ),
        (
            &|row| {
                // Play the first move twice: the second time its point is occupied.
                let (head, moves) = row.rsplit_once(',').unwrap();
                let mut list: Vec<&str> = moves.split(' ').collect();
                list[1] = list[0];
                format!("{head},{}", list.join(" "))
            },
            "is occupied",
        ),
        (
            &|row| row.replacen(",normal,", ",ply_cap,", 1),
            "a game stopped by the ply cap is a draw",
        ),
    ];
    for (edit, expected) in cases {
        restore();
        edit_rows(&csv, |rows| {
            let (first, rest) = rows.split_once('\n').unwrap();
            format!("{}\n{rest}", edit(first))
        });
        let err = refused(&["summary", path(&csv)], expected);
        assert!(err.contains("g.csv: line 2"), "names file and line: {err}");
    }
}

#[test]
fn issue10_a_complete_last_row_without_its_newline_is_kept() {
    let dir = scratch("i10-newline");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "4");
    let content = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, content.trim_end_matches('\n')).unwrap();
    let o = ok(&["summary", path(&csv)]);
    assert!(
        text(&o.stdout).contains("| games | 4 |"),
        "{}",
        text(&o.stdout)
    );
    let merged = dir.join("m.csv");
    ok(&["merge", path(&csv), "--out", path(&merged)]);
    assert_eq!(data_lines(&merged).len(), 4);
    let o = small_match(&csv, "1", "4");
    assert!(
        text(&o.stderr).contains("lacked its final newline"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stderr).contains("0 games played, 4 already"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), content);
}

#[test]
fn issue10_a_row_cut_inside_a_utf8_character_is_repaired_on_resume() {
    let dir = scratch("i10-utf8");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "4");
    let complete = std::fs::read(&csv).unwrap();
    // A torn last row ending in the first byte of a two-byte character.
    let mut torn = complete.clone();
    torn.extend_from_slice(b"5,1,0,rin:size=6,12\xC3");
    std::fs::write(&csv, &torn).unwrap();
    let o = arena(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--out",
        path(&csv),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("was cut short"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&csv).unwrap(), complete);
}

#[test]
fn issue10_a_file_with_an_extra_column_is_refused_before_appending() {
    let dir = scratch("i10-column");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "2");
    let content = std::fs::read_to_string(&csv).unwrap();
    let widened: String = content.lines().map(|l| format!("{l},x\n")).collect();
    std::fs::write(&csv, &widened).unwrap();
    refused(
        &[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "random",
            "random",
            "--games",
            "4",
            "--seed",
            "1",
            "--out",
            path(&csv),
            "--quiet",
        ],
        "other settings",
    );
    refused(&["summary", path(&csv)], "the columns are");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        widened,
        "nothing appended"
    );
}

#[test]
fn issue10_a_sidecar_naming_a_missing_agent_is_an_error_not_a_panic() {
    let dir = scratch("i10-sidecar");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "2");
    let side = dir.join("g.csv.settings.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
    json["settings"]["pairings"][0] = serde_json::json!([0, 3]);
    std::fs::write(&side, json.to_string()).unwrap();
    refused(
        &["summary", path(&csv)],
        "names an agent that does not exist",
    );
}

#[test]
fn issue10_a_huge_game_count_allocates_nothing_up_front() {
    let dir = scratch("i10-huge");
    let o = ok(&[
        "match",
        "--game",
        "hexxagon:side=3",
        "--agents",
        "alphabeta:depth=1",
        "random",
        "--games",
        "4000000000",
        "--sprt",
        "0,300,0.05,0.05",
        "--out",
        path(&dir.join("g.csv")),
        "--quiet",
    ]);
    assert!(
        text(&o.stderr).contains("SPRT: H1 accepted"),
        "{}",
        text(&o.stderr)
    );
    refused(
        &[
            "match",
            "--game",
            "rin",
            "--agents",
            "random",
            "random",
            "--games",
            "4000000000000",
            "--out",
            path(&dir.join("h.csv")),
            "--quiet",
        ],
        "from 2 to 1000000000000",
    );
}

#[test]
fn issue10_nonsense_settings_are_refused() {
    let dir = scratch("i10-nonsense");
    let out = dir.join("x.csv");
    let m = |extra: &[&str]| {
        let mut a = vec!["match", "--game", "rin", "--out", path(&out), "--quiet"];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let check = |args: Vec<String>, expected: &str| {
        refused(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            expected,
        );
    };
    check(
        m(&["--agents", "random", "random", "--sprt", "nan,5,0.05,0.05"]),
        "finite",
    );
    check(
        m(&["--agents", "random", "mcts:a=nan"]),
        "a must be a finite number",
    );
    check(
        m(&["--agents", "random", "mcts:k=nan"]),
        "k must be a finite number",
    );
    let toml = dir.join("three.toml");
    std::fs::write(
        &toml,
        "game = \"rin:size=6\"\nseed = 1\ngames = 2\n[[match]]\nagents = [\"random\", \"random\", \"mcts\"]\n",
    )
    .unwrap();
    refused(
        &["run", path(&toml), "--results", path(&dir)],
        "names 3 agents",
    );
    std::fs::write(
        &toml,
        "game = \"rin:size=6\"\nseed = 1\ngames = 2\ngauntlet = true\n[[match]]\nagents = [\"random\", \"mcts\"]\n",
    )
    .unwrap();
    refused(
        &["run", path(&toml), "--results", path(&dir)],
        "`gauntlet` applies to",
    );
}

#[test]
fn issue10_argument_errors_are_one_line() {
    let dir = scratch("i10-args");
    let out = dir.join("x.csv");
    let o = path(&out);
    for (args, expected) in [
        (vec!["match", "--out", o], "--game"),
        (
            vec![
                "match", "--game", "rin", "--agents", "random", "random", "--out", o, "--games",
                "-2",
            ],
            "invalid value '-2'",
        ),
        (
            vec![
                "match", "--game", "rin", "--agents", "random", "random", "--out", o, "--games",
                "x",
            ],
            "invalid value 'x'",
        ),
        (
            vec!["match", "--game", "rin", "--agents", "random", "--out", o],
            "--agents",
        ),
        (
            vec![
                "match", "--game", "rin", "--agents", "random", "random", "--out", o, "--sprt",
                "1,2",
            ],
            "--sprt",
        ),
        (
            vec![
                "match", "--game", "rin", "--agents", "random", "random", "--out", o, "--bogus",
            ],
            "--bogus",
        ),
        (vec!["replay", "--game", "rin"], "--moves"),
        (
            vec!["playouts", "--game", "rin", "-n", "many"],
            "invalid value 'many'",
        ),
        (vec!["summary"], "<CSV>"),
        (vec!["frobnicate"], "frobnicate"),
        (
            vec![
                "match",
                "--game",
                "rin",
                "--agents",
                "random",
                "random",
                "--out",
                path(&dir),
            ],
            "is a folder",
        ),
    ] {
        refused(&args, expected);
    }
    let o = arena(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!text(&o.stderr).contains("(later)") && !text(&o.stdout).contains("(later)"));
}

#[test]
fn issue10_summary_into_a_closed_pipe_exits_quietly() {
    let dir = scratch("i10-pipe");
    let csv = dir.join("g.csv");
    small_match(&csv, "1", "2");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["summary", path(&csv)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panic"), "{err}");
    assert!(
        status.success() || status.code() == Some(0),
        "{status:?} {err}"
    );
}

#[test]
fn issue10_merging_some_shards_names_the_missing_ones_and_marks_the_file_partial() {
    let dir = scratch("i10-partial");
    let shard = |i: u32| {
        let out = dir.join(format!("s{i}.csv"));
        ok(&[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "random",
            "random",
            "--games",
            "12",
            "--seed",
            "4",
            "--shard",
            &format!("{i}/3"),
            "--out",
            path(&out),
            "--quiet",
        ]);
        out
    };
    let (s1, s2) = (shard(1), shard(2));
    let merged = dir.join("m.csv");
    let o = ok(&["merge", path(&s1), path(&s2), "--out", path(&merged)]);
    assert!(
        text(&o.stderr).contains("shard(s) 3 missing"),
        "{}",
        text(&o.stderr)
    );
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("m.csv.settings.json")).unwrap())
            .unwrap();
    assert_eq!(side["merged"]["missing_shards"], serde_json::json!([3]));
    let o = ok(&["summary", path(&merged)]);
    assert!(
        text(&o.stdout).contains("**Partial:**"),
        "{}",
        text(&o.stdout)
    );
    assert!(text(&o.stdout).contains("8 of 12 planned games"));
}

#[test]
fn issue10_a_finished_experiment_reruns_as_a_reproducibility_check() {
    let dir = scratch("i10-verify");
    let toml = dir.join("v.toml");
    std::fs::write(
        &toml,
        "game = \"hexxagon:side=3\"\nseed = 5\ngames = 4\n[[match]]\nagents = [\"alphabeta:depth=1\", \"random\"]\n",
    )
    .unwrap();
    let run = || arena(&["run", path(&toml), "--results", path(&dir), "--quiet"]);
    let first = run();
    assert!(first.status.success());
    assert!(text(&first.stderr).contains("4 games played"));
    let again = run();
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("4 of 4 games reproduced"),
        "{}",
        text(&again.stderr)
    );
    // A row whose node count was changed still replays legally, but does not reproduce.
    let csv = dir.join("v").join("games.csv");
    let lines = data_lines(&csv);
    let fields: Vec<&str> = lines[0].split(',').collect();
    // first_nodes, counted from the end of this simple row (ten columns follow it).
    let nodes_field = fields.len() - 11;
    let mut changed: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    changed[nodes_field] = (changed[nodes_field].parse::<u64>().unwrap() + 1).to_string();
    let content = std::fs::read_to_string(&csv)
        .unwrap()
        .replacen(&lines[0], &changed.join(","), 1);
    std::fs::write(&csv, content).unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("differs in nodes"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn issue10_resume_takes_the_game_canonically_and_notices_edited_weights() {
    let dir = scratch("i10-resume");
    let csv = dir.join("g.csv");
    let weights = dir.join("w.json");
    std::fs::write(&weights, r#"{"material": 1.0}"#).unwrap();
    let agent = format!("alphabeta:depth=1,weights={}", weights.display());
    let run = |game: &str, games: &str| {
        arena(&[
            "match",
            "--game",
            game,
            "--agents",
            &agent,
            "random",
            "--games",
            games,
            "--seed",
            "1",
            "--out",
            path(&csv),
            "--quiet",
        ])
    };
    assert!(run("rin:size=16", "2").status.success());
    let o = run("rin", "2");
    assert!(
        o.status.success(),
        "rin is rin:size=16: {}",
        text(&o.stderr)
    );
    std::fs::write(&weights, r#"{"material": 2.0}"#).unwrap();
    let o = run("rin", "2");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("the content of a weights file changed"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn issue10_summaries_label_agents_as_typed_and_rate_only_connected_groups() {
    let dir = scratch("i10-groups");
    let toml = dir.join("g.toml");
    std::fs::write(
        &toml,
        "game = \"hexxagon:side=3\"\nseed = 5\ngames = 2\n[[match]]\nagents = [\"random\", \"alphabeta:depth=1\"]\n[[match]]\nagents = [\"mcts:iters=20\", \"alphabeta:depth=2\"]\n",
    )
    .unwrap();
    let o = ok(&["run", path(&toml), "--results", path(&dir), "--quiet"]);
    let md = text(&o.stdout);
    assert!(
        md.contains("## Pairing 1: `mcts:iters=20` vs `alphabeta:depth=2`"),
        "{md}"
    );
    assert!(md.contains("fall into 2 groups"), "{md}");
    assert!(!md.contains("-0.0"), "{md}");
    assert!(md.contains("| agent | Elo | 95% interval | games |"));
    assert!(
        !md.contains("| Elo | -inf") && !md.contains("+inf ["),
        "{md}"
    );
}

#[test]
fn issue10_slurm_array_shards_merge_into_the_one_machine_run() {
    let dir = scratch("i10-slurm");
    let base = |out: &Path| {
        vec![
            "match".to_string(),
            "--game".into(),
            "hexxagon:side=3".into(),
            "--agents".into(),
            "random".into(),
            "alphabeta:depth=1".into(),
            "--games".into(),
            "10".into(),
            "--seed".into(),
            "9".into(),
            "--quiet".into(),
            "--out".into(),
            path(out).into(),
        ]
    };
    let whole = dir.join("whole.csv");
    let args = base(&whole);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let mut shards = Vec::new();
    for task in 1..=3 {
        let out = dir.join(format!("s{task}.csv"));
        let mut args = base(&out);
        args.extend(["--shard".into(), "auto".into()]);
        let id = task.to_string();
        let o = arena_env(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &[
                ("SLURM_ARRAY_TASK_ID", &id),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
            ],
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        shards.push(out);
    }
    let merged = dir.join("merged.csv");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|s| path(s)));
    args.extend(["--out", path(&merged)]);
    ok(&args);
    let untimed = common::untimed_rows;
    assert_eq!(untimed(&merged), untimed(&whole));
    refused(
        &[
            "match",
            "--game",
            "rin",
            "--agents",
            "random",
            "random",
            "--out",
            path(&dir.join("x.csv")),
            "--shard",
            "auto",
        ],
        "SLURM_ARRAY_TASK_ID",
    );
}

#[test]
fn issue10_a_killed_merge_leaves_no_partial_output() {
    let dir = scratch("i10-kill");
    let big = dir.join("big.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        "20000",
        "--seed",
        "3",
        "--out",
        path(&big),
        "--quiet",
    ]);
    // Interrupted writer, in-process: nothing at the target, no temporary file left.
    let out = dir.join("lib.csv");
    let err = ringside_arena::records::merge::merge_with(
        std::slice::from_ref(&big),
        &out,
        ringside_arena::records::merge::Existing::Refuse,
        &mut |k| {
            if k >= 5000 {
                Err(std::io::Error::other("killed"))
            } else {
                Ok(())
            }
        },
    )
    .unwrap_err();
    assert_eq!(err.kind, ringside_arena::ErrorKind::Io);
    assert!(!out.exists());
    // Real kills at several moments: the output is absent or complete, never partial.
    for (k, delay_ms) in [5u64, 20, 60, 120, 250].into_iter().enumerate() {
        let out = dir.join(format!("m{k}.csv"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["merge", path(&big), "--out", path(&out)])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        if out.exists() {
            assert_eq!(
                data_lines(&out).len(),
                20000,
                "kill after {delay_ms} ms left a partial file"
            );
        }
    }
}

#[test]
fn issue10_the_library_in_process_gives_the_binarys_rows() {
    use ringside_arena::plan::PlanBuilder;
    use ringside_arena::run::pool::Silent;
    use ringside_arena::run::runner::run_in_memory;
    let dir = scratch("i10-library");
    let csv = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "ikabegama:side=4,distance=3",
        "--agents",
        "mcts:iters=30",
        "random",
        "--games",
        "6",
        "--seed",
        "11",
        "--opening-plies",
        "2",
        "--out",
        path(&csv),
        "--quiet",
    ]);
    let plan = PlanBuilder::new("ikabegama:side=4,distance=3")
        .pairing("mcts:iters=30", "random")
        .games(6)
        .seed(11)
        .opening_plies(2)
        .build()
        .unwrap();
    let rows = run_in_memory(&plan, Some(2), &mut Silent).unwrap();
    let (file_plan, _) = ringside_arena::records::sidecar::read_sidecar(&csv).unwrap();
    assert!(file_plan.differences(&plan).is_empty());
    let recorded = ringside_arena::records::games_csv::read_games(&csv, &plan)
        .unwrap()
        .rows;
    let mut recorded = recorded;
    recorded.sort_by_key(|r| r.id);
    assert_eq!(rows.len(), 6);
    for (a, b) in rows.iter().zip(&recorded) {
        assert!(a.differences(b).is_empty(), "game {} differs", a.id);
    }
}
