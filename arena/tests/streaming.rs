//! The streaming core: a games file read in one pass, in chunks, folds into the same figures
//! as the rows held in memory; each read replays a game once; the metrics' clustered
//! bootstrap is exactly the pair bootstrap it replaced on files of up to 4,096 pairs.

use crate::common;

use common::{ok, path, scratch, text};
use rand::RngExt;
use ringside_arena::figures::metrics::{
    BOOTSTRAP_CLUSTERS, BOOTSTRAP_SAMPLES, Estimate, GameFacts, Metric, MetricsSink, estimates,
    game_facts, quantile,
};
use ringside_arena::figures::report::markdown;
use ringside_arena::figures::stats::{PairingResult, percentile, rate_groups};
use ringside_arena::figures::summary::{Lengths, Tally, ratings};
use ringside_arena::plan::{PlanBuilder, Seat};
use ringside_arena::records::games_csv::{CHUNK_ROWS, read_games, read_games_with};
use ringside_arena::records::row::{Reason, Winner};
use ringside_arena::records::sidecar::read_sidecar;
use ringside_arena::run::pool::Silent;
use ringside_arena::run::runner::run_in_memory;
use ringside_engine::seeded_rng;

/// The bootstrap as it was before the fold: every resample a list of the pairs' games, each
/// metric computed over that list.
fn pair_bootstrap_reference(games: &[GameFacts]) -> Vec<Estimate> {
    let mut pairs: Vec<Vec<&GameFacts>> = Vec::new();
    let mut keys: Vec<(usize, u64)> = Vec::new();
    for g in games {
        match keys.iter().position(|k| *k == g.pair) {
            Some(i) => pairs[i].push(g),
            None => {
                keys.push(g.pair);
                pairs.push(vec![g]);
            }
        }
    }
    let all: Vec<&GameFacts> = games.iter().collect();
    let mut rng = seeded_rng(0x6d65_7472_6963, 0);
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); Metric::ALL.len()];
    let mut resample: Vec<&GameFacts> = Vec::new();
    for _ in 0..BOOTSTRAP_SAMPLES {
        resample.clear();
        for _ in 0..pairs.len() {
            resample.extend(&pairs[rng.random_range(0..pairs.len())]);
        }
        for (m, out) in Metric::ALL.iter().zip(samples.iter_mut()) {
            if let Some(v) = m.value(&resample) {
                out.push(v);
            }
        }
    }
    Metric::ALL
        .iter()
        .zip(samples.iter_mut())
        .filter_map(|(&metric, sample)| {
            let value = metric.value(&all)?;
            sample.sort_by(f64::total_cmp);
            let (low, high) = (quantile(sample, 0.025), quantile(sample, 0.975));
            Some(Estimate {
                metric,
                value,
                low: low.min(value),
                high: high.max(value),
            })
        })
        .collect()
}

/// Random facts of `pairs` colour-swapped pairs.
fn random_facts(pairs: u64, seed: u64) -> Vec<GameFacts> {
    let mut rng = seeded_rng(seed, 0);
    (0..2 * pairs)
        .map(|i| {
            let winner = [Winner::First, Winner::Second, Winner::Draw][rng.random_range(0..3)];
            let reason = if winner == Winner::Draw && rng.random_range(0..4) == 0 {
                Reason::PlyCap
            } else {
                Reason::Normal
            };
            let a_first = i % 2 == 0;
            let plies = rng.random_range(5..80);
            GameFacts {
                pair: (0, i / 2),
                winner,
                reason,
                a_won: match winner {
                    Winner::Draw => None,
                    Winner::First => Some(a_first),
                    Winner::Second => Some(!a_first),
                },
                plies,
                turns: plies / 2 + 1,
                branching: rng.random_range(1.0..30.0),
                decisions: rng.random_range(0.0..1.0),
                lead_changes: rng.random_range(0.0..0.5),
                drama: (winner != Winner::Draw).then(|| rng.random_range(0.0..1.0)),
            }
        })
        .collect()
}

