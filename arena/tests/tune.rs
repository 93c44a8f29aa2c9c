//! Tuning (issue 11): Texel recovers planted weights and never raises its training loss; SPSA
//! converges on a synthetic objective, runs on real games, and resumes exactly; bad input is
//! one line and exit code 2.

use crate::common;

use common::{arena, ok, path, refused, scratch, text};
use rand::RngExt;
use ringside_arena::tune::spsa::{Param, Spsa};
use ringside_arena::tune::texel::{FitOptions, Positions, blend_labels, fit, fit_k, loss};
use ringside_engine::seeded_rng;

/// Positions whose labels are drawn from `σ(w·d)` (win or loss), features uniform in -5..=5.
fn planted(weights: &[f64], n: usize, seed: u64) -> Positions {
    let mut rng = seeded_rng(seed, 0);
    let mut positions = Positions::new(weights.len());
    let mut d = vec![0.0; weights.len()];
    for _ in 0..n {
        for x in &mut d {
            *x = f64::from(rng.random_range(-5..=5i32));
        }
        let s: f64 = d.iter().zip(weights).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-s).exp());
        let label = if rng.random::<f64>() < p { 1.0 } else { 0.0 };
        positions.push(&d, label, None);
    }
    positions
}

const PLANTED: [f64; 3] = [1.0, 0.5, -0.3];

#[test]
fn texel_recovers_k_from_weights_at_half_scale() {
    // The labels follow σ(1 · w*·d); starting from w*/2 the best K is 2.
    let train = planted(&PLANTED, 200_000, 1);
    let half: Vec<f64> = PLANTED.iter().map(|w| w / 2.0).collect();
    let k = fit_k(&train, &half).unwrap();
    assert!((k - 2.0).abs() < 0.06, "K = {k}, planted 2");
}

#[test]
fn texel_recovers_planted_weights() {
    // Start from material only (1, 0, 0): K is fitted there, then the weights; K·w must come
    // back to the planted (1, 0.5, -0.3) within 0.05 each on 200,000 positions.
    let train = planted(&PLANTED, 200_000, 2);
    let validation = planted(&PLANTED, 50_000, 3);
    let start = [1.0, 0.0, 0.0];
    let k = fit_k(&train, &start).unwrap();
    let steps = fit(
        &train,
        &validation,
        &start,
        k,
        &FitOptions::default(),
        |_| {},
    );
    let last = steps.last().unwrap();
    for (got, want) in last.weights.iter().zip(PLANTED) {
        assert!(
            (k * got - want).abs() < 0.05,
            "K·w = {:?}, planted {PLANTED:?}",
            last.weights.iter().map(|w| k * w).collect::<Vec<_>>()
        );
    }
    assert!(last.validation_loss < steps[0].validation_loss);
    // The planted model itself is no better on held-out data than the fit, within noise.
    let planted_loss = loss(&validation, &PLANTED, 1.0);
    assert!((last.validation_loss - planted_loss).abs() < 1e-3);
}

#[test]
fn texel_training_objective_never_increases() {
    // Noisy labels (a third of them flipped) and an L2 penalty: every kept step lowers the
    // penalised objective, so the sequence is non-increasing.
    let mut train = planted(&[0.8, -0.4, 0.2, 0.1], 50_000, 4);
    for (i, y) in train.labels.iter_mut().enumerate() {
        if i % 3 == 0 {
            *y = 1.0 - *y;
        }
    }
    let options = FitOptions {
        iterations: 50,
        l2: 1e-3,
        scale: false,
        tolerance: 0.0,
        ..FitOptions::default()
    };
    let start = [1.0, 1.0, -1.0, 0.0];
    let k = fit_k(&train, &start).unwrap();
    let steps = fit(&train, &Positions::new(4), &start, k, &options, |_| {});
    assert!(steps.len() > 2, "the fit made progress");
    // The penalty pulls toward the start, not toward zero.
    let objective = |w: &[f64], l: f64| {
        l + 1e-3
            * k
            * k
            * w.iter()
                .zip(start)
                .map(|(x, s)| (x - s) * (x - s))
                .sum::<f64>()
    };
    for pair in steps.windows(2) {
        let (a, b) = (
            objective(&pair[0].weights, pair[0].train_loss),
            objective(&pair[1].weights, pair[1].train_loss),
        );
        assert!(b <= a, "objective rose from {a} to {b}");
    }
    assert!(
        steps.iter().all(|s| s.validation_loss.is_nan()),
        "no validation data"
    );
}

