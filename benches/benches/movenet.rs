//! The cost of one move-prior network evaluation (`mcts:movenet=FILE`, issue 46): the network
//! of `results/castro-best/movenet/` (6 hex convolutions of 32 channels) on size-8 Havannah,
//! each sample scoring the positions of a random game's first 40 plies, one after another.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_agents::movenet::{MoveNet, MoveNetEval};
use ringside_engine::games::havannah::Havannah;
use ringside_engine::{Game, seeded_rng};

fn movenet(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/castro-best/movenet/net.rspol"
    );
    let net = MoveNet::read(&std::fs::read(path).expect("the committed network")).unwrap();
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
    group.bench_function("havannah8_6x32", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for p in &positions {
                sum += eval.logits(&net, p).expect("a grid")[100];
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, movenet);
criterion_main!(benches);
