//! Error rates against perfect play: how often a player's move changes the game-theoretic
//! value of the position it moved in (a won position thrown to a draw or a loss, a drawn one
//! to a loss), over the positions of games it played, each judged by the exact solver.
//!
//! Elo says how players compare with each other; this says how far one is from perfect.
//! Games are played by the measured agent on both sides (or against `--opponent`, whose moves
//! are not judged), after `opening_plies` uniformly random moves that are not judged either.
//! Every judged decision solves the position before the move and after it with one solver,
//! whose table is kept for the whole run; a position that does not solve within the budget
//! is counted as unsolved, never as right or wrong.

use std::collections::BTreeMap;

use rand::RngExt;
use ringside_agents::solve::{Budget, Solver};
use ringside_agents::{Agent, LabelledSpec};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, Player, seeded_rng};

use crate::error::{Error, Result};
use crate::figures::stats::wilson;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Measure<'a> {
    /// The game.
    pub game: &'a AnyGame,
    /// The player whose moves are judged.
    pub agent: &'a LabelledSpec,
    /// Its opponent; `None`: the agent plays itself and both sides' moves are judged.
    pub opponent: Option<&'a LabelledSpec>,
    /// Games to play.
    pub games: u32,
    /// Uniformly random moves before the players take over, not judged.
    pub opening_plies: u32,
    /// The run's seed: game `i` draws its opening and its agents' seeds from it.
    pub seed: u64,
    /// Each position's solve budget, and the table's memory.
    pub budget: Budget,
}

/// One judged decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judged {
    /// The game, from 0.
    pub game: u32,
    /// The ply of the decision, from 0 at the start.
    pub ply: u32,
    /// The position's value for the mover before the move (1, 0, −1); `None`: unsolved.
    pub before: Option<i32>,
    /// Its value for the same player after the move; `None`: unsolved.
    pub after: Option<i32>,
}

impl Judged {
    /// Whether both values are known.
    #[must_use]
    pub fn solved(&self) -> bool {
        self.before.is_some() && self.after.is_some()
    }

    /// Whether the move lowered the value (known on both sides).
    #[must_use]
    pub fn is_error(&self) -> bool {
        matches!((self.before, self.after), (Some(b), Some(a)) if a < b)
    }
}

/// Judged decisions counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Decisions judged.
    pub decisions: u64,
    /// Of them, those whose values before and after were both found.
    pub solved: u64,
    /// Solved decisions that lowered the value.
    pub errors: u64,
    /// Errors by kind: a win thrown to a draw, a win to a loss, a draw to a loss.
    pub win_to_draw: u64,
    /// See `win_to_draw`.
    pub win_to_loss: u64,
    /// See `win_to_draw`.
    pub draw_to_loss: u64,
    /// Solved decisions in won, drawn and lost positions (the chances to err: none in a lost
    /// one).
    pub in_won: u64,
    /// See `in_won`.
    pub in_drawn: u64,
    /// See `in_won`.
    pub in_lost: u64,
    /// (solved, errors) by ply.
    pub by_ply: BTreeMap<u32, (u64, u64)>,
}

impl Tally {
    /// Counts one judged decision.
    pub fn add(&mut self, j: &Judged) {
        self.decisions += 1;
        let (Some(before), Some(after)) = (j.before, j.after) else {
            return;
        };
        self.solved += 1;
        let at = self.by_ply.entry(j.ply).or_default();
        at.0 += 1;
        match before {
            1 => self.in_won += 1,
            0 => self.in_drawn += 1,
            _ => self.in_lost += 1,
        }
        if after < before {
            self.errors += 1;
            at.1 += 1;
            match (before, after) {
                (1, 0) => self.win_to_draw += 1,
                (1, _) => self.win_to_loss += 1,
                _ => self.draw_to_loss += 1,
            }
        }
    }

    /// Errors over solved decisions, with its Wilson 95% interval.
    #[must_use]
    pub fn rate(&self) -> (f64, f64, f64) {
        let n = self.solved as f64;
        let p = if n > 0.0 { self.errors as f64 / n } else { 0.0 };
        let (lo, hi) = wilson(p, n, 1.959_964);
        (p, lo, hi)
    }

    /// Errors over the solved decisions where one was possible (in a won or drawn position).
    #[must_use]
    pub fn rate_where_possible(&self) -> (f64, f64, f64) {
        let n = (self.in_won + self.in_drawn) as f64;
        let p = if n > 0.0 { self.errors as f64 / n } else { 0.0 };
        let (lo, hi) = wilson(p, n, 1.959_964);
        (p, lo, hi)
    }

    /// One line of `key=value` fields.
    #[must_use]
    pub fn line(&self) -> String {
        let (p, lo, hi) = self.rate();
        let (q, qlo, qhi) = self.rate_where_possible();
        format!(
            "decisions={} solved={} unsolved={} errors={} rate={p:.4} low={lo:.4} high={hi:.4} \
             rate_where_possible={q:.4} low={qlo:.4} high={qhi:.4} win_to_draw={} win_to_loss={} \
             draw_to_loss={} in_won={} in_drawn={} in_lost={}",
            self.decisions,
            self.solved,
            self.decisions - self.solved,
            self.errors,
            self.win_to_draw,
            self.win_to_loss,
            self.draw_to_loss,
            self.in_won,
            self.in_drawn,
            self.in_lost
        )
    }
}

/// The value of `state` for `player` (1, 0, −1) by `solver`; `None` when unsolved.
fn value_for<G: Game>(
    solver: &mut Solver,
    state: &G,
    player: Player,
    budget: &Budget,
) -> Option<i32> {
    match state.to_move() {
        None => state.outcome().map(|o| o.value_for(player)),
        Some(mover) => {
            let v = solver.solve(state, budget).value?.sign();
            Some(if mover == player { v } else { -v })
        }
    }
}