#[test]
fn texel_keeps_a_fixed_weight_exactly() {
    // The planted weights differ from the start in every place; with the second weight
    // fixed at 0.25 it keeps that value bit for bit at every step while the others move.
    let train = planted(&PLANTED, 50_000, 5);
    let start = [1.0, 0.25, 0.0];
    let k = fit_k(&train, &start).unwrap();
    let options = FitOptions {
        fixed: vec![false, true, false],
        ..FitOptions::default()
    };
    let steps = fit(&train, &Positions::new(3), &start, k, &options, |_| {});
    assert!(steps.len() > 2, "the fit made progress");
    for s in &steps {
        assert_eq!(
            s.weights[1].to_bits(),
            0.25f64.to_bits(),
            "step {}",
            s.iteration
        );
    }
    let last = &steps.last().unwrap().weights;
    assert!(
        (last[2] - start[2]).abs() > 0.05,
        "a free weight moved: {last:?}"
    );
    // Without the fix the same weight moves.
    let free = fit(
        &train,
        &Positions::new(3),
        &start,
        k,
        &FitOptions::default(),
        |_| {},
    );
    assert!((free.last().unwrap().weights[1] - 0.25).abs() > 0.01);
}

#[test]
fn texel_l2_holds_the_weights_near_their_start_in_feature_units() {
    // A feature with 100 times the spread: with scaling, a strong penalty keeps both weights
    // near the start; the scaled feature's weight moves about 100 times less in plain units.
    let mut train = Positions::new(2);
    let mut rng = seeded_rng(6, 0);
    for _ in 0..20_000 {
        let d = [
            f64::from(rng.random_range(-5..=5i32)),
            100.0 * f64::from(rng.random_range(-5..=5i32)),
        ];
        let s = 1.0 * d[0] + 0.01 * d[1];
        let label = f64::from(u8::from(rng.random::<f64>() < 1.0 / (1.0 + (-s).exp())));
        train.push(&d, label, None);
    }
    let scales = train.scales();
    assert!((scales[1] / scales[0] - 100.0).abs() < 2.0, "{scales:?}");
    let start = [0.5, 0.0];
    let options = FitOptions {
        l2: 10.0,
        fixed: vec![true, false],
        ..FitOptions::default()
    };
    let steps = fit(&train, &Positions::new(2), &start, 1.0, &options, |_| {});
    let strong = steps.last().unwrap().weights[1];
    let loose = fit(
        &train,
        &Positions::new(2),
        &start,
        1.0,
        &FitOptions {
            fixed: vec![true, false],
            ..FitOptions::default()
        },
        |_| {},
    )
    .last()
    .unwrap()
    .weights[1];
    assert!(
        loose > 0.004,
        "unpenalised, the weight goes toward 0.01: {loose}"
    );
    assert!(
        strong.abs() < loose / 10.0,
        "penalised in feature units it stays near its start 0: {strong} against {loose}"
    );
}

#[test]
fn blended_label_follows_its_formula_on_a_worked_example() {
    // y = λ r + (1 − λ) σ(K v), with K = 0.5 and λ = 0.25:
    //   won game, search value +2: 0.25 + 0.75 σ(1) = 0.25 + 0.75 × 0.731058579 = 0.798293934;
    //   lost game, search value −1: 0 + 0.75 σ(−0.5) = 0.75 × 0.377540669 = 0.283155502;
    //   drawn game, search value 0: 0.125 + 0.75 × 0.5 = 0.5.
    let mut p = Positions::new(1);
    p.push(&[1.0], 1.0, Some(2.0));
    p.push(&[-1.0], 0.0, Some(-1.0));
    p.push(&[0.0], 0.5, Some(0.0));
    let mut unchanged = p.clone();
    blend_labels(&mut p, 0.5, 0.25).unwrap();
    let want = [0.798_293_934, 0.283_155_502, 0.5];
    for (got, want) in p.labels.iter().zip(want) {
        assert!(
            (f64::from(*got) - want).abs() < 1e-6,
            "{got} against {want}"
        );
    }
    blend_labels(&mut unchanged, 0.5, 1.0).unwrap();
    assert_eq!(
        unchanged.labels,
        vec![1.0, 0.0, 0.5],
        "λ = 1 keeps the results"
    );
    let mut no_search = Positions::new(1);
    no_search.push(&[1.0], 1.0, None);
    assert!(blend_labels(&mut no_search, 0.5, 0.5).is_err());
    assert!(blend_labels(&mut unchanged, 0.5, 1.5).is_err());
}

