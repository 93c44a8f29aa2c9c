//! Search speed on Rin's 16×16 start: alpha-beta nodes per second and MCTS iterations per
//! second (plain random playouts), to set beside the raw playout rate of `playouts.rs`; and
//! the iteration rate of each MCTS option on Havannah size 8.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ringside_agents::{Agent, AgentSpec, AnyAgent, Mcts};
use ringside_engine::games::havannah::Havannah;
use ringside_engine::games::rin::{Point, Rin};
use std::hint::black_box;

fn alphabeta_nodes(c: &mut Criterion) {
    let start = Rin::default();
    let spec = AgentSpec::parse("alphabeta:depth=2,tt_bits=20").unwrap();
    let nodes = {
        let mut agent = spec.build(&start, 1).unwrap();
        agent.choose(&start).stats.nodes
    };
    let mut group = c.benchmark_group("alphabeta");
    group.sample_size(20);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("rin_start_depth2_nodes", |b| {
        b.iter(|| {
            let mut agent = spec.build(&start, 1).unwrap();
            black_box(agent.choose(black_box(&start)).stats.nodes)
        })
    });
    group.finish();
}

fn mcts_iterations(c: &mut Criterion) {
    let start = Rin::default();
    let iterations = 500;
    let spec = AgentSpec::parse(&format!("mcts:iters={iterations},reuse=off")).unwrap();
    let mut agent: AnyAgent<Rin> = spec.build(&start, 1).unwrap();
    eprintln!(
        "MCTS node: {} bytes + {} bytes for its move",
        Mcts::<Rin>::BYTES_PER_NODE,
        std::mem::size_of::<Point>()
    );
    let mut group = c.benchmark_group("mcts");
    group.sample_size(20);
    group.throughput(Throughput::Elements(iterations));
    group.bench_function("rin_start_iterations", |b| {
        b.iter(|| black_box(agent.choose(black_box(&start)).stats.iterations))
    });
    group.finish();
}

/// Iterations per second of each MCTS option (issue 14), Havannah size 8 from the start, one
/// search of 2,000 iterations without tree reuse; `plain` is UCT with random playouts. The
/// `strong2_*` rows compare one thread, root parallelism and tree parallelism (issue 46); the
/// `strong4` rows the same with five playouts a descent.
fn mcts_options(c: &mut Criterion) {
    let start = Havannah::default();
    let mut group = c.benchmark_group("mcts_options_havannah8");
    group.sample_size(10);
    // The dearest options search fewer iterations a sample; rates stay comparable.
    for (name, options, iterations) in [
        ("plain", "", 2000),
        ("rave", ",rave=1000", 2000),
        ("rave_castro", ",rave=500,rave_form=hyp,rave_grow=200", 2000),
        ("decisive_tree", ",decisive=tree", 2000),
        ("decisive_on", ",decisive=on", 200),
        ("fpu", ",fpu=0.5", 2000),
        ("know", ",know=1,fpu=1", 2000),
        ("bias_rich", ",bias=1,eval=rich", 200),
        ("mast", ",policy=mast", 2000),
        ("pattern", ",pattern=on", 2000),
        ("lgrf", ",reply=lgrf", 2000),
        ("eval_policy_rich", ",policy=eval,eval=rich", 2),
        ("threads2", ",threads=2", 2000),
        ("preset_strong", ",preset=strong", 2000),
        ("preset_strong2", ",preset=strong2", 2000),
        ("strong2_root2", ",preset=strong2,threads=2", 2000),
        ("strong2_tree1", ",preset=strong2,parallel=tree", 2000),
        (
            "strong2_tree2",
            ",preset=strong2,parallel=tree,threads=2",
            2000,
        ),
        (
            "strong2_tree2_batch8",
            ",preset=strong2,parallel=tree,threads=2,batch=8",
            2000,
        ),
        (
            "strong2_tree2_batch128",
            ",preset=strong2,parallel=tree,threads=2,batch=128",
            2000,
        ),
        ("strong4", ",preset=strong4", 400),
        (
            "strong4_tree2",
            ",preset=strong4,parallel=tree,threads=2",
            400,
        ),
        (
            "preset_pattern_lgrf",
            ",preset=strong,pattern=on,reply=lgrf",
            2000,
        ),
    ] {
        let spec =
            AgentSpec::parse(&format!("mcts:iters={iterations},reuse=off{options}")).unwrap();
        let mut agent: AnyAgent<Havannah> = spec.build(&start, 1).unwrap();
        group.throughput(Throughput::Elements(iterations));
        group.bench_function(name, |b| {
            b.iter(|| black_box(agent.choose(black_box(&start)).stats.iterations))
        });
    }
    group.finish();
}

criterion_group!(benches, alphabeta_nodes, mcts_iterations, mcts_options);
criterion_main!(benches);
