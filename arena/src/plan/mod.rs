//! The run plan: everything that decides a run's games, built once from flags or an
//! experiment file and validated in one place ([`RunPlan::from_raw`]).
//!
//! A plan holds the game in canonical text (`rin` and `rin:size=16` are one game), the agents
//! with their resolved settings (a weights file's *content*, not only its path), the pairings,
//! and the one mapping from a game's id to its pairing, pair and seat ([`RunPlan::slot`]):
//!
//! ```text
//! id = (pairing × pairs_per_pairing + pair) × 2 + seat
//! seat 0: the pairing's first agent plays the colour that moves first; seat 1: exchanged
//! ```
//!
//! [`RawPlan`] is the same plan as plain data: what the settings sidecar stores.
//!
//! This is the crate's ground floor: it imports nothing else of the crate but [`crate::error`].
//! [`shard`] and [`sprt`] hold a run's split and its stopping rule, [`raw`] the plan as plain
//! data and the checks that turn it into a [`RunPlan`], [`builder`] the builder that takes
//! settings as typed, [`sweep`] a grid of plans and [`published`] the figures an experiment
//! compares with.

pub mod builder;
pub mod published;
pub mod raw;
pub mod shard;
pub mod sprt;
pub mod sweep;

/// A game in a settings file, as its spec (`#[serde(with = "crate::plan::game_spec")]`):
/// written in canonical form, read back through the engine's registry.
pub mod game_spec {
    use ringside_engine::registry::AnyGame;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the game's canonical spec.
    pub fn serialize<S: Serializer>(game: &AnyGame, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&game.spec())
    }

    /// Reads a spec, refusing one the engine does not know.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<AnyGame, D::Error> {
        let text = String::deserialize(d)?;
        AnyGame::parse(&text).map_err(serde::de::Error::custom)
    }
}

pub use builder::{PlanAgent, PlanBuilder};
pub use raw::{RawAgent, RawPlan};
pub use shard::Shard;
pub use sprt::{EloModel, SprtConfig};

use ringside_agents::AgentSpec;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::zobrist::splitmix64;
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};

/// Most games a pairing may have: ids stay far inside `u64`, and nothing is allocated per
/// planned game.
pub const MAX_GAMES_PER_PAIRING: u64 = 1_000_000_000_000;
/// Most pairings (agents in a round robin: about 1,400).
pub const MAX_PAIRINGS: usize = 1_000_000;
/// Most random opening plies.
pub const MAX_OPENING_PLIES: u32 = 100_000;
/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Which side of a colour-swapped pair a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The pairing's first agent plays the colour that moves first (even ids).
    AFirst,
    /// The seats are exchanged (odd ids).
    BFirst,
}

/// Where a game sits in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The pairing (index into [`RunPlan::pairings`]).
    pub pairing: usize,
    /// The colour-swapped pair within the pairing.
    pub pair: u64,
    /// Which game of the pair.
    pub seat: Seat,
}

/// An agent of the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedAgent {
    /// The spec as the user typed it: the short label summaries show.
    pub label: String,
    /// The checked spec, with any weights as they were read when the run started.
    pub spec: AgentSpec,
    /// The full spec, every option written out: what rows record.
    pub full: String,
}

/// A checked, canonical run plan.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPlan {
    /// The game, read once from its spec (it prints as its canonical spec).
    pub game: AnyGame,
    /// The agents; rows and pairings name them by index.
    pub agents: Vec<PlannedAgent>,
    /// The pairings as agent indices `(a, b)`: `a` plays the first colour in seat 0.
    pub pairings: Vec<(usize, usize)>,
    /// Games in each pairing: even, in colour-swapped pairs.
    pub games_per_pairing: u64,
    /// The run's seed.
    pub seed: u64,
    /// Games stop as draws after this many plies.
    pub ply_cap: Option<u32>,
    /// Random opening moves of each pair.
    pub opening_plies: u32,
    /// Whether the random opening stops before a decision the rules single out
    /// ([`ringside_engine::Game::rule_decision`]: the swap's offer), leaving it to the
    /// players. Always false for a game whose opening meets no such decision; false in runs
    /// recorded before the setting existed (their openings ran through the swap).
    pub opening_stops: bool,
    /// How far past its time budget a move of an agent with one may run before the agent
    /// loses on time (reason `time_forfeit`), as fastchess's `timemargin`; `None`: never.
    pub time_margin: Option<std::time::Duration>,
    /// Stop the (single-pairing) run once this SPRT decides.
    pub sprt: Option<SprtConfig>,
    /// The part of the run this file holds.
    pub shard: Option<Shard>,
}

/// Checks that games come in pairs and within [`MAX_GAMES_PER_PAIRING`].
pub fn check_games(games: u64) -> Result<()> {
    if games == 0 || games % 2 == 1 || games > MAX_GAMES_PER_PAIRING {
        return Err(Error::setting(format!(
            "the number of games must be even, from 2 to {MAX_GAMES_PER_PAIRING} (games come in colour-swapped pairs), not {games}"
        )));
    }
    Ok(())
}