#[test]
fn spsa_converges_on_a_noisy_quadratic() {
    // Strength f(θ) = -0.1 · Σ (θ − θ*)², in Elo-like logits; θ+ beats θ− with probability
    // σ(f(θ+) − f(θ−)). From (0, 0) SPSA must end within 0.6 of θ* = (3, -1).
    let optimum = [3.0, -1.0];
    let params = vec![
        Param::parse("x,0,-10,10,0.5,0.02").unwrap(),
        Param::parse("y,0,-10,10,0.5,0.02").unwrap(),
    ];
    let (iterations, pairs) = (3000, 4);
    let mut spsa = Spsa::new(params, iterations * pairs, 7);
    let strength = |t: &[f64]| {
        -0.1 * t
            .iter()
            .zip(optimum)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f64>()
    };
    let mut games = seeded_rng(8, 0);
    for _ in 0..iterations {
        let probe = spsa.probe();
        let p = 1.0 / (1.0 + (strength(&probe.minus) - strength(&probe.plus)).exp());
        let mut result = 0.0;
        for _ in 0..2 * pairs {
            result += if games.random::<f64>() < p { 1.0 } else { -1.0 };
        }
        spsa.update(&probe, result, pairs);
    }
    for (got, want) in spsa.theta.iter().zip(optimum) {
        assert!(
            (got - want).abs() < 0.6,
            "θ = {:?}, optimum {optimum:?}",
            spsa.theta
        );
    }
}

#[test]
fn spsa_gains_follow_fishtests_formulas() {
    // N = 100 pairs, c_end = 2, r_end = 0.01: c = 2 · 100^0.101, a = 0.01 · 4 · (10 + 100)^0.602.
    let p = Param::parse("c,1,0,5,2,0.01").unwrap();
    let schedule = ringside_arena::tune::spsa::Schedule { total_pairs: 100 };
    let first = schedule.gains(&p, 0);
    let c = 2.0 * 100f64.powf(0.101);
    let a = 0.04 * 110f64.powf(0.602);
    assert!((first.c_k - c).abs() < 1e-12);
    assert!((first.a_k - a / 11f64.powf(0.602)).abs() < 1e-12);
    let last = schedule.gains(&p, 99);
    assert!(
        (last.c_k - 2.0).abs() < 1e-12,
        "c at the last pair is c_end"
    );
    assert!(
        (last.r_k() - 0.01).abs() < 1e-12,
        "R at the last pair is r_end"
    );
}

fn spsa_args<'a>(out: &'a str, iterations: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "spsa",
        "--game",
        "rin:size=6",
        "--agent",
        "mcts:iters=30",
        "--param",
        "c,1.4,0.1,4,0.3,0.05",
        "--param",
        "playout,20,4,40,4",
        "--iterations",
        iterations,
        "--pairs",
        "2",
        "--seed",
        "5",
        "--verify-games",
        "4",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out,
    ]
}

