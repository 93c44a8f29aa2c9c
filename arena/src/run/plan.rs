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

use std::collections::BTreeMap;
use std::fmt;

use ringside_agents::AgentSpec;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::zobrist::splitmix64;
use ringside_engine::{Features, Game};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, Setting};

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

/// One shard of a run split by pairs: both games of a pair land in the same shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n` with `1 <= i <= n`.
    pub fn parse(text: &str) -> Result<Shard> {
        let err = || Error::setting(format!("'{text}' is not a shard i/n with 1 <= i <= n"));
        let (i, n) = text.split_once('/').ok_or_else(err)?;
        let index: u64 = i.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        Shard::new(index, count).ok_or_else(err)
    }

    /// Shard `index` of `count`, if `1 <= index <= count <= MAX_SHARDS`.
    #[must_use]
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether game `id` belongs to this shard.
    #[must_use]
    pub fn contains(&self, id: u64) -> bool {
        (id / 2) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How Elo is measured by the SPRT's hypotheses (fishtest's two models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: an expected score `1 / (1 + 10^(−elo/400))`.
    Logistic,
    /// Normalized Elo: the score's distance from ½ in standard deviations of a game, × 800/ln 10.
    Normalized,
}

/// An SPRT: H0 Elo = `elo0` against H1 Elo = `elo1`, with error rates `alpha` and `beta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: EloModel,
}

impl SprtConfig {
    /// Parses `elo0,elo1,alpha,beta[,logistic|normalized]` (logistic by default).
    pub fn parse(text: &str) -> Result<SprtConfig> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let shape = || {
            Error::about(
                Setting::Sprt,
                format_args!("'{text}' is not elo0,elo1,alpha,beta[,logistic|normalized]"),
            )
        };
        if !(4..=5).contains(&parts.len()) {
            return Err(shape());
        }
        let mut numbers = [0.0; 4];
        for (n, p) in numbers.iter_mut().zip(&parts) {
            *n = p.parse().map_err(|_| shape())?;
        }
        let model = match parts.get(4).copied() {
            None | Some("logistic") => EloModel::Logistic,
            Some("normalized") => EloModel::Normalized,
            Some(other) => {
                return Err(Error::about(
                    Setting::Sprt,
                    format_args!(": the Elo model must be logistic or normalized, not '{other}'"),
                ));
            }
        };
        let [elo0, elo1, alpha, beta] = numbers;
        SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        }
        .checked()
    }

    /// The same configuration if its numbers make sense: finite, `elo0 < elo1`, and
    /// `0 < alpha, beta < 0.5`.
    pub fn checked(self) -> Result<SprtConfig> {
        let numbers = [self.elo0, self.elo1, self.alpha, self.beta];
        if numbers.iter().any(|x| !x.is_finite()) {
            return Err(Error::about(
                Setting::Sprt,
                ": elo0, elo1, alpha and beta must be finite numbers",
            ));
        }
        let rate = |x: f64| x > 0.0 && x < 0.5;
        if self.elo0 >= self.elo1 || !rate(self.alpha) || !rate(self.beta) {
            return Err(Error::about(
                Setting::Sprt,
                ": need elo0 < elo1 and 0 < alpha, beta < 0.5",
            ));
        }
        Ok(self)
    }
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
    /// Stop the (single-pairing) run once this SPRT decides.
    pub sprt: Option<SprtConfig>,
    /// The part of the run this file holds.
    pub shard: Option<Shard>,
}

/// One agent as the sidecar stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAgent {
    /// As typed.
    pub label: String,
    /// The full spec.
    pub spec: String,
    /// The weights of its `weights=FILE`, as read when the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<BTreeMap<String, f64>>,
}