/// Whether a random opening of `plies` plies in `game` can reach a decision the rules single
/// out ([`ringside_engine::Game::rule_decision`]). Followed along the line of first listed
/// moves: the swap's offer, the one such decision so far, comes after any first move.
#[must_use]
pub fn opening_meets_decision(game: &AnyGame, plies: u32) -> bool {
    struct Meets(u32);
    impl GameVisitor for Meets {
        type Output = bool;
        fn visit<G: Game + Features>(self, mut state: G) -> bool {
            let mut moves = Vec::new();
            for _ in 0..self.0 {
                if state.rule_decision() {
                    return true;
                }
                state.legal_moves(&mut moves);
                match moves.first() {
                    Some(&mv) if state.outcome().is_none() => state.play_unchecked(mv),
                    _ => return false,
                }
            }
            false
        }
    }
    game.visit(Meets(plies))
}

/// Round robin (every two agents once) or gauntlet (the first against each other).
#[must_use]
pub fn schedule(count: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..count {
        for j in i + 1..count {
            if !gauntlet || i == 0 {
                out.push((i, j));
            }
        }
    }
    out
}

impl RunPlan {
    /// Colour-swapped pairs in each pairing.
    #[must_use]
    pub fn pairs_per_pairing(&self) -> u64 {
        self.games_per_pairing / 2
    }

    /// Games in the whole run (all shards).
    #[must_use]
    pub fn total_games(&self) -> u64 {
        self.pairings.len() as u64 * self.games_per_pairing
    }

    /// Where game `id` sits, or `None` if the run has no such game.
    #[must_use]
    pub fn slot(&self, id: u64) -> Option<Slot> {
        if id >= self.total_games() {
            return None;
        }
        let pair_index = id / 2;
        Some(Slot {
            pairing: (pair_index / self.pairs_per_pairing()) as usize,
            pair: pair_index % self.pairs_per_pairing(),
            seat: if id.is_multiple_of(2) {
                Seat::AFirst
            } else {
                Seat::BFirst
            },
        })
    }

    /// The id of the game at `slot`.
    #[must_use]
    pub fn id(&self, slot: Slot) -> u64 {
        (slot.pairing as u64 * self.pairs_per_pairing() + slot.pair) * 2
            + u64::from(slot.seat == Seat::BFirst)
    }

    /// The seed of a pair: both its games draw their start and opening from it.
    #[must_use]
    pub fn pair_seed(&self, slot: Slot) -> u64 {
        let pair_index = slot.pairing as u64 * self.pairs_per_pairing() + slot.pair;
        splitmix64(self.seed ^ splitmix64(pair_index.wrapping_add(0x7061_6972)))
    }

    /// The agents of the first colour and the other at `slot`, as indices.
    #[must_use]
    pub fn seated_agents(&self, slot: Slot) -> (usize, usize) {
        let (a, b) = self.pairings[slot.pairing];
        match slot.seat {
            Seat::AFirst => (a, b),
            Seat::BFirst => (b, a),
        }
    }

    /// Whether game `id` belongs to this file's shard.
    #[must_use]
    pub fn in_shard(&self, id: u64) -> bool {
        self.shard.is_none_or(|s| s.contains(id))
    }

    /// Games of this file's shard.
    #[must_use]
    pub fn games_in_shard(&self) -> u64 {
        match self.shard {
            None => self.total_games(),
            Some(s) => {
                let pairs = self.total_games() / 2;
                let (whole, rest) = (pairs / s.count, pairs % s.count);
                2 * (whole + u64::from(s.index <= rest))
            }
        }
    }