#[test]
fn spsa_runs_on_real_games_and_resumes_the_same_trajectory() {
    let dir = scratch("spsa-resume");
    let whole = dir.join("whole");
    let out = ok(&spsa_args(path(&whole), "6"));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("iterations=6 games=24"), "{stdout}");
    assert!(stdout.contains("verification: 4 games"), "{stdout}");
    for file in [
        "spsa.csv",
        "summary.md",
        "theta-c.svg",
        "theta-playout.svg",
        "verify.csv",
    ] {
        assert!(whole.join(file).exists(), "{file} written");
    }
    let full = std::fs::read_to_string(whole.join("spsa.csv")).unwrap();
    assert_eq!(full.lines().count(), 7, "a header and six iterations");

    // A killed run: three iterations done and the fourth torn mid-line.
    let killed = dir.join("killed");
    ok(&spsa_args(path(&killed), "6"));
    let lines: Vec<&str> = full.lines().collect();
    let torn = format!("{}\n{}", lines[..4].join("\n"), &lines[4][..10]);
    std::fs::write(killed.join("spsa.csv"), torn).unwrap();
    let resumed = ok(&spsa_args(path(&killed), "6"));
    assert!(text(&resumed.stderr).contains("torn last line"));
    assert_eq!(
        std::fs::read_to_string(killed.join("spsa.csv")).unwrap(),
        full,
        "the resumed run repeats no iteration, loses none, and follows the same θ"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn spsa_refuses_a_changed_record_and_other_settings() {
    let dir = scratch("spsa-other");
    let out = dir.join("run");
    ok(&spsa_args(path(&out), "2"));
    let other = arena(&spsa_args(path(&out), "3"));
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("other settings"));
    let csv = out.join("spsa.csv");
    let changed = std::fs::read_to_string(&csv)
        .unwrap()
        .replacen(",1.4", ",1.5", 1);
    std::fs::write(&csv, changed).unwrap();
    let bad = arena(&spsa_args(path(&out), "2"));
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tuning_bad_input_is_one_line_and_exit_2() {
    let dir = scratch("tune-bad");
    let out = dir.join("s");
    for (param, expected) in [
        ("cc,1,0,2,0.1", "unknown key 'cc'"),
        ("c,5,0,2,0.1", "start 5 is outside [0, 2]"),
        (
            "w.nest_distance,1,0,2,0.1",
            "rin has no feature 'nest_distance'",
        ),
        ("c,1,0,2", "expected name,start,min,max,c_end[,r_end]"),
    ] {
        let args = [
            "tune",
            "spsa",
            "--game",
            "rin:size=6",
            "--agent",
            "mcts:iters=30",
            "--param",
            param,
            "--out",
            path(&out),
        ];
        refused(&args, expected);
    }

    // Texel: a CSV of another game beside a Rin one, and a run with no positions left.
    let rin = dir.join("rin.csv");
    let life = dir.join("life.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        "4",
        "--out",
        path(&rin),
    ]);
    ok(&[
        "match",
        "--game",
        "life",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--ply-cap",
        "40",
        "--out",
        path(&life),
    ]);
    let t = dir.join("t");
    refused(
        &["tune", "texel", path(&rin), path(&life), "--out", path(&t)],
        "a run of life, not rin",
    );
    refused(
        &[
            "tune",
            "texel",
            path(&rin),
            "--skip-plies",
            "500",
            "--out",
            path(&t),
        ],
        "no training positions",
    );
    refused(
        &[
            "tune",
            "texel",
            path(&rin),
            "--eval",
            "clever",
            "--out",
            path(&t),
        ],
        "--eval must be",
    );
    refused(
        &[
            "tune",
            "texel",
            path(&dir.join("missing.csv")),
            "--out",
            path(&t),
        ],
        "missing.csv",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn texel_writes_weights_the_agents_load() {
    let dir = scratch("texel-out");
    let games = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "mcts:iters=40",
        "random",
        "--games",
        "20",
        "--out",
        path(&games),
    ]);
    let out = dir.join("tuned");
    let run = ok(&[
        "tune",
        "texel",
        path(&games),
        "--out",
        path(&out),
        "--validation",
        "0.25",
    ]);
    assert!(text(&run.stdout).contains("positions="));
    for file in ["weights.json", "tune.csv", "summary.md", "losses.svg"] {
        assert!(out.join(file).exists(), "{file}");
    }
    let svg = std::fs::read_to_string(out.join("losses.svg")).unwrap();
    assert!(svg.contains("Texel tuning of rin") && svg.contains("validation"));
    let weights = out.join("weights.json");
    let spec = format!("alphabeta:depth=1,weights={}", path(&weights));
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        &spec,
        "random",
        "--games",
        "2",
        "--out",
        path(&dir.join("m.csv")),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn texel_recipe_holds_fixed_weights_and_tuned_weights_are_recorded_in_full() {
    // Self-play as the recipe makes it, then the recipe's fit: leaf search, blended label, a
    // penalty toward the start, material held (the default) and one more weight fixed.
    let dir = scratch("texel-recipe");
    let games = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "alphabeta:depth=1,eval=rich",
        "alphabeta:depth=1,eval=rich",
        "--games",
        "40",
        "--opening-plies",
        "4",
        "--out",
        path(&games),
    ]);
    let out = dir.join("tuned");
    let args = [
        "tune",
        "texel",
        path(&games),
        "--out",
        path(&out),
        "--leaf-depth",
        "1",
        "--lambda",
        "0.5",
        "--l2",
        "0.01",
        "--fix",
        "liberties=0.3",
    ];
    ok(&args);
    let weights: std::collections::BTreeMap<String, f64> =
        serde_json::from_str(&std::fs::read_to_string(out.join("weights.json")).unwrap()).unwrap();
    assert_eq!(weights["material"], 1.0, "material held at its start");
    assert_eq!(weights["liberties"], 0.3, "held at the value given");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("leaf of a depth-1 alpha-beta search"),
        "{summary}"
    );
    assert!(summary.contains("0.5 × the game's result"), "{summary}");
    // A blend without a search, and a feature the game lacks, are refused.
    refused(
        &[
            "tune",
            "texel",
            path(&games),
            "--out",
            path(&out),
            "--lambda",
            "0.5",
        ],
        "--leaf-depth",
    );
    refused(
        &[
            "tune",
            "texel",
            path(&games),
            "--out",
            path(&out),
            "--fix",
            "nest_guard",
        ],
        "--fix nest_guard: rin has no such feature",
    );
    // eval=tuned plays, and the games file records its weights in full.
    let m = dir.join("m.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "alphabeta:depth=1,eval=tuned",
        "random",
        "--games",
        "2",
        "--out",
        path(&m),
    ]);
    let csv = std::fs::read_to_string(&m).unwrap();
    for name in ["material", "immune", "liberties", "territory", "marked"] {
        assert!(
            csv.contains(&format!("w.{name}=")),
            "{name} written out: {csv}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn features_lists_default_and_tuned_weights() {
    let out = text(&ok(&["features", "--game", "rin:size=8"]).stdout);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("feature default_weight tuned_weight"));
    let immune = lines.find(|l| l.starts_with("immune ")).unwrap();
    let tuned = ringside_engine::Features::tuned_weight(
        &ringside_engine::games::rin::Rin::new(8).unwrap(),
        1,
    );
    assert_eq!(immune, format!("immune 0.5 {tuned:.4}"));
}

