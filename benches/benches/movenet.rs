//! The cost of one move-prior network evaluation (`mcts:movenet=FILE`, issue 46): the networks
//! of `results/castro-best/movenet/` (6 hex convolutions of 32 channels) and `movenet16/` (6 of
//! 16) on size-8 Havannah, each sample scoring the positions of a random game's first 40 plies,
//! one after another.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_agents::movenet::{MoveNet, MoveNetEval};
use ringside_engine::games::havannah::Havannah;
use ringside_engine::{Game, seeded_rng};

/// A committed network of `results/castro-best/`.
fn committed(folder: &str) -> MoveNet {
    let path = format!(
        "{}/../results/castro-best/{folder}/net.rspol",
        env!("CARGO_MANIFEST_DIR")
    );
    MoveNet::read(&std::fs::read(path).expect("the committed network")).unwrap()
}

fn movenet(c: &mut Criterion) {
    let (mut rng, mut scratch) = (seeded_rng(5, 0), Vec::new());
    let mut state = Havannah::new(8, false).unwrap();
    let mut positions = Vec::new();
    for _ in 0..40 {
        positions.push(state.clone());
        let mv = state.random_move(&mut rng, &mut scratch).expect("not over");
        state.play_unchecked(mv);
    }
    let mut eval = MoveNetEval::default();
    let mut group = c.benchmark_group("movenet");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, folder) in [
        ("havannah8_6x32", "movenet"),
        ("havannah8_6x16", "movenet16"),
    ] {
        let net = committed(folder);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0.0;
                for p in &positions {
                    sum += eval.logits(&net, p).expect("a grid")[100];
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movenet);
criterion_main!(benches);
