//! The arena's cost per game beside a raw playout, one core: `arena/raw_playout` plays a
//! uniformly random Rin game as `arena playouts` does (seeded generator per game, random start
//! draw); `arena/match_game` plays game `id` of a random-vs-random plan as a match's worker
//! does (agents built, moves recorded in notation, the row filled). Their ratio is the
//! worker's share of a match's speed; writing rows happens on another thread.
//!
//! `records/summary_pass` reads a 20,000-game random Rin 6×6 games CSV as `arena summary` does:
//! one streaming pass that parses, checks and replays every row once (gathering the metrics'
//! facts), folds it into the figures, then the metrics' bootstrap. Its time per game is what
//! a summary costs per game at any scale (the pass is linear; the bootstrap's cost is bounded).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_arena::plan::PlanBuilder;
use ringside_arena::run::play::play_game;
use ringside_arena::run::pool::Silent;
use ringside_arena::run::runner::{Reading, open_games_with, run_to_csv};
use ringside_engine::games::rin::Rin;
use ringside_engine::{Game, random_playout, seeded_rng};
use std::hint::black_box;

fn arena_overhead(c: &mut Criterion) {
    let start = Rin::default();
    let plan = PlanBuilder::new("rin")
        .pairing("random", "random")
        .games(1_000_000)
        .build()
        .expect("a valid plan");
    let mut group = c.benchmark_group("arena");
    group.throughput(Throughput::Elements(1));
    let mut index = 0u64;
    let mut scratch = Vec::new();
    group.bench_function("raw_playout", |b| {
        b.iter(|| {
            index += 1;
            let mut rng = seeded_rng(1, index);
            let mut state = start;
            state.randomize_start(&mut rng);
            black_box(random_playout(&mut state, &mut rng, &mut scratch, u32::MAX))
        })
    });
    let mut id = 0u64;
    group.bench_function("match_game", |b| {
        b.iter(|| {
            id = (id + 1) % plan.total_games();
            black_box(play_game(&start, &plan, id))
        })
    });
    group.finish();
}

fn summary_pass(c: &mut Criterion) {
    const GAMES: u64 = 20_000;
    let dir = std::env::temp_dir().join(format!("ringside-bench-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let csv = dir.join("games.csv");
    let plan = PlanBuilder::new("rin:size=6")
        .pairing("random", "random")
        .games(GAMES)
        .build()
        .expect("a valid plan");
    run_to_csv(&plan, &csv, None, &mut Silent).expect("the file is written");
    let mut group = c.benchmark_group("records");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    group.bench_function("summary_pass", |b| {
        b.iter(|| {
            let reading = Reading {
                facts: true,
                verify: None,
            };
            let opened = open_games_with(&plan, &csv, reading).expect("the file reads");
            let metrics = opened.tally.metrics();
            black_box((opened.tally.games(), metrics))
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, arena_overhead, summary_pass);
criterion_main!(benches);
