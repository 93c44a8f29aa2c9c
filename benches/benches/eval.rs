//! The cost of one evaluation (issue 45): the tuned linear weights against a network of the
//! default shape (64 hidden units a view, random weights: the cost does not depend on their
//! values) and the network that also reads the game's features, for each seed game and the
//! reference games with nets. Each sample evaluates every child of every position of a
//! random game, siblings one after another, as a search visits them: the network's
//! evaluation is incremental from the last position it saw.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_agents::net::{Net, NetShape};
use ringside_agents::{EvalKind, EvalSpec, Evaluator, NetRef};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, seeded_rng};

const GAMES: [&str; 9] = [
    "rin:size=10",
    "life",
    "advance",
    "hexxagon",
    "ikabegama:distance=6,side=9",
    "havannah:size=6",
    // The reference games with nets (experiments/net-game.sh).
    "breakthrough",
    "othello",
    "connect_four",
];

struct Bench<'a>(&'a mut Criterion);

impl GameVisitor for Bench<'_> {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let (mut rng, mut scratch) = (seeded_rng(5, 0), Vec::new());
        let mut children = Vec::new();
        let mut state = start.clone();
        for _ in 0..40 {
            let Some(mover) = state.to_move() else { break };
            state.legal_moves(&mut scratch);
            for &mv in &scratch {
                let mut child = state.clone();
                child.play_unchecked(mv);
                children.push((child, mover));
            }
            let mv = state.random_move(&mut rng, &mut scratch).expect("not over");
            state.play_unchecked(mv);
        }
        let tuned = EvalSpec {
            kind: EvalKind::Tuned,
            ..EvalSpec::default()
        };
        let net_spec = |features: bool| {
            let mut shape = NetShape::of(&start, 64, false);
            if features {
                shape.features = start.feature_set().len();
            }
            let mut net = Net::random(shape, 0.15, &mut seeded_rng(6, 0));
            net.u.iter_mut().for_each(|u| *u = 0.5);
            EvalSpec {
                kind: EvalKind::Net,
                net: Some(NetRef {
                    file: None,
                    id: None,
                    net: Some(Arc::new(net)),
                }),
                ..EvalSpec::default()
            }
        };
        let mut group = self.0.benchmark_group(format!("eval/{}", start.spec()));
        group.throughput(Throughput::Elements(children.len() as u64));
        group.sample_size(20);
        for (name, spec) in [
            ("linear_tuned", tuned),
            ("net_64", net_spec(false)),
            ("net_64_with_features", net_spec(true)),
        ] {
            let eval = Evaluator::new(&spec, &start).expect("an evaluation");
            group.bench_function(name, |b| {
                b.iter(|| {
                    children
                        .iter()
                        .map(|(child, mover)| eval.evaluate(child, *mover))
                        .sum::<f64>()
                })
            });
        }
        group.finish();
    }
}

fn evaluations(c: &mut Criterion) {
    for spec in GAMES {
        AnyGame::parse(spec).expect("a game").visit(Bench(c));
    }
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
