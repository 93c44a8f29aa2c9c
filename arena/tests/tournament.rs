//! End-to-end tests of `arena match`, `run`, `summary`, `merge` and `replay --from`.

use crate::common;

use std::path::{Path, PathBuf};

use common::{arena, ok, path, scratch, text, timing_column};

fn refused(args: &[&str], expected: &str) {
    let o = arena(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: {err:?} lacks {expected:?}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{args:?}: {err}"
    );
}

/// The header and the rows of a games CSV, without the timing columns, sorted by id.
fn rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let timing: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| timing_column(h))
        .map(|(i, _)| i)
        .collect();
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            r.unwrap()
                .iter()
                .enumerate()
                .filter(|(i, _)| !timing.contains(i))
                .map(|(_, f)| f.to_string())
                .collect()
        })
        .collect();
    rows.sort_by_key(|r| r[0].parse::<u64>().unwrap());
    (header, rows)
}

const COLUMNS: [&str; 29] = [
    "id",
    "pairing",
    "pair",
    "game",
    "seed",
    "opening_plies",
    "first_agent",
    "first_spec",
    "second_agent",
    "second_spec",
    "winner",
    "winner_agent",
    "reason",
    "plies",
    "first_score",
    "second_score",
    "first_time_ms",
    "second_time_ms",
    "first_nodes",
    "second_nodes",
    "first_iterations",
    "second_iterations",
    "first_moves",
    "second_moves",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
    "moves",
];

#[test]
fn a_small_match_writes_the_documented_columns_and_counts() {
    let dir = scratch("small");
    let out = dir.join("games.csv");
    let o = ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "mcts:iters=50",
        "--games",
        "10",
        "--seed",
        "4",
        "--out",
        path(&out),
        "--opening-plies",
        "2",
        "--quiet",
    ]);
    let summary = text(&o.stdout);
    assert!(summary.contains("| games | 10 |"), "{summary}");
    let header: Vec<String> = csv::Reader::from_path(&out)
        .unwrap()
        .headers()
        .unwrap()
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(header, COLUMNS);
    let (_, rows) = rows(&out);
    assert_eq!(rows.len(), 10);
    let kept: Vec<&str> = COLUMNS.into_iter().filter(|c| !timing_column(c)).collect();
    let col = |name: &str| kept.iter().position(|c| *c == name).unwrap();
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[col("id")], i.to_string());
        assert_eq!(r[col("pair")], (i / 2).to_string());
        assert_eq!(r[col("opening_plies")], "2");
        // Seats alternate within a pair; both games share the seed and the opening moves.
        assert_eq!(r[col("first_agent")], if i % 2 == 0 { "0" } else { "1" });
        let moves: Vec<&str> = r[col("moves")].split(' ').collect();
        assert_eq!(moves.len().to_string(), r[col("plies")]);
        assert!(
            moves.len() <= 36,
            "rings fill points, so a 6x6 game has at most 36 plies"
        );
        if i % 2 == 1 {
            assert_eq!(r[col("seed")], rows[i - 1][col("seed")]);
            let previous: Vec<&str> = rows[i - 1][col("moves")].split(' ').collect();
            assert_eq!(moves[..2], previous[..2]);
        }
        let (first, second): (f64, f64) = (
            r[col("first_score")].parse().unwrap(),
            r[col("second_score")].parse().unwrap(),
        );
        let expected = if first > second {
            "first"
        } else if first < second {
            "second"
        } else {
            "draw"
        };
        assert_eq!(r[col("winner")], expected);
        assert_eq!(r[col("reason")], "normal");
        let mcts_seat = if r[col("first_agent")] == "1" {
            "first"
        } else {
            "second"
        };
        assert!(
            r[col(&format!("{mcts_seat}_iterations"))]
                .parse::<u64>()
                .unwrap()
                > 0
        );
        // Every move after the opening is one side's choice (Rin's turns do not alternate).
        let chosen: u32 = ["first_moves", "second_moves"]
            .iter()
            .map(|c| r[col(c)].parse::<u32>().unwrap())
            .sum();
        assert_eq!(chosen + 2, moves.len() as u32);
    }
    let sidecar = std::fs::read_to_string(dir.join("games.csv.settings.json")).unwrap();
    assert!(sidecar.contains("\"commit\"") && sidecar.contains("\"games_per_pairing\": 10"));
}