/// A plan as plain data: the `settings` of the sidecar. [`RunPlan::from_raw`] checks it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlan {
    /// The game spec.
    pub game: String,
    /// The agents.
    pub agents: Vec<RawAgent>,
    /// The pairings.
    pub pairings: Vec<(usize, usize)>,
    /// Games a pairing.
    pub games_per_pairing: u64,
    /// The seed.
    pub seed: u64,
    /// The ply cap.
    pub ply_cap: Option<u32>,
    /// Random opening plies.
    pub opening_plies: u32,
    /// Whether the opening stops before a rule's decision (the swap's offer). Absent in
    /// sidecars written before it existed (and in plans whose opening meets no such
    /// decision): the opening ran through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_stops: Option<bool>,
    /// The SPRT.
    pub sprt: Option<SprtConfig>,
    /// The shard.
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

/// Builds a plan from settings as typed: agent specs are read (weights files included) and
/// equal full specs become one agent, named by the first way it was typed.
#[derive(Debug, Clone)]
pub struct PlanBuilder {
    raw: RawPlan,
    problem: Option<Error>,
}

impl PlanBuilder {
    /// A plan for `game` with no pairings yet, 100 games a pairing, seed 1.
    #[must_use]
    pub fn new(game: &str) -> PlanBuilder {
        PlanBuilder {
            raw: RawPlan {
                game: game.to_string(),
                agents: Vec::new(),
                pairings: Vec::new(),
                games_per_pairing: 100,
                seed: 1,
                ply_cap: None,
                opening_plies: 0,
                opening_stops: Some(true),
                sprt: None,
                shard: None,
            },
            problem: None,
        }
    }

    fn agent(&mut self, typed: &str) -> Option<usize> {
        if self.problem.is_some() {
            return None;
        }
        let label = typed.trim().to_string();
        let spec = match AgentSpec::parse(&label) {
            Ok(spec) => spec,
            Err(e) => {
                self.problem = Some(Error::setting(format!("agent '{label}': {e}")));
                return None;
            }
        };
        // `eval=tuned` is recorded with its weights in full (the game's error, if any, is
        // the builder's to report).
        let spec = match AnyGame::parse(&self.raw.game) {
            Ok(game) => spell_out_weights(&game, &spec),
            Err(_) => spec,
        };
        let full = spec.to_string();
        let weights = spec.file_weights().cloned();
        let agents = &mut self.raw.agents;
        Some(
            match agents
                .iter()
                .position(|a| a.spec == full && a.weights == weights)
            {
                Some(i) => i,
                None => {
                    agents.push(RawAgent {
                        label,
                        spec: full,
                        weights,
                    });
                    agents.len() - 1
                }
            },
        )
    }

    /// Adds a pairing of two agents, as typed.
    #[must_use]
    pub fn pairing(mut self, a: &str, b: &str) -> PlanBuilder {
        if let (Some(a), Some(b)) = (self.agent(a), self.agent(b)) {
            self.raw.pairings.push((a, b));
        }
        self
    }

    /// Adds a round robin (every two once) or a gauntlet (the first against each other).
    #[must_use]
    pub fn tournament(mut self, agents: &[String], gauntlet: bool) -> PlanBuilder {
        let indices: Vec<Option<usize>> = agents.iter().map(|a| self.agent(a)).collect();
        if let Some(indices) = indices.into_iter().collect::<Option<Vec<usize>>>() {
            for (i, j) in schedule(indices.len(), gauntlet) {
                self.raw.pairings.push((indices[i], indices[j]));
            }
        }
        self
    }

    /// Games a pairing.
    #[must_use]
    pub fn games(mut self, games: u64) -> PlanBuilder {
        self.raw.games_per_pairing = games;
        self
    }

    /// The run's seed.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> PlanBuilder {
        self.raw.seed = seed;
        self
    }

    /// The ply cap.
    #[must_use]
    pub fn ply_cap(mut self, cap: Option<u32>) -> PlanBuilder {
        self.raw.ply_cap = cap;
        self
    }

    /// Random opening plies.
    #[must_use]
    pub fn opening_plies(mut self, plies: u32) -> PlanBuilder {
        self.raw.opening_plies = plies;
        self
    }

    /// Let the random opening run through a rule's decision (the swap's offer), as runs did
    /// before openings stopped there: for replaying those.
    #[must_use]
    pub fn opening_through_decisions(mut self, through: bool) -> PlanBuilder {
        self.raw.opening_stops = Some(!through);
        self
    }

    /// An SPRT that stops the run.
    #[must_use]
    pub fn sprt(mut self, sprt: Option<SprtConfig>) -> PlanBuilder {
        self.raw.sprt = sprt;
        self
    }

    /// Play only this shard.
    #[must_use]
    pub fn shard(mut self, shard: Option<Shard>) -> PlanBuilder {
        self.raw.shard = shard;
        self
    }

    /// The checked plan.
    pub fn build(self) -> Result<RunPlan> {
        if let Some(e) = self.problem {
            return Err(e);
        }
        RunPlan::from_raw(&self.raw)
    }
}

