//! Uniformly random playouts from each game's start position, one core.
//!
//! Criterion reports the time of one playout; playouts per second is its inverse. The
//! `rin/stone` group reports the same playouts per placed stone.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_benches::{bench_rng, one_playout};
use ringside_engine::games::advance::Advance;
use ringside_engine::games::hexxagon::Hexxagon;
use ringside_engine::games::ikabegama::Ikabegama;
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

fn hex_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("hex");
    group.throughput(Throughput::Elements(1));
    let mut rng = bench_rng();
    let hexxagon = Hexxagon::default();
    let mut scratch = Vec::new();
    group.bench_function("hexxagon_playout", |b| {
        b.iter(|| black_box(one_playout(black_box(&hexxagon), &mut rng, &mut scratch)))
    });
    let ikabegama = Ikabegama::default();
    group.bench_function("ikabegama_playout", |b| {
        b.iter(|| black_box(one_playout(black_box(&ikabegama), &mut rng, &mut scratch)))
    });
    let advance = Advance::default();
    let mut scratch = Vec::new();
    group.bench_function("advance_playout", |b| {
        b.iter(|| black_box(one_playout(black_box(&advance), &mut rng, &mut scratch)))
    });
    group.finish();
}

criterion_group!(benches, rin_playouts, life_playouts, hex_playouts);
criterion_main!(benches);