/// The same metrics with the same values and bounds, to the last bit when `exact`, else to
/// within floating-point rounding (relative 1e-12).
fn assert_estimates(new: &[Estimate], old: &[Estimate], exact: bool) {
    assert_eq!(new.len(), old.len());
    for (n, o) in new.iter().zip(old) {
        assert_eq!(n.metric, o.metric);
        for (x, y) in [(n.value, o.value), (n.low, o.low), (n.high, o.high)] {
            if exact {
                assert_eq!(x.to_bits(), y.to_bits(), "{:?}: {n:?} vs {o:?}", n.metric);
            } else {
                let scale = x.abs().max(y.abs()).max(1.0);
                assert!(
                    (x - y).abs() <= 1e-12 * scale,
                    "{:?}: {n:?} vs {o:?}",
                    n.metric
                );
            }
        }
    }
}

#[test]
fn the_folded_bootstrap_is_the_pair_bootstrap_on_small_files_and_unpaired_games() {
    for (pairs, seed) in [(1, 1), (7, 2), (150, 3), (BOOTSTRAP_CLUSTERS, 4)] {
        let games = random_facts(pairs, seed);
        // To the last bit: a cluster of one pair adds into a resample game by game, in the
        // pair bootstrap's order.
        assert_estimates(&estimates(&games), &pair_bootstrap_reference(&games), true);
    }
    // A run stopped between a pair's games: the last pair has one game.
    let mut games = random_facts(7, 6);
    games.pop();
    assert_estimates(&estimates(&games), &pair_bootstrap_reference(&games), true);
}

#[test]
fn beyond_the_cluster_count_the_interval_keeps_its_width() {
    // 8,000 pairs fold into 4,096 clusters: the interval is no longer the pair bootstrap's
    // draw for draw, but it estimates the same spread.
    let games = random_facts(8_000, 5);
    let new = estimates(&games);
    let old = pair_bootstrap_reference(&games);
    for (n, o) in new.iter().zip(&old) {
        assert_eq!(n.value, o.value, "{:?}", n.metric);
        let (wn, wo) = (n.high - n.low, o.high - o.low);
        if wo > 0.0 {
            assert!(
                (wn / wo - 1.0).abs() < 0.1,
                "{:?}: width {wn} vs {wo}",
                n.metric
            );
        }
    }
    // Folded, not kept pair by pair: some bound is no longer the pair bootstrap's.
    assert!(
        new.iter()
            .zip(&old)
            .any(|(n, o)| (n.low, n.high) != (o.low, o.high)),
        "8,000 pairs were bootstrapped one by one"
    );
}

#[test]
fn length_percentiles_from_counts_equal_nearest_rank_on_sorted_lengths() {
    let mut rng = seeded_rng(8, 0);
    for n in [1usize, 2, 3, 10, 101, 1000] {
        let mut sorted: Vec<u32> = (0..n).map(|_| rng.random_range(0..200)).collect();
        let mut lengths = Lengths::default();
        for &x in &sorted {
            lengths.add(x);
        }
        sorted.sort_unstable();
        for q in [0.0, 0.1, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(lengths.percentile(q), percentile(&sorted, q), "n={n} q={q}");
        }
        let mean = sorted.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64;
        assert!((lengths.mean() - mean).abs() < 1e-9);
        assert_eq!(lengths.longest(), *sorted.last().unwrap());
    }
}

/// A games file of `games` random Rin 6×6 games (seed 1), written by `arena match`.
fn random_rin_file(name: &str, games: usize) -> std::path::PathBuf {
    let csv = scratch(name).join("g.csv");
    let games = games.to_string();
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "random",
        "--games",
        &games,
        "--out",
        path(&csv),
        "--quiet",
    ]);
    csv
}

