//! Uniformly random playouts from each game's start position, one core.
//!
//! Criterion reports the time of one playout; playouts per second is its inverse. The
//! `rin/stone` group reports the same playouts per placed stone.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_benches::{bench_rng, one_playout};
use ringside_engine::games::life::{Life, life_step};
use ringside_engine::games::rin::Rin;
use std::hint::black_box;

fn rin_playouts(c: &mut Criterion) {
    let start = Rin::default();
    let mut rng = bench_rng();
    let mut scratch = Vec::new();
    let mut group = c.benchmark_group("rin");
    group.throughput(Throughput::Elements(1));
    group.bench_function("playout_16x16", |b| {
        b.iter(|| black_box(one_playout(black_box(&start), &mut rng, &mut scratch)))
    });
    // The mean playout places about 242 stones; this view reports time per stone.
    let plies: u64 = (0..200)
        .map(|_| u64::from(one_playout(&start, &mut rng, &mut scratch)))
        .sum();
    group.throughput(Throughput::Elements(plies / 200));
    group.bench_function("stone_16x16", |b| {
        b.iter(|| black_box(one_playout(black_box(&start), &mut rng, &mut scratch)))
    });
    group.finish();
}

fn life_playouts(c: &mut Criterion) {
    let start = Life::default();
    let mut rng = bench_rng();
    let mut scratch = Vec::new();
    let mut group = c.benchmark_group("life");
    group.throughput(Throughput::Elements(1));
    group.bench_function("playout", |b| {
        b.iter(|| black_box(one_playout(black_box(&start), &mut rng, &mut scratch)))
    });
    let (black, white) = (
        *start.stones(ringside_engine::Player::ZERO),
        *start.stones(ringside_engine::Player::ONE),
    );
    group.bench_function("step", |b| {
        b.iter(|| black_box(life_step(black_box(&black), black_box(&white))))
    });
    group.finish();
}

criterion_group!(benches, rin_playouts, life_playouts);
criterion_main!(benches);
