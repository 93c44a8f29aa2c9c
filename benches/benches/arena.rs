//! The arena's cost per game beside a raw playout, one core: `arena/raw_playout` plays a
//! uniformly random Rin game as `arena playouts` does (seeded generator per game, random start
//! draw); `arena/match_game` plays game `id` of a random-vs-random plan as a match's worker
//! does (agents built, moves recorded in notation, the row filled). Their ratio is the
//! worker's share of a match's speed; writing rows happens on another thread.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_arena::plan::PlanBuilder;
use ringside_arena::play::play_game;
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

criterion_group!(benches, arena_overhead);
criterion_main!(benches);