/// Each key of a shapes table and how often it was chosen and offered.
fn shape_counts(table: &str) -> std::collections::BTreeMap<u32, (u64, u64)> {
    table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                (f[2].parse().unwrap(), f[3].parse().unwrap()),
            )
        })
        .collect()
}

#[test]
fn shapes_are_fitted_to_the_moves_of_the_agents_learned_from_and_written_as_havannah_reads_them() {
    let dir = scratch("shapes-out");
    let games = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "havannah:size=4",
        "--agents",
        "mcts:iters=60",
        "random",
        "--games",
        "16",
        "--out",
        path(&games),
    ]);
    let out = dir.join("shapes");
    let fit = |out: &std::path::Path, more: &[&str]| {
        let mut args = vec!["tune", "shapes", path(&games), "--out", path(out)];
        args.extend([
            "--learn",
            "mcts",
            "--skip-plies",
            "2",
            "--validation",
            "0.25",
        ]);
        if !more.contains(&"--iterations") {
            args.extend(["--iterations", "10"]);
        }
        args.extend(more);
        ok(&args)
    };
    let run = fit(&out, &[]);
    let stdout = text(&run.stdout);
    let field = |name: &str| -> u64 {
        let at = stdout.find(&format!("{name}=")).unwrap() + name.len() + 1;
        stdout[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let positions = field("positions");
    assert!(positions > 50, "{stdout}");
    let table = std::fs::read_to_string(out.join("shapes.txt")).unwrap();
    assert!(table.starts_with("# Shape strengths of havannah"));
    let (mut chosen, mut offered, mut last) = (0, 0, None);
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "{line}");
        let shape: u32 = f[0].parse().unwrap();
        assert!(last < Some(shape), "sorted: {line}");
        last = Some(shape);
        assert!(f[1].parse::<f64>().unwrap().is_finite(), "{line}");
        let (c, o): (u64, u64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        assert!(c <= o, "{line}");
        chosen += c;
        offered += o;
    }
    // Each training position chose one move among its legal ones (at least two).
    assert_eq!(chosen, positions, "{stdout}");
    assert!(offered > 2 * positions);
    // The summary names the agents learned from: the one `--learn mcts` matched.
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("Agents learned from (1):\n\n- `mcts:iters=60`\n"),
        "{summary}"
    );
    assert!(!summary.contains("- `random`"), "{summary}");
    // In context: each shape split by its distance to the last stone (1 to 3; every kept ply
    // has a last stone), whose counts add up to the shape's own.
    let plain = shape_counts(&table);
    let in_context = dir.join("shapes-context");
    fit(&in_context, &["--context"]);
    let table = std::fs::read_to_string(in_context.join("shapes.txt")).unwrap();
    assert!(
        table.contains("\n# Context: each shape seen beside the distance to the last stone"),
        "{table}"
    );
    let mut summed = std::collections::BTreeMap::new();
    for (key, counts) in shape_counts(&table) {
        let (shape, context) = (key % (1 << 24), key >> 24);
        assert!((1..=3).contains(&context), "{key}");
        let sum: &mut (u64, u64) = summed.entry(shape).or_default();
        (sum.0, sum.1) = (sum.0 + counts.0, sum.1 + counts.1);
    }
    assert_eq!(summed, plain);
    // Wide shapes fitted over the context fit: the file written holds the context fit's
    // lines and the wide shapes' (keys from 2^48); each wide shape's counts add up, over the
    // wide shapes that hold one shape, to no more than the shape's (those offered fewer
    // times than --min-seen are not written).
    let wide = dir.join("shapes-wide");
    let over = in_context.join("shapes.txt");
    let run = fit(
        &wide,
        &[
            "--context",
            "--wide",
            "--over",
            path(&over),
            "--min-seen",
            "2",
        ],
    );
    let written = std::fs::read_to_string(wide.join("shapes.txt")).unwrap();
    assert!(written.contains("\n# Wide shapes"), "{written}");
    assert!(written.contains("\n# Fitted over "), "{written}");
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let (old_lines, new_lines) = (lines(&table), lines(&written));
    let wide_lines: Vec<&String> = new_lines
        .iter()
        .filter(|l| l.split(' ').next().unwrap().parse::<u64>().unwrap() >= 1 << 48)
        .collect();
    assert!(!wide_lines.is_empty(), "{}", text(&run.stdout));
    assert_eq!(new_lines.len(), old_lines.len() + wide_lines.len());
    for line in &old_lines {
        assert!(new_lines.contains(line), "carried over: {line}");
    }
    for line in &wide_lines {
        let offered: u64 = line.split(' ').nth(3).unwrap().parse().unwrap();
        assert!(offered >= 2, "{line}");
    }
    // Over a file read with --iterations 0: the held-out prediction is the file's as played,
    // the same before and after.
    let scored = dir.join("shapes-scored");
    fit(
        &scored,
        &[
            "--context",
            "--wide",
            "--over",
            path(&wide.join("shapes.txt")),
            "--iterations",
            "0",
        ],
    );
    let header = std::fs::read_to_string(scored.join("shapes.txt")).unwrap();
    let held = header
        .lines()
        .find(|l| l.starts_with("# Held out"))
        .unwrap();
    let numbers: Vec<&str> = held
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|t| t.len() > 3 && t.contains('.'))
        .collect();
    assert_eq!(numbers[0], numbers[1], "{held}");
    // A fit over a file in another context, or of shapes over wide shapes, is refused.
    refused(
        &[
            "tune",
            "shapes",
            path(&games),
            "--out",
            path(&out),
            "--over",
            path(&over),
        ],
        "the file is fitted in context; give --context",
    );
    refused(
        &[
            "tune",
            "shapes",
            path(&games),
            "--out",
            path(&out),
            "--context",
            "--over",
            path(&wide.join("shapes.txt")),
        ],
        "give --wide",
    );
    // A --min-seen no shape reaches leaves nothing to write: one line, exit 2, no file.
    let none = dir.join("none");
    refused(
        &[
            "tune",
            "shapes",
            path(&games),
            "--out",
            path(&none),
            "--min-seen",
            "99999999",
        ],
        "nothing to learn: no shape",
    );
    assert!(!none.join("shapes.txt").exists());
    // Learning from nobody, or from a game without shapes, is one line and exit code 2.
    refused(
        &[
            "tune",
            "shapes",
            path(&games),
            "--out",
            path(&out),
            "--learn",
            "nobody",
        ],
        "no training positions",
    );
    let rin = dir.join("rin.csv");
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
        path(&rin),
    ]);
    refused(
        &["tune", "shapes", path(&rin), "--out", path(&out)],
        "no move shapes",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
