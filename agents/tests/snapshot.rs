//! Same spec, same games: alpha-beta and MCTS search exactly what they searched when the
//! committed results were played.
//!
//! A committed result replays only if every agent still chooses the same moves, and its CSV
//! records each side's node counts. Move ordering (table move, killers, history and its hash),
//! tie-breaking among equal children and the playouts' random draws change neither a
//! search's value nor its legality, so the value tests cannot see them; they do change the
//! games. This test pins, for every game of the registry, the move, value, depth and node
//! count of a few seeded searches against `tests/snapshots/search/GAME.txt`, one file a game.
//!
//! A change that is meant to change the searches (a better ordering, a new default) updates
//! the files with `RINGSIDE_BLESS=1 cargo test -p ringside-agents --test all snapshot::` and must
//! say in its commit which committed results it replays differently. A game without a file
//! (one just added, with no committed results yet) gets its file written by the first run,
//! which passes: commit it with the game.

use std::fmt::Write as _;

use ringside_agents::{Agent, AgentSpec};
use ringside_engine::registry::{GAMES, GameVisitor, with_game};
use ringside_engine::{Features, Game, seeded_rng};

/// The agents pinned: alpha-beta with each evaluation and scoring (depth 2: killers and
/// history already order the second ply), and MCTS with each of its options set in one spec
/// or another, at budgets that keep the test to a few seconds.
const SPECS: &[&str] = &[
    "alphabeta:depth=2",
    "alphabeta:depth=2,eval=tuned,score=moves",
    "mcts:iters=300",
    "mcts:iters=300,score=moves,a=0.4,k=2",
    "mcts:iters=300,preset=strong",
    "mcts:iters=60,c=0.7,rave=300,fpu=0.6,bias=2,eval=rich,playout=12,final=wins",
    "mcts:iters=50,policy=mast,epsilon=0.2,reply=lgrf,pattern=on,decisive=on,solver=off",
    "mcts:iters=4,policy=eval,playout=6,reply=lgr,threads=2,reuse=off,max_nodes=3000",
    // The move list's order, which played every result committed before `order` existed.
    "mcts:iters=300,order=list",
    "mcts:iters=300,score=moves,a=0.4,k=2,order=list",
    "mcts:iters=300,preset=strong,order=list",
    "mcts:iters=60,c=0.7,rave=300,fpu=0.6,bias=2,eval=rich,playout=12,final=wins,order=list",
    "mcts:iters=50,policy=mast,epsilon=0.2,reply=lgrf,pattern=on,decisive=on,solver=off,order=list",
    "mcts:iters=4,policy=eval,playout=6,reply=lgr,threads=2,reuse=off,max_nodes=3000,order=list",
];

/// Seeded positions a game: a random start, then `2 * index` random plies.
const POSITIONS: u64 = 3;

struct Searches;

impl GameVisitor for Searches {
    type Output = String;
    fn visit<G: Game + Features>(self, start: G) -> String {
        let mut out = String::new();
        for index in 0..POSITIONS {
            let mut rng = seeded_rng(28, index);
            let mut state = start.clone();
            state.randomize_start(&mut rng);
            let mut moves = Vec::new();
            for _ in 0..2 * index {
                match state.random_move(&mut rng, &mut moves) {
                    Some(mv) if state.outcome().is_none() => state.play_unchecked(mv),
                    _ => break,
                }
            }
            if state.outcome().is_some() {
                continue;
            }
            for spec in SPECS {
                let mut agent = AgentSpec::parse(spec)
                    .unwrap()
                    .build(&state, 1000 + index)
                    .unwrap();
                // Two decisions a position: the second, after the agent's move and the
                // first legal reply, starts from the tree the first left (reuse).
                let mut at = state.clone();
                for turn in 0..2 {
                    if at.outcome().is_some() {
                        break;
                    }
                    let d = agent.choose(&at);
                    let value = d.stats.value.map_or("-".into(), |v| format!("{v:.4}"));
                    writeln!(
                        out,
                        "{} {index}.{turn} {spec}: {} value {value} depth {} nodes {} iterations {}",
                        start.spec(),
                        at.move_text(d.mv),
                        d.stats.depth,
                        d.stats.nodes,
                        d.stats.iterations
                    )
                    .unwrap();
                    at.play_unchecked(d.mv);
                    at.legal_moves(&mut moves);
                    if let Some(&reply) = moves.first().filter(|_| at.outcome().is_none()) {
                        at.play_unchecked(reply);
                    }
                }
            }
        }
        out
    }
}

#[test]
fn every_games_searches_match_the_committed_snapshot() {
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/search"
    ));
    let bless = std::env::var_os("RINGSIDE_BLESS").is_some();
    for info in GAMES {
        let now = with_game(info.name, Searches).unwrap();
        assert!(
            now.lines().count() >= SPECS.len(),
            "{}: every spec is pinned",
            info.name
        );
        let path = dir.join(format!("{}.txt", info.name));
        if bless || !path.exists() {
            if !bless {
                eprintln!("{}: no snapshot yet; wrote {}", info.name, path.display());
            }
            std::fs::write(&path, now).unwrap();
            continue;
        }
        let pinned = std::fs::read_to_string(&path).unwrap();
        // Line by line, so a change is reported at the first line that shows it.
        let mut pinned = pinned.lines();
        for line in now.lines() {
            assert_eq!(
                pinned.next(),
                Some(line),
                "a search changed: committed results may no longer replay (see this file's docs)"
            );
        }
        assert_eq!(
            pinned.next(),
            None,
            "{}: a pinned search is gone",
            info.name
        );
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let game = name.trim_end_matches(".txt");
        assert!(
            GAMES.iter().any(|g| g.name == game),
            "snapshot {name} names no game of the registry"
        );
    }
}
