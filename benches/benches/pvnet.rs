//! The cost of one policy-value network evaluation (`mcts:pv=FILE`, issue 102): networks of
//! `tune zero`'s default shape (4 square convolutions of 32 channels, a value head of 32) and
//! a wider one (6 of 64) on Connect Four 7×6, and the default shape on Havannah 6 (hex), each
//! sample scoring the positions of a random game's first plies one after another. The
//! weights are a fixed pattern: the cost does not depend on them.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_agents::pvnet::{MAGIC, PvEval, PvNet};
use ringside_engine::games::connect_four::ConnectFour;
use ringside_engine::games::havannah::Havannah;
use ringside_engine::{Features, GRID_PLANES, Game, seeded_rng};

/// A network of `layers` convolutions of `channels` with `taps` taps, weights patterned.
fn patterned(taps: u32, layers: u32, channels: u32, hidden: u32) -> PvNet {
    let mut bytes = MAGIC.to_vec();
    for v in [GRID_PLANES as u32, taps, layers, channels, hidden] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let c = channels as usize;
    let mut count = 0;
    for l in 0..layers as usize {
        count += c * (if l == 0 { GRID_PLANES } else { c }) * 9 + c;
    }
    count += 2 * (c + 1) + hidden as usize * c + 2 * hidden as usize + 1;
    for i in 0..count {
        let v = ((i * 37) % 11) as f32 / 40.0 - 0.12;
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    PvNet::read(&bytes).expect("a well-formed network")
}

fn positions<G: Game>(mut state: G, plies: usize) -> Vec<G> {
    let (mut rng, mut scratch) = (seeded_rng(5, 0), Vec::new());
    let mut out = Vec::new();
    for _ in 0..plies {
        if state.outcome().is_some() {
            break;
        }
        out.push(state.clone());
        let mv = state.random_move(&mut rng, &mut scratch).expect("not over");
        state.play_unchecked(mv);
    }
    out
}

fn bench<G: Game + Features>(c: &mut Criterion, name: &str, net: &PvNet, positions: &[G]) {
    let mut eval = PvEval::default();
    let mut group = c.benchmark_group("pvnet");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for p in positions {
                sum += eval.evaluate(net, p).expect("a grid").value;
            }
            sum
        })
    });
    group.finish();
}

fn pvnet(c: &mut Criterion) {
    let c4 = positions(ConnectFour::new(), 20);
    bench(c, "connect_four_4x32", &patterned(9, 4, 32, 32), &c4);
    bench(c, "connect_four_6x64", &patterned(9, 6, 64, 64), &c4);
    let havannah = positions(Havannah::new(6, false).unwrap(), 20);
    bench(c, "havannah6_4x32", &patterned(7, 4, 32, 32), &havannah);
}

criterion_group!(benches, pvnet);
criterion_main!(benches);