impl RunPlan {
    /// Checks a plan given as plain data: the one place settings are validated, whether they
    /// come from flags, an experiment file or a sidecar. Agents' weights come from the record,
    /// never from the disk.
    pub fn from_raw(raw: &RawPlan) -> Result<RunPlan> {
        let game = AnyGame::parse(&raw.game)?;
        check_games(raw.games_per_pairing)?;
        if raw.pairings.is_empty() {
            return Err(Error::setting("a run needs at least one pairing"));
        }
        if raw.pairings.len() > MAX_PAIRINGS {
            return Err(Error::setting(format!(
                "a run may have at most {MAX_PAIRINGS} pairings, not {}",
                raw.pairings.len()
            )));
        }
        if raw.opening_plies > MAX_OPENING_PLIES {
            return Err(Error::setting(format!(
                "opening plies must be at most {MAX_OPENING_PLIES}, not {}",
                raw.opening_plies
            )));
        }
        if raw.ply_cap == Some(0) {
            return Err(Error::setting("the ply cap must be at least 1"));
        }
        let mut agents = Vec::with_capacity(raw.agents.len());
        for a in &raw.agents {
            let recorded = |path: &str| {
                a.weights
                    .clone()
                    .ok_or_else(|| format!("no weights recorded for {path}"))
            };
            let spec = AgentSpec::parse_with_weights(&a.spec, &recorded)
                .map_err(|e| Error::setting(format!("agent '{}': {e}", a.label)))?;
            let full = spec.to_string();
            if full != a.spec {
                return Err(Error::setting(format!(
                    "agent '{}': recorded spec '{}' is not in full form ('{full}')",
                    a.label, a.spec
                )));
            }
            agents.push(PlannedAgent {
                label: a.label.clone(),
                spec,
                full,
            });
        }
        check_agents_build(&game, &agents)?;
        for &(a, b) in &raw.pairings {
            if a >= agents.len() || b >= agents.len() {
                return Err(Error::setting(format!(
                    "pairing ({a}, {b}) names an agent that does not exist (there are {})",
                    agents.len()
                )));
            }
        }
        if let Some(sprt) = raw.sprt {
            sprt.checked()?;
            if raw.pairings.len() != 1 {
                return Err(Error::about(
                    Setting::Sprt,
                    "needs exactly two agents (one pairing)",
                ));
            }
        }
        if let Some(s) = raw.shard
            && Shard::new(s.index, s.count).is_none()
        {
            return Err(Error::setting(format!("shard {s} is not a shard i/n")));
        }
        let opening_stops =
            raw.opening_stops == Some(true) && opening_meets_decision(&game, raw.opening_plies);
        Ok(RunPlan {
            game,
            agents,
            pairings: raw.pairings.clone(),
            games_per_pairing: raw.games_per_pairing,
            seed: raw.seed,
            ply_cap: raw.ply_cap,
            opening_plies: raw.opening_plies,
            opening_stops,
            sprt: raw.sprt,
            shard: raw.shard,
        })
    }

    /// The plan as plain data.
    #[must_use]
    pub fn to_raw(&self) -> RawPlan {
        RawPlan {
            game: self.game.spec(),
            agents: self
                .agents
                .iter()
                .map(|a| RawAgent {
                    label: a.label.clone(),
                    spec: a.full.clone(),
                    weights: a.spec.file_weights().cloned(),
                })
                .collect(),
            pairings: self.pairings.clone(),
            games_per_pairing: self.games_per_pairing,
            seed: self.seed,
            ply_cap: self.ply_cap,
            opening_plies: self.opening_plies,
            opening_stops: self.opening_stops.then_some(true),
            sprt: self.sprt,
            shard: self.shard,
        }
    }