#[test]
fn resume_after_an_interruption_plays_only_the_missing_games() {
    let dir = scratch("resume");
    let full = dir.join("full.csv");
    let args = |out: &Path| -> Vec<String> {
        [
            "match",
            "--game",
            "life",
            "--agents",
            "random",
            "alphabeta:depth=1",
            "--games",
            "16",
            "--seed",
            "8",
            "--ply-cap",
            "300",
            "--quiet",
            "--out",
            path(out),
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |out: &Path| {
        let a = args(out);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    run(&full);
    // Simulate a kill: keep the header, five finished rows and half of the sixth.
    let cut = dir.join("cut.csv");
    let content = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    let mut partial = lines[..6].join("\n");
    partial.push('\n');
    partial.push_str(&lines[6][..lines[6].len() / 2]);
    std::fs::write(&cut, partial).unwrap();
    std::fs::copy(
        dir.join("full.csv.settings.json"),
        dir.join("cut.csv.settings.json"),
    )
    .unwrap();
    let o = run(&cut);
    assert!(
        text(&o.stderr).contains("11 games played, 5 already in"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(rows(&cut), rows(&full));
    // Once complete, a rerun plays nothing.
    let o = run(&cut);
    assert!(text(&o.stderr).contains("0 games played, 16 already in"));
    // Other settings on the same file are refused.
    let mut other = args(&cut);
    other[9] = "9".into();
    refused(
        &other.iter().map(String::as_str).collect::<Vec<_>>(),
        "was made with other settings (seed 8 vs 9)",
    );
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = scratch("threads");
    let run = |threads: &str| {
        let out = dir.join(format!("t{threads}.csv"));
        ok(&[
            "match",
            "--game",
            "ikabegama:side=4",
            "--agents",
            "random",
            "mcts:iters=40",
            "alphabeta:depth=2",
            "--games",
            "8",
            "--seed",
            "5",
            "--ply-cap",
            "200",
            "--threads",
            threads,
            "--out",
            path(&out),
            "--quiet",
        ]);
        rows(&out)
    };
    let one = run("1");
    assert_eq!(one.1.len(), 24, "three pairings of 8 games");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
}

#[test]
fn shards_merged_equal_one_run() {
    let dir = scratch("shards");
    let base = [
        "match",
        "--game",
        "hexxagon:side=3",
        "--agents",
        "random",
        "alphabeta:depth=1",
        "--games",
        "12",
        "--seed",
        "6",
        "--quiet",
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        ok(&a);
    };
    let whole = dir.join("whole.csv");
    with(&["--out", path(&whole)]);
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}.csv"))).collect();
    for (i, s) in shards.iter().enumerate() {
        with(&["--out", path(s), "--shard", &format!("{}/3", i + 1)]);
        assert!(rows(s).1.len() < 12);
    }
    let merged = dir.join("merged.csv");
    ok(&[
        "merge",
        path(&shards[0]),
        path(&shards[1]),
        path(&shards[2]),
        "--out",
        path(&merged),
    ]);
    assert_eq!(rows(&merged), rows(&whole));
    // A shard given twice is refused, and so is a file from other settings.
    refused(
        &[
            "merge",
            path(&shards[0]),
            path(&shards[0]),
            "--out",
            path(&dir.join("twice.csv")),
        ],
        "which another input already gives",
    );
    let other = dir.join("other.csv");
    ok(&[
        "match",
        "--game",
        "hexxagon:side=3",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--seed",
        "6",
        "--quiet",
        "--out",
        path(&other),
    ]);
    refused(
        &[
            "merge",
            path(&shards[0]),
            path(&other),
            "--out",
            path(&dir.join("mixed.csv")),
        ],
        "other settings",
    );
    refused(
        &["merge", path(&shards[0]), "--out", path(&merged)],
        "exists already",
    );
}

#[test]
fn sprt_bounds_are_wald_s_logs_of_the_error_rates() {
    // (ln(β/(1−α)), ln((1−β)/α)), worked out by hand: fishtest's ±2.94 at α = β = 0.05, and an
    // uneven pair that tells α from β and each bound from the other.
    let cases = [
        ((0.05, 0.05), (-2.944_438_979_166_44, 2.944_438_979_166_44)),
        ((0.05, 0.2), (-1.558_144_618_046_55, 2.772_588_722_239_78)),
    ];
    for ((alpha, beta), (lower, upper)) in cases {
        let (l, u) = ringside_arena::figures::sprt::bounds(alpha, beta);
        assert!(
            (l - lower).abs() < 1e-12 && (u - upper).abs() < 1e-12,
            "{l} {u}"
        );
    }
}

#[test]
fn sprt_stops_a_decided_match_early() {
    let dir = scratch("sprt");
    let out = dir.join("sprt.csv");
    let o = ok(&[
        "match",
        "--game",
        "life",
        "--agents",
        "alphabeta:depth=1",
        "random",
        "--games",
        "400",
        "--seed",
        "2",
        "--ply-cap",
        "300",
        "--sprt",
        "0,100,0.05,0.05",
        "--threads",
        "1",
        "--out",
        path(&out),
        "--quiet",
    ]);
    assert!(
        text(&o.stderr).contains("SPRT: H1 accepted"),
        "{}",
        text(&o.stderr)
    );
    assert!(rows(&out).1.len() < 400);
    assert!(text(&o.stdout).contains("| SPRT [0, 100] logistic | LLR"));
}

#[test]
fn replay_from_a_csv_rebuilds_the_recorded_game() {
    let dir = scratch("replay");
    let out = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "advance:side=4",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--seed",
        "3",
        "--out",
        path(&out),
        "--quiet",
    ]);
    let (_, rows) = rows(&out);
    let o = ok(&["replay", "--from", path(&out), "--id", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(v["plies"].to_string(), rows[1][13]);
    assert_eq!(
        v["game"],
        rows[1][3].as_str(),
        "the spec names the drawn first player"
    );
    assert_ne!(v["result"], serde_json::Value::Null);
    let every = ok(&[
        "replay",
        "--from",
        path(&out),
        "--id",
        "0",
        "--every",
        "--json",
    ]);
    assert_eq!(
        text(&every.stdout).lines().count().to_string(),
        (rows[0][13].parse::<usize>().unwrap() + 1).to_string()
    );
    refused(
        &["replay", "--from", path(&out), "--id", "7"],
        "has no game with id 7",
    );
}

#[test]
fn an_experiment_file_runs_into_its_results_folder() {
    let dir = scratch("experiment");
    let file = dir.join("tiny.toml");
    std::fs::write(
        &file,
        r#"
game = "life"
seed = 11
games = 6
ply_cap = 300

[[match]]
agents = ["random", "random"]

[[match]]
agents = ["random", "alphabeta:depth=1,eval=material"]

[[published]]
match = 1
source = "seed 002, ZoG AutoPlay"
games = 100
first_wins = 0
second_wins = 100
draws = 0
"#,
    )
    .unwrap();
    let results = dir.join("results");
    ok(&["run", path(&file), "--results", path(&results), "--quiet"]);
    let folder = results.join("tiny");
    for f in [
        "games.csv",
        "games.csv.settings.json",
        "summary.csv",
        "summary.md",
    ] {
        assert!(folder.join(f).exists(), "{f}");
    }
    let md = std::fs::read_to_string(folder.join("summary.md")).unwrap();
    assert!(
        md.contains("## Beside the published figures") && md.contains("0-0-100"),
        "{md}"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("summary.csv"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    // `arena summary` recomputes the same summary table from the CSV alone.
    let o = ok(&["summary", path(&folder.join("games.csv"))]);
    assert!(text(&o.stdout).contains("| games | 6 |"));
}

#[test]
fn every_bad_input_exits_2_with_a_message() {
    let dir = scratch("bad");
    let out = dir.join("x.csv");
    let out = path(&out);
    let m = |extra: &[&str]| {
        let mut a = vec!["match", "--out", out, "--quiet"];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let check = |args: Vec<String>, expected: &str| {
        refused(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            expected,
        )
    };
    check(
        m(&["--game", "chess", "--agents", "random", "random"]),
        "unknown game 'chess'",
    );
    check(
        m(&["--game", "rin:size=5", "--agents", "random", "random"]),
        "size must be from 6 to 16 (points on a side, an even number)",
    );
    check(
        m(&["--game", "rin", "--agents", "random", "minimax"]),
        "unknown agent 'minimax'",
    );
    check(
        m(&["--game", "rin", "--agents", "random", "mcts:c=fast"]),
        "c takes a number",
    );
    check(
        m(&[
            "--game", "rin", "--agents", "random", "random", "--games", "7",
        ]),
        "must be even",
    );
    check(
        m(&[
            "--game",
            "rin",
            "--agents",
            "random",
            "random",
            "--sprt",
            "5,0,0.05,0.05",
        ]),
        "elo0 < elo1",
    );
    check(
        m(&[
            "--game", "rin", "--agents", "random", "random", "--shard", "3/2",
        ]),
        "not a shard",
    );
    check(m(&["--game", "rin", "--agents", "random"]), "--agents");
    check(
        m(&[
            "--game",
            "rin",
            "--agents",
            "random",
            "random",
            "mcts",
            "--sprt",
            "0,10,0.05,0.05",
        ]),
        "--sprt needs exactly two agents",
    );
    let weights = dir.join("w.json");
    std::fs::write(&weights, r#"{"nest_distance": 1}"#).unwrap();
    check(
        m(&[
            "--game",
            "rin",
            "--agents",
            "random",
            &format!("alphabeta:weights={}", weights.display()),
        ]),
        "rin has no feature 'nest_distance'",
    );

    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "game = \"life\"\nseed = \"one\"\n").unwrap();
    refused(
        &["run", path(&bad_toml), "--results", path(&dir)],
        "malformed: line 2",
    );
    let unknown_key = dir.join("key.toml");
    std::fs::write(&unknown_key, "game = \"life\"\nseed = 1\ngames = 2\ncolour = 3\n[[match]]\nagents = [\"random\", \"random\"]\n").unwrap();
    refused(
        &["run", path(&unknown_key), "--results", path(&dir)],
        "unknown field `colour`",
    );
    refused(
        &["run", path(&dir.join("missing.toml"))],
        "cannot read experiment",
    );

    // A corrupted CSV: summary and resume both refuse it.
    let good = dir.join("good.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--out",
        path(&good),
        "--quiet",
    ]);
    let mut content = std::fs::read_to_string(&good).unwrap();
    content = content.replacen(",normal,", ",normal,not-a-number-of-plies-", 1);
    std::fs::write(&good, content).unwrap();
    refused(&["summary", path(&good)], "good.csv: line 2: plies");
    refused(
        &[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "random",
            "random",
            "--games",
            "2",
            "--out",
            path(&good),
            "--quiet",
        ],
        "good.csv: line 2: plies",
    );
    refused(
        &["summary", path(&dir.join("nothing.csv"))],
        "cannot read the settings",
    );
}

#[test]
fn the_two_games_of_a_self_pairing_are_different_games() {
    // Regression: both seats of `random` vs `random` once drew the same seed, so the
    // colour-swapped game repeated its twin move for move.
    let dir = scratch("selfplay");
    let out = dir.join("self.csv");
    ok(&[
        "match",
        "--game",
        "life",
        "--agents",
        "random",
        "random",
        "--games",
        "20",
        "--seed",
        "1",
        "--out",
        path(&out),
        "--quiet",
    ]);
    let (_, rows) = rows(&out);
    let moves = rows[0].len() - 1;
    let same = rows
        .chunks(2)
        .filter(|pair| pair[0][moves] == pair[1][moves])
        .count();
    assert_eq!(same, 0, "pairs replaying the same game");
}

#[test]
fn a_panicking_or_cheating_agent_loses_its_games_and_the_run_goes_on() {
    let dir = scratch("faults");
    for (spec, reason) in [
        ("faulty:panic_at=3", "agent_panic"),
        ("faulty:illegal_at=3", "illegal_move"),
    ] {
        let out = dir.join(format!("{reason}.csv"));
        let o = ok(&[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "random",
            spec,
            "--games",
            "6",
            "--seed",
            "2",
            "--out",
            path(&out),
            "--quiet",
        ]);
        assert!(!text(&o.stderr).contains("RUST_BACKTRACE"));
        let (_, rows) = rows(&out);
        assert_eq!(rows.len(), 6, "every game was played");
        let col = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap();
        for r in &rows {
            assert_eq!(r[col("reason")], reason);
            assert_eq!(
                r[col("winner_agent")],
                "0",
                "the random agent wins every game"
            );
        }
        assert!(text(&o.stdout).contains("| W-D-L of `random` | 6-0-0 |"));
    }
}

#[test]
fn a_round_robin_rates_every_agent_and_a_gauntlet_pairs_only_the_first() {
    let dir = scratch("ratings");
    let rr = dir.join("rr.csv");
    let o = ok(&[
        "match",
        "--game",
        "hexxagon:side=3",
        "--agents",
        "random",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "--games",
        "10",
        "--seed",
        "3",
        "--out",
        path(&rr),
        "--quiet",
    ]);
    let md = text(&o.stdout);
    assert!(md.contains("## Pairing 2:"), "three pairings");
    assert!(
        md.contains("## Ratings (Bradley–Terry maximum likelihood, mean 0 within each group)"),
        "{md}"
    );
    assert_eq!(
        md.matches("| 20 |").count(),
        3,
        "each agent played 20 games"
    );
    let g = dir.join("g.csv");
    let o = ok(&[
        "match",
        "--game",
        "hexxagon:side=3",
        "--agents",
        "random",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "mcts:iters=20",
        "--gauntlet",
        "--games",
        "2",
        "--out",
        path(&g),
        "--quiet",
    ]);
    let md = text(&o.stdout);
    assert_eq!(md.matches("## Pairing").count(), 3);
    assert_eq!(
        md.matches("## Pairing").count(),
        md.matches("vs `").count() - md.matches("## Beside").count()
    );
    assert!(md.contains("`random` vs `mcts"), "{md}");
    assert!(
        !md.contains("`alphabeta:depth=1` vs"),
        "the others do not meet"
    );
}

#[test]
fn a_move_past_its_budget_and_the_margin_loses_on_time_and_the_clocks_count_it() {
    let dir = scratch("forfeit");
    let out = dir.join("games.csv");
    // One MCTS iteration a move: some microseconds, over a budget of 0 ms however fast.
    let args = |margin: &str| -> Vec<String> {
        [
            "match",
            "--game",
            "tic_tac_toe",
            "--agents",
            "mcts:time_ms=0",
            "random",
            "--games",
            "6",
            "--time-margin-ms",
            margin,
            "--out",
            path(&out),
            "--quiet",
        ]
        .map(String::from)
        .to_vec()
    };
    let o = ok(&args("0").iter().map(String::as_str).collect::<Vec<_>>());
    let summary = text(&o.stdout);
    let (header, forfeited) = rows(&out);
    let col = |name: &str| {
        header
            .iter()
            .filter(|h| !timing_column(h))
            .position(|h| h == name)
            .unwrap()
    };
    for r in &forfeited {
        // MCTS loses its first move on time, before it is played.
        assert_eq!(r[col("reason")], "time_forfeit", "{r:?}");
        assert_eq!(r[col("winner_agent")], "1");
        let mcts_first = r[col("first_agent")] == "0";
        assert_eq!(r[col("plies")], if mcts_first { "0" } else { "1" });
    }
    assert!(
        summary.contains("| `mcts:time_ms=0` | 0 ms | 6 |") && summary.contains("| 6 (100.0%) |"),
        "{summary}"
    );
    let log = std::fs::read_to_string(dir.join("games.csv.faults.log")).unwrap();
    assert!(
        log.contains("time_forfeit") && log.contains("0 ms margin"),
        "{log}"
    );
    // The file reads back whole, and the margin is part of the run.
    ok(&["summary", path(&out)]);
    let o = arena(&args("1000").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("time margin 0 ms vs 1000 ms"),
        "{}",
        text(&o.stderr)
    );
    // With a margin wide enough, the same agents play their games out.
    let wide = dir.join("wide.csv");
    let o = ok(&[
        "match",
        "--game",
        "tic_tac_toe",
        "--agents",
        "mcts:time_ms=0",
        "random",
        "--games",
        "6",
        "--time-margin-ms",
        "10000",
        "--out",
        path(&wide),
        "--quiet",
    ]);
    let (_, played) = rows(&wide);
    assert!(played.iter().all(|r| r[col("reason")] == "normal"));
    assert!(text(&o.stdout).contains("## Clocks"));
}

#[test]
fn a_file_written_before_the_clock_columns_reads_and_resumes_in_its_own_columns() {
    let dir = scratch("legacy-columns");
    let out = dir.join("games.csv");
    let args = |games: &str| -> Vec<String> {
        [
            "match",
            "--game",
            "connect_four",
            "--agents",
            "random",
            "mcts:iters=20",
            "--games",
            games,
            "--out",
            path(&out),
            "--quiet",
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |games: &str| ok(&args(games).iter().map(String::as_str).collect::<Vec<_>>());
    run("4");
    // Rewrite it as a file of the old layout: the six clock columns dropped.
    let mut reader = csv::Reader::from_path(&out).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let clock = ["_moves", "_max_ms", "_overruns"];
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| header[i] == "moves" || !clock.iter().any(|c| header[i].ends_with(c)))
        .collect();
    assert_eq!(keep.len(), 23);
    let mut writer = csv::Writer::from_path(dir.join("old.csv")).unwrap();
    writer
        .write_record(keep.iter().map(|&i| header[i].as_str()))
        .unwrap();
    for r in reader.records() {
        let r = r.unwrap();
        writer.write_record(keep.iter().map(|&i| &r[i])).unwrap();
    }
    writer.flush().unwrap();
    std::fs::rename(dir.join("old.csv"), &out).unwrap();
    let summary = text(&ok(&["summary", path(&out)]).stdout);
    assert!(summary.contains("| games | 4 |"), "{summary}");
    assert!(!summary.contains("## Clocks"), "{summary}");
    // Cut its last two rows, as a killed run leaves it, and resume.
    let text_now = std::fs::read_to_string(&out).unwrap();
    let kept: Vec<&str> = text_now.lines().take(3).collect();
    std::fs::write(&out, kept.join("\n") + "\n").unwrap();
    let o = run("4");
    let summary = text(&o.stdout);
    assert!(summary.contains("| games | 4 |"), "{summary}");
    let mut reader = csv::Reader::from_path(&out).unwrap();
    assert_eq!(reader.headers().unwrap().len(), 23);
    assert!(reader.records().all(|r| r.unwrap().len() == 23));
    assert!(
        !summary.contains("## Clocks"),
        "rows appended to an old file keep no clocks, and the run counts what it kept: {summary}"
    );
}

#[test]
fn a_killed_run_of_every_game_with_a_swap_resumes_to_the_games_of_one_unbroken_run() {
    let dir = scratch("swap-resume");
    let swapping: Vec<&str> = ringside_engine::registry::GAMES
        .iter()
        .filter(|g| g.options.iter().any(|o| o.name == "swap"))
        .map(|g| g.name)
        .collect();
    assert!(swapping.contains(&"hex") && swapping.contains(&"havannah"));
    for name in swapping {
        // Two opening plies stop at the swap's offer (one played); three run past it.
        for plies in ["2", "3"] {
            let game = format!("{name}:swap=on");
            let args = |out: &Path| -> Vec<String> {
                [
                    "match",
                    "--game",
                    &game,
                    "--agents",
                    "random",
                    "mcts:iters=8",
                    "--games",
                    "12",
                    "--opening-plies",
                    plies,
                    "--out",
                    path(out),
                    "--quiet",
                ]
                .map(String::from)
                .to_vec()
            };
            let run = |out: &Path| ok(&args(out).iter().map(String::as_str).collect::<Vec<_>>());
            let whole = dir.join(format!("{name}-{plies}-whole.csv"));
            run(&whole);
            // A kill: five rows and half of the sixth, the sidecar as the run wrote it.
            let killed = dir.join(format!("{name}-{plies}-killed.csv"));
            let text = std::fs::read_to_string(&whole).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let half = &lines[6][..lines[6].len() / 2];
            std::fs::write(&killed, lines[..6].join("\n") + "\n" + half).unwrap();
            std::fs::copy(
                dir.join(format!("{name}-{plies}-whole.csv.settings.json")),
                dir.join(format!("{name}-{plies}-killed.csv.settings.json")),
            )
            .unwrap();
            run(&killed);
            assert_eq!(
                common::untimed_rows(&killed),
                common::untimed_rows(&whole),
                "{game}, {plies} opening plies"
            );
            ok(&["summary", path(&killed)]);
        }
    }
}