/// Plays the games of `m` and judges the measured agent's decisions, handing each to
/// `each` as it is judged.
///
/// # Errors
/// An agent spec that does not build for the game.
pub fn measure(m: &Measure<'_>, each: &mut dyn FnMut(&Judged)) -> Result<Tally> {
    struct Run<'a, 'b> {
        m: &'a Measure<'a>,
        each: &'b mut dyn FnMut(&Judged),
    }
    impl GameVisitor for Run<'_, '_> {
        type Output = Result<Tally>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let m = self.m;
            let budget = Budget {
                exact: false,
                ..m.budget
            };
            let mut solver = Solver::new(m.budget.memory);
            let mut tally = Tally::default();
            let mut moves = Vec::new();
            for game in 0..m.games {
                let game_seed = ringside_engine::zobrist::splitmix64(m.seed ^ u64::from(game));
                let mut rng = seeded_rng(game_seed, 0xE770);
                let mut state = start.clone();
                state.randomize_start(&mut rng);
                for _ in 0..m.opening_plies {
                    state.legal_moves(&mut moves);
                    if moves.is_empty() || state.rule_decision() {
                        break;
                    }
                    state.play(moves[rng.random_range(0..moves.len())]);
                }
                let build = |spec: &LabelledSpec, role: u64| {
                    spec.spec
                        .build(&start, seeded_rng(game_seed, role).random())
                        .map_err(|e| Error::agent(&spec.label, e))
                };
                // Seat 0 plays the first colour to move after the opening.
                let mut judged_seat = build(m.agent, 1)?;
                let mut other_seat = match m.opponent {
                    Some(o) => Some(build(o, 2)?),
                    None => None,
                };
                let first = state.to_move();
                while let Some(mover) = state.to_move() {
                    let judged = m.opponent.is_none() || Some(mover) == first;
                    let agent = if judged {
                        &mut judged_seat
                    } else {
                        other_seat
                            .as_mut()
                            .expect("an opponent when a side is not judged")
                    };
                    if !judged {
                        let d = agent.choose(&state);
                        state.play(d.mv);
                        continue;
                    }
                    let before = value_for(&mut solver, &state, mover, &budget);
                    let d = agent.choose(&state);
                    let ply = state.ply();
                    state.play(d.mv);
                    let after = before.and_then(|_| value_for(&mut solver, &state, mover, &budget));
                    let j = Judged {
                        game,
                        ply,
                        before,
                        after,
                    };
                    tally.add(&j);
                    (self.each)(&j);
                }
            }
            Ok(tally)
        }
    }
    m.game.visit(Run { m, each })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(ply: u32, before: Option<i32>, after: Option<i32>) -> Judged {
        Judged {
            game: 0,
            ply,
            before,
            after,
        }
    }

    #[test]
    fn a_hand_built_set_of_decisions_counts_as_worked_by_hand() {
        // Ten decisions: 6 solved in won positions (1 thrown to a draw, 1 to a loss), 2 in
        // drawn ones (1 thrown to a loss), 1 in a lost one, 1 unsolved.
        let set = [
            judged(0, Some(1), Some(1)),
            judged(1, Some(1), Some(1)),
            judged(2, Some(1), Some(0)),
            judged(3, Some(1), Some(-1)),
            judged(4, Some(1), Some(1)),
            judged(4, Some(1), Some(1)),
            judged(5, Some(0), Some(-1)),
            judged(6, Some(0), Some(0)),
            judged(7, Some(-1), Some(-1)),
            judged(8, None, None),
        ];
        let mut t = Tally::default();
        for j in &set {
            t.add(j);
        }
        assert_eq!((t.decisions, t.solved, t.errors), (10, 9, 3));
        assert_eq!((t.win_to_draw, t.win_to_loss, t.draw_to_loss), (1, 1, 1));
        assert_eq!((t.in_won, t.in_drawn, t.in_lost), (6, 2, 1));
        assert_eq!(t.by_ply[&4], (2, 0));
        assert_eq!(t.by_ply[&3], (1, 1));
        // 3/9 with Wilson's interval worked by hand: centre (1/3 + 1.92/9)/(1 + 3.84/9) =
        // 0.3834, half-width 1.96 sqrt(2/81 + 3.84/324)/1.4268 = 0.2624.
        let (p, lo, hi) = t.rate();
        assert!((p - 1.0 / 3.0).abs() < 1e-12);
        assert!((lo - 0.1210).abs() < 5e-4, "{lo}");
        assert!((hi - 0.6458).abs() < 5e-4, "{hi}");
        let (q, _, _) = t.rate_where_possible();
        assert!((q - 3.0 / 8.0).abs() < 1e-12);
    }

    #[test]
    fn the_perfect_player_makes_no_error_and_random_play_makes_some() {
        let game: AnyGame = "tic_tac_toe".parse().unwrap();
        let run = |agent: &str| {
            let agent = LabelledSpec::parse(agent).unwrap();
            let m = Measure {
                game: &game,
                agent: &agent,
                opponent: None,
                games: 30,
                opening_plies: 0,
                seed: 5,
                budget: Budget::default(),
            };
            let mut rows = Vec::new();
            let t = measure(&m, &mut |j| rows.push(*j)).unwrap();
            assert_eq!(rows.len() as u64, t.decisions);
            t
        };
        let perfect = run("solver");
        assert_eq!(perfect.errors, 0);
        assert_eq!(perfect.solved, perfect.decisions);
        assert_eq!(
            perfect.in_won + perfect.in_lost,
            0,
            "perfect play stays drawn"
        );
        let random = run("random");
        assert!(random.errors > 10, "{}", random.line());
    }
}
