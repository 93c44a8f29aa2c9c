//! Texel tuning speed: fitting K and then five weights on one million positions, the size the
//! issue sets a one-minute budget for. Positions are synthetic (labels drawn from a planted
//! logistic model), since the fit never looks at games.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::RngExt;
use ringside_arena::tune::texel::{FitOptions, Positions, fit, fit_k};
use ringside_engine::seeded_rng;

fn million_positions() -> Positions {
    let planted = [1.0, 0.5, 0.25, -0.3, 0.1];
    let mut rng = seeded_rng(11, 0);
    let mut positions = Positions::new(planted.len());
    let mut d = [0.0; 5];
    for _ in 0..1_000_000 {
        for x in &mut d {
            *x = f64::from(rng.random_range(-10..=10i32));
        }
        let s: f64 = d.iter().zip(planted).map(|(a, b)| a * b).sum();
        let y = if rng.random::<f64>() < 1.0 / (1.0 + (-0.3 * s).exp()) {
            1.0
        } else {
            0.0
        };
        positions.push(&d, y, None);
    }
    positions
}

fn texel_fit(c: &mut Criterion) {
    let train = million_positions();
    let validation = Positions::new(5);
    let start = [1.0, 0.0, 0.0, 0.0, 0.0];
    let mut group = c.benchmark_group("tune");
    group.sample_size(10);
    group.bench_function("texel_fit_1m_positions_5_features", |b| {
        b.iter(|| {
            let k = fit_k(&train, &start).unwrap();
            let steps = fit(
                &train,
                &validation,
                &start,
                k,
                &FitOptions::default(),
                |_| {},
            );
            std::hint::black_box(steps.len())
        });
    });
    // The recipe of results/tuned: material held (K refitted as the weights settle) and the
    // penalty toward the start in units of each feature's spread.
    let recipe = FitOptions {
        l2: 0.01,
        fixed: vec![true, false, false, false, false],
        refit_k: true,
        ..FitOptions::default()
    };
    group.bench_function("texel_fit_1m_positions_recipe", |b| {
        b.iter(|| {
            let k = fit_k(&train, &start).unwrap();
            let steps = fit(&train, &validation, &start, k, &recipe, |_| {});
            std::hint::black_box(steps.len())
        });
    });
    group.finish();
}

criterion_group!(benches, texel_fit);
criterion_main!(benches);
