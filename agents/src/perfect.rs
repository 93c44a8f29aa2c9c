//! The perfect player: a move of the best exact value wherever the position solves within
//! its budget, else the default MCTS, saying which in every decision.
//!
//! Among the moves of the best value it plays the fastest win or the slowest loss (any
//! drawing move in a draw), the tie drawn from its seed. When the solve gives up it falls
//! back to MCTS (`fallback_iters` iterations) and its decision says so
//! ([`SearchStats::exact`] false), so a report can count how often play was perfect.

use ringside_engine::{Features, Game, GameRng};

use crate::solve::{Budget, Solver};
use crate::spec::SolverSpec;
use crate::{Agent, Decision, Mcts, SearchStats};

/// The perfect player (`solver:...`).
#[derive(Debug)]
pub struct PerfectAgent<G: Game> {
    budget: Budget,
    solver: Solver,
    rng: GameRng,
    fallback: Mcts<G>,
}

impl<G: Game> PerfectAgent<G> {
    /// The player of `spec`, drawing ties from `rng`, falling back to `fallback`.
    #[must_use]
    pub fn new(spec: &SolverSpec, rng: GameRng, fallback: Mcts<G>) -> PerfectAgent<G> {
        let budget = Budget {
            time: spec.time,
            nodes: spec.nodes,
            memory: (spec.memory_mb as usize) << 20,
            exact: true,
            method: crate::solve::Method::Auto,
        };
        PerfectAgent {
            solver: Solver::new(budget.memory),
            budget,
            rng,
            fallback,
        }
    }
}

impl<G: Game + Features> Agent<G> for PerfectAgent<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        use rand::RngExt;
        let s = self.solver.solve(state, &self.budget);
        match s.value {
            Some(value) if !s.best.is_empty() => Decision {
                mv: s.best[self.rng.random_range(0..s.best.len())],
                stats: SearchStats {
                    nodes: s.nodes,
                    iterations: 0,
                    depth: value.plies().filter(|_| s.distance_known).unwrap_or(0),
                    time: s.time,
                    value: Some(f64::from(value.sign())),
                    exact: true,
                },
            },
            _ => {
                let mut d = self.fallback.choose(state);
                d.stats.nodes += s.nodes;
                d.stats.time += s.time;
                d
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ringside_engine::games::connect_four::{ConnectFour, Shape};
    use ringside_engine::games::tic_tac_toe::TicTacToe;
    use ringside_engine::{Game, Player};

    use crate::solve::{Budget, Value, solve};
    use crate::{Agent, AgentSpec};

    /// The value of `state` for `player`, whoever is to move (a finished game by its outcome).
    fn value_for<G: Game>(state: &G, player: Player) -> i32 {
        match state.to_move() {
            None => state.outcome().unwrap().value_for(player),
            Some(mover) => {
                let small = Budget {
                    memory: 1 << 20,
                    ..Budget::default()
                };
                let v = solve(state, &small).value.unwrap().sign();
                if mover == player { v } else { -v }
            }
        }
    }

    /// Plays the perfect player against itself from the start and from random openings of
    /// `opening` plies, checking that no move changes the mover's value.
    fn never_throws_a_value<G: Game + ringside_engine::Features>(start: &G, games: u64) {
        use rand::RngExt;
        let spec = AgentSpec::parse("solver").unwrap();
        for seed in 0..games {
            let mut rng = ringside_engine::seeded_rng(seed, 9);
            let mut g = start.clone();
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(0..4) {
                g.legal_moves(&mut moves);
                let mut next = g.clone();
                next.play(moves[rng.random_range(0..moves.len())]);
                if next.outcome().is_none() {
                    g = next;
                }
            }
            let mut agent = spec.build(start, seed).unwrap();
            while let Some(mover) = g.to_move() {
                let before = value_for(&g, mover);
                let d = agent.choose(&g);
                assert!(d.stats.exact);
                g.play(d.mv);
                assert_eq!(
                    value_for(&g, mover),
                    before,
                    "{}",
                    g.board_rows().join("\n")
                );
            }
        }
    }

    #[test]
    fn the_perfect_player_never_changes_the_value_of_the_position() {
        never_throws_a_value(&TicTacToe::new(), 12);
        never_throws_a_value(&ConnectFour::with_shape(Shape::new(4, 5, 4).unwrap()), 6);
    }

    #[test]
    fn the_perfect_player_takes_the_fastest_win_and_draws_ties_from_its_seed() {
        // x a1 b2, o c1 b1: x wins at once with c3; a3 also threatens, so a slower win exists.
        let mut g = TicTacToe::new();
        for m in ["a1", "c1", "b2", "b1"] {
            g.play(g.parse_move(m).unwrap());
        }
        let spec = AgentSpec::parse("solver").unwrap();
        let d = spec.build(&g, 1).unwrap().choose(&g);
        assert_eq!(g.move_text(d.mv), "c3");
        assert_eq!((d.stats.depth, d.stats.value), (1, Some(1.0)));
        // Every opening draws: different seeds pick different ones, the same seed the same.
        let start = TicTacToe::new();
        let first: Vec<String> = (0..12)
            .map(|seed| start.move_text(spec.build(&start, seed).unwrap().choose(&start).mv))
            .collect();
        let again: Vec<String> = (0..12)
            .map(|seed| start.move_text(spec.build(&start, seed).unwrap().choose(&start).mv))
            .collect();
        assert_eq!(first, again);
        let distinct: std::collections::BTreeSet<&String> = first.iter().collect();
        assert!(distinct.len() > 3, "{first:?}");
        let value = solve(&start, &Budget::default()).value;
        assert_eq!(value, Some(Value::Draw));
    }

    #[test]
    fn out_of_budget_it_falls_back_to_mcts_and_says_so() {
        let spec = AgentSpec::parse("solver:nodes=100,fallback_iters=50").unwrap();
        let g = ConnectFour::new();
        let d = spec.build(&g, 3).unwrap().choose(&g);
        assert!(!d.stats.exact);
        assert_eq!(d.stats.iterations, 50);
        assert!(g.is_legal(d.mv));
    }

    #[test]
    fn the_spec_prints_in_full_and_parses_back() {
        let spec = AgentSpec::parse("solver:nodes=5000").unwrap();
        assert_eq!(
            spec.to_string(),
            "solver:nodes=5000,memory_mb=64,fallback_iters=1000"
        );
        assert_eq!(
            AgentSpec::parse("solver").unwrap().to_string(),
            "solver:nodes=10000000,memory_mb=64,fallback_iters=1000"
        );
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
        assert!(AgentSpec::parse("solver:memory_mb=0").is_err());
        assert!(AgentSpec::parse("solver:depth=3").is_err());
    }
}