    /// What differs between this plan and `other` in what decides games (labels aside);
    /// empty when they are the same run.
    #[must_use]
    pub fn differences(&self, other: &RunPlan) -> Vec<String> {
        let mut out = Vec::new();
        if self.game != other.game {
            out.push(format!("game {} vs {}", self.game, other.game));
        }
        let decided = |p: &RunPlan| {
            p.agents
                .iter()
                .map(|a| (a.full.clone(), a.spec.file_weights().cloned()))
                .collect::<Vec<_>>()
        };
        if decided(self) != decided(other) {
            let weights_only = self.agents.len() == other.agents.len()
                && self
                    .agents
                    .iter()
                    .zip(&other.agents)
                    .all(|(x, y)| x.full == y.full);
            out.push(if weights_only {
                "the content of a weights file changed".to_string()
            } else {
                format!("agents {} vs {}", self.agent_list(), other.agent_list())
            });
        }
        if self.pairings != other.pairings {
            out.push("pairings".to_string());
        }
        if self.games_per_pairing != other.games_per_pairing {
            out.push(format!(
                "games {} vs {}",
                self.games_per_pairing, other.games_per_pairing
            ));
        }
        if self.seed != other.seed {
            out.push(format!("seed {} vs {}", self.seed, other.seed));
        }
        if self.ply_cap != other.ply_cap {
            out.push(format!("ply cap {:?} vs {:?}", self.ply_cap, other.ply_cap));
        }
        if self.opening_plies != other.opening_plies {
            out.push(format!(
                "opening plies {} vs {}",
                self.opening_plies, other.opening_plies
            ));
        }
        if self.opening_stops != other.opening_stops {
            let text = |stops: bool| if stops { "stops" } else { "runs through" };
            out.push(format!(
                "the opening {} vs {} the swap's decision",
                text(self.opening_stops),
                text(other.opening_stops)
            ));
        }
        if self.sprt != other.sprt {
            out.push("sprt".to_string());
        }
        if self.shard != other.shard {
            let text = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
            out.push(format!(
                "shard {} vs {}",
                text(self.shard),
                text(other.shard)
            ));
        }
        out
    }

    fn agent_list(&self) -> String {
        let labels: Vec<&str> = self.agents.iter().map(|a| a.full.as_str()).collect();
        format!("[{}]", labels.join("; "))
    }

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
            seat: if id % 2 == 0 {
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

/// `spec` with the weights of an `eval=tuned` evaluation written out for `game`
/// ([`AgentSpec::spell_out_weights`]).
fn spell_out_weights(game: &AnyGame, spec: &AgentSpec) -> AgentSpec {
    struct Spell<'a>(&'a AgentSpec);
    impl GameVisitor for Spell<'_> {
        type Output = AgentSpec;
        fn visit<G: Game + Features>(self, start: G) -> AgentSpec {
            self.0.spell_out_weights(&start)
        }
    }
    game.visit(Spell(spec))
}

/// Checks that every agent can be built for the game (a weights file may name features the
/// game lacks). Host agents are checked when a run plays (`run::runner`), not here: a plan
/// that names one is read back by programs that never registered it.
fn check_agents_build(game: &AnyGame, agents: &[PlannedAgent]) -> Result<()> {
    struct Check<'a>(&'a [PlannedAgent]);
    impl GameVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            for a in self
                .0
                .iter()
                .filter(|a| !matches!(a.spec, AgentSpec::Host(_)))
            {
                a.spec
                    .build(&start, 0)
                    .map_err(|e| Error::setting(format!("agent '{}': {e}", a.label)))?;
            }
            Ok(())
        }
    }
    game.visit(Check(agents))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(games: u64) -> RunPlan {
        PlanBuilder::new("rin:size=16")
            .tournament(&["random".into(), "mcts".into(), "alphabeta".into()], false)
            .games(games)
            .build()
            .unwrap()
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