    /// Whether any agent decides by the clock (its games do not reproduce exactly).
    #[must_use]
    pub fn uses_time(&self) -> bool {
        self.agents.iter().any(|a| a.spec.uses_time())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(games: u64) -> RunPlan {
        PlanBuilder::new("rin:size=16")
            .tournament(["random", "mcts", "alphabeta"], false)
            .games(games)
            .build()
            .unwrap()
    }

    #[test]
    fn agents_typed_apart_that_read_alike_are_one_agent_and_are_named() {
        // `c=1.4` is MCTS's default, so the second is the first player; the third is typed as
        // the first was and is no news; `random` is another player.
        let b = PlanBuilder::new("rin:size=6").tournament(
            [
                "mcts:iters=50",
                "mcts:iters=50,c=1.4",
                "mcts:iters=50",
                "random",
            ],
            true,
        );
        assert_eq!(
            b.merged(),
            [(
                "mcts:iters=50,c=1.4".to_string(),
                "mcts:iters=50".to_string()
            )]
        );
        let p = b.build().unwrap();
        assert_eq!(p.agents.len(), 2);
        assert_eq!(p.pairings, [(0, 0), (0, 0), (0, 1)]);
        let same = PlanBuilder::new("rin:size=6").pairing("random", "random");
        assert!(
            same.merged().is_empty(),
            "self-play typed as such is no news"
        );
    }

    #[test]
    fn ids_map_to_slots_and_back() {
        let p = plan(6);
        assert_eq!(p.game.to_string(), "rin", "rin:size=16 is rin");
        assert_eq!(p.total_games(), 18);
        for id in 0..p.total_games() {
            assert_eq!(p.id(p.slot(id).unwrap()), id);
        }
        assert_eq!(
            p.slot(7),
            Some(Slot {
                pairing: 1,
                pair: 0,
                seat: Seat::BFirst
            })
        );
        assert_eq!(p.slot(18), None);
        assert_eq!(p.seated_agents(p.slot(7).unwrap()), (2, 0));
    }

    #[test]
    fn shards_split_by_pairs_and_count_their_games() {
        let mut p = plan(6);
        let mut seen = 0;
        for i in 1..=4 {
            p.shard = Shard::new(i, 4);
            let ids: Vec<u64> = (0..p.total_games()).filter(|&id| p.in_shard(id)).collect();
            assert_eq!(ids.len() as u64, p.games_in_shard());
            assert!(ids.chunks(2).all(|c| c[0] / 2 == c[1] / 2));
            seen += ids.len();
        }
        assert_eq!(seen, 18);
    }

    #[test]
    fn the_same_agent_typed_two_ways_is_one_agent_labelled_as_first_typed() {
        let p = PlanBuilder::new("rin:size=6")
            .pairing("mcts", "mcts:iters=1000")
            .games(2)
            .build()
            .unwrap();
        assert_eq!(p.agents.len(), 1);
        assert_eq!(p.agents[0].label, "mcts");
        assert!(p.agents[0].full.starts_with("mcts:iters=1000,c=1.4"));
    }

    #[test]
    fn a_raw_plan_naming_a_missing_agent_is_refused() {
        let mut raw = plan(2).to_raw();
        raw.pairings.push((0, 7));
        let err = RunPlan::from_raw(&raw).unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::Setting);
        assert!(err.message.contains("does not exist"), "{err}");
    }

    #[test]
    fn sprt_settings_must_be_finite_and_ordered() {
        assert!(SprtConfig::parse("nan,5,0.05,0.05").is_err());
        assert!(SprtConfig::parse("0,inf,0.05,0.05").is_err());
        assert!(SprtConfig::parse("5,0,0.05,0.05").is_err());
        assert!(SprtConfig::parse("0,5,0.05,0.5").is_err());
        assert!(SprtConfig::parse("0,5,0.05,0.05,bayes").is_err());
        let s = SprtConfig::parse("0, 5, 0.05, 0.1, normalized").unwrap();
        assert_eq!((s.elo1, s.beta, s.model), (5.0, 0.1, EloModel::Normalized));
        assert_eq!(
            SprtConfig::parse("0,5,0.05,0.05").unwrap().model,
            EloModel::Logistic
        );
    }
}

#[cfg(test)]
mod opening_tests {
    use super::*;
    use crate::run::play::play_game;
    use ringside_engine::games::havannah::Havannah;

    fn openings(game: &str, through: bool) -> (RunPlan, Vec<u32>) {
        let plan = PlanBuilder::new(game)
            .pairing("random", "random")
            .games(8)
            .opening_plies(4)
            .opening_through_decisions(through)
            .build()
            .unwrap();
        let start = Havannah::new(4, game.contains("swap=on")).unwrap();
        let plies = (0..8)
            .map(|id| play_game(&start, &plan, id).opening_plies)
            .collect();
        (plan, plies)
    }

    #[test]
    fn a_random_opening_stops_before_the_swap_and_runs_through_it_when_told() {
        let (plan, plies) = openings("havannah:size=4,swap=on", false);
        assert!(plan.opening_stops);
        assert_eq!(plies, vec![1; 8], "the second player decides the swap");
        let (old, plies) = openings("havannah:size=4,swap=on", true);
        assert!(!old.opening_stops);
        assert_eq!(plies, vec![4; 8]);
        assert!(!plan.differences(&old).is_empty(), "other games, other run");
        // Without the swap nothing stops, and the plan reads as one recorded before the
        // setting existed: the same run.
        let (plan, plies) = openings("havannah:size=4", false);
        assert!(!plan.opening_stops);
        assert_eq!(plies, vec![4; 8]);
        assert_eq!(plan.to_raw().opening_stops, None);
        let (through, _) = openings("havannah:size=4", true);
        assert!(plan.differences(&through).is_empty());
    }

    #[test]
    fn a_sidecar_without_the_setting_replays_its_openings_through_the_swap() {
        let (plan, _) = openings("havannah:size=4,swap=on", false);
        let mut raw = plan.to_raw();
        assert_eq!(raw.opening_stops, Some(true));
        raw.opening_stops = None;
        assert!(!RunPlan::from_raw(&raw).unwrap().opening_stops);
    }
}