#[test]
fn a_file_of_several_chunks_reads_into_the_figures_of_the_rows_in_memory() {
    let csv = random_rin_file("streaming-chunks", 2 * CHUNK_ROWS + 502);
    let (plan, _) = read_sidecar(&csv).unwrap();
    let mut streamed = Tally::new(&plan);
    let mut chunks = Vec::new();
    let mut lines = Vec::new();
    let report = read_games_with(&csv, &plan, &MetricsSink, &mut |chunk| {
        chunks.push(chunk.len());
        for r in chunk {
            streamed.add(&r.row, r.gathered.as_ref());
            lines.push(r.line);
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(chunks, [CHUNK_ROWS, CHUNK_ROWS, 502]);
    assert_eq!(report.ids.len(), 2 * CHUNK_ROWS as u64 + 502);
    assert_eq!(lines, (2..2 + lines.len() as u64).collect::<Vec<_>>());

    let memory = PlanBuilder::new("rin:size=6")
        .pairing("random", "random")
        .games(2 * CHUNK_ROWS as u64 + 502)
        .build()
        .unwrap();
    let rows = run_in_memory(&memory, Some(2), &mut Silent).unwrap();
    let held = Tally::of_rows(&plan, &rows);
    let (s, h) = (streamed.pairings(), held.pairings());
    assert_eq!(s.len(), 1);
    for (s, h) in s.iter().zip(&h) {
        assert_eq!((s.all, s.a_first, s.penta), (h.all, h.a_first, h.penta));
        assert_eq!(s.lengths, h.lengths);
        assert_eq!(s.figures(), h.figures());
    }
    // The metrics from the read's one replay are those of replaying the held rows again.
    let facts = game_facts(&plan, &rows).unwrap();
    // Beyond 4,096 pairs a cluster holds several pairs, summed in the order their games came:
    // the file's order (games finish in parallel) and the held rows' differ, so the sums agree
    // to rounding, not always to the bit.
    assert_estimates(&s[0].metrics.estimates(), &estimates(&facts), false);
}

#[test]
fn a_bad_row_after_the_first_chunk_is_named_by_its_line() {
    let csv = random_rin_file("streaming-bad-row", CHUNK_ROWS + 100);
    let content = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = content.lines().map(String::from).collect();
    // Line 4,150 (index 4,149): its last move replaced by a move already played.
    let victim = 4149;
    let first_move = lines[victim].rsplit(',').next().unwrap().split(' ').next();
    let mut moves: Vec<&str> = lines[victim]
        .rsplit(',')
        .next()
        .unwrap()
        .split(' ')
        .collect();
    let last = moves.len() - 1;
    moves[last] = first_move.unwrap();
    let head = lines[victim].rsplit_once(',').unwrap().0.to_string();
    lines[victim] = format!("{head},{}", moves.join(" "));
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let (plan, _) = read_sidecar(&csv).unwrap();
    let err = read_games(&csv, &plan).unwrap_err();
    assert!(
        err.message.contains(&format!("line {}:", victim + 1)),
        "{}",
        err.message
    );
    let o = common::arena(&["summary", path(&csv)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains(&format!("line {}", victim + 1)));
}

#[test]
fn summary_only_reads_even_a_file_without_rows() {
    // A merged file's sidecar holds what this build would not write afresh: the merge record.
    let csv = random_rin_file("streaming-summary-reads", 4);
    let merged = csv.with_file_name("m.csv");
    ok(&["merge", path(&csv), "--out", path(&merged)]);
    std::fs::write(&merged, "").unwrap();
    let sidecar = ringside_arena::records::sidecar::sidecar_path(&merged);
    let before = std::fs::read(&sidecar).unwrap();
    let o = ok(&["summary", path(&merged)]);
    assert!(text(&o.stdout).contains("0 of 4 planned games"));
    assert_eq!(
        std::fs::read(&sidecar).unwrap(),
        before,
        "the sidecar is not rewritten"
    );
}

#[test]
fn the_cap_rate_draw_rate_and_length_counts_are_direct_counts_of_the_rows() {
    // Random Havannah 4 games capped at 30 plies: some end before the cap, some reach it.
    let plan = PlanBuilder::new("havannah:size=4")
        .pairing("random", "random")
        .games(40)
        .seed(3)
        .ply_cap(Some(30))
        .build()
        .unwrap();
    let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
    let tally = Tally::of_rows(&plan, &rows);
    assert_eq!(tally.games(), rows.len() as u64);
    let pairings = tally.pairings();
    let f = pairings[0].figures();
    let n = rows.len() as f64;
    let capped = rows.iter().filter(|r| r.reason == Reason::PlyCap).count();
    let draws = rows.iter().filter(|r| r.winner == Winner::Draw).count();
    let lengths: Vec<u32> = rows.iter().map(|r| r.plies).collect();
    assert!(
        capped > 0 && capped < rows.len(),
        "{capped} of {n} capped: {lengths:?}"
    );
    assert_eq!(f.cap_rate, capped as f64 / n);
    assert_eq!(f.draw_rate, draws as f64 / n);
    let mut by_length = std::collections::BTreeMap::new();
    for r in &rows {
        *by_length.entry(r.plies).or_insert(0u64) += 1;
    }
    assert_eq!(
        pairings[0].lengths.counts().collect::<Vec<_>>(),
        by_length.into_iter().collect::<Vec<_>>()
    );
}

#[test]
fn metrics_tables_come_only_from_replayed_games() {
    let csv = random_rin_file("metrics-of-tally", 6);
    let (plan, _) = read_sidecar(&csv).unwrap();
    // Rows counted without their replay: figures, but no metrics to tabulate.
    let rows = read_games(&csv, &plan).unwrap().rows;
    let counted = Tally::of_rows(&plan, &rows);
    assert_eq!(counted.pairings().len(), 1);
    assert!(counted.metrics().is_empty());
    // Read in one pass, each game replayed: one table, every metric in it.
    let (read, _) = Tally::read(&csv, &plan).unwrap();
    let tables = read.metrics();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].1.len(), Metric::ALL.len());
}

#[test]
fn games_lost_by_agent_faults_are_counted_and_reported() {
    let plan = PlanBuilder::new("rin:size=6")
        .pairing("random", "random")
        .games(12)
        .build()
        .unwrap();
    let mut rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
    let tally = Tally::of_rows(&plan, &rows);
    assert_eq!(tally.pairings()[0].faults, 0);
    assert!(!markdown(&plan, &tally, "t", &[]).contains("agent faults"));
    // Three faults of different kinds; a resignation and a capped game are no faults.
    let reasons = [
        Reason::IllegalMove,
        Reason::TimeForfeit,
        Reason::Resign,
        Reason::EngineCrash,
        Reason::PlyCap,
    ];
    for (row, reason) in rows.iter_mut().zip(reasons) {
        row.reason = reason;
    }
    let tally = Tally::of_rows(&plan, &rows);
    assert_eq!(tally.pairings()[0].faults, 3);
    assert!(
        markdown(&plan, &tally, "t", &[]).contains("| games lost by agent faults | 3 |"),
        "{}",
        markdown(&plan, &tally, "t", &[])
    );
}

#[test]
fn ratings_are_fitted_to_each_pairings_points_with_draws_as_halves() {
    // Alpha-beta against random on Rin 6×6: each agent's points counted from the rows by
    // hand (a win 1, a draw ½), then fitted directly, must be what the summary rates.
    let plan = PlanBuilder::new("rin:size=6")
        .pairing("alphabeta:depth=1", "random")
        .games(30)
        .build()
        .unwrap();
    let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
    let tally = Tally::of_rows(&plan, &rows);
    let pairings = tally.pairings();
    let p = pairings[0];
    let (mut wins, mut draws) = (0.0, 0.0);
    for r in &rows {
        let a_first = r.slot.seat == Seat::AFirst;
        match r.winner {
            Winner::Draw => draws += 1.0,
            Winner::First if a_first => wins += 1.0,
            Winner::Second if !a_first => wins += 1.0,
            _ => {}
        }
    }
    let a_points = wins + draws / 2.0;
    assert!(
        a_points > 0.0 && a_points < rows.len() as f64,
        "{wins} wins, {draws} draws"
    );
    let direct = rate_groups(
        plan.agents.len(),
        &[PairingResult {
            a: p.a,
            b: p.b,
            a_points,
            games: rows.len() as f64,
        }],
    );
    assert_eq!(direct[0].members.len(), 2);
    assert_eq!(ratings(plan.agents.len(), pairings.iter().copied()), direct);
}
