//! The plan as plain data (what the settings sidecar stores) and the one place it is checked
//! ([`RunPlan::from_raw`]), with the way back ([`RunPlan::to_raw`]) and the differences of two
//! plans in what decides their games.

use std::collections::BTreeMap;

use ringside_agents::{AgentSpec, WeightsError};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, Setting};
use crate::plan::{
    MAX_OPENING_PLIES, MAX_PAIRINGS, PlannedAgent, RunPlan, Shard, SprtConfig, check_games,
    opening_meets_decision,
};

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
    /// Milliseconds an agent with a time budget may run past it before losing on time; absent:
    /// no agent in the process loses on time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// The SPRT.
    pub sprt: Option<SprtConfig>,
    /// The shard.
    pub shard: Option<Shard>,
}

impl RunPlan {
    /// Checks a plan given as plain data: the one place settings are validated, whether they
    /// come from flags, an experiment file or a sidecar. Agents' weights come from the record,
    /// never from the disk.
    pub fn from_raw(raw: &RawPlan) -> Result<RunPlan> {
        RunPlan::from_game_and_raw(AnyGame::parse(&raw.game)?, raw)
    }

    /// A plan read back from a record (a sidecar) to read its games: checked as
    /// [`RunPlan::from_raw`] checks, but its agents are not built, so that reading a run's
    /// games (a summary, a merge, a replay, tuning from them) needs none of the files its
    /// agents name: a net or shapes file recorded by its content id may be elsewhere or gone.
    /// A plan to play is built from flags or an experiment file, and resuming compares it
    /// with this one.
    pub fn from_recorded(raw: &RawPlan) -> Result<RunPlan> {
        RunPlan::checked(AnyGame::parse(&raw.game)?, raw, false)
    }

    /// [`RunPlan::from_raw`] with the game already read from `raw.game`.
    pub(crate) fn from_game_and_raw(game: AnyGame, raw: &RawPlan) -> Result<RunPlan> {
        RunPlan::checked(game, raw, true)
    }

    /// The checks, with the agents built for the game when `build` says so.
    fn checked(game: AnyGame, raw: &RawPlan, build: bool) -> Result<RunPlan> {
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
            let recorded = |_: &str| a.weights.clone().ok_or(WeightsError::NotRecorded);
            let spec = AgentSpec::parse_with_weights(&a.spec, &recorded)
                .map_err(|e| Error::agent(&a.label, e))?;
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
        if build {
            check_agents_build(&game, &agents)?;
        }
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
            time_margin: raw.time_margin_ms.map(std::time::Duration::from_millis),
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
            time_margin_ms: self.time_margin.map(|m| m.as_millis() as u64),
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
        if self.time_margin != other.time_margin {
            let text = |m: Option<std::time::Duration>| {
                m.map_or("none".to_string(), |m| format!("{} ms", m.as_millis()))
            };
            out.push(format!(
                "time margin {} vs {}",
                text(self.time_margin),
                text(other.time_margin)
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
}

/// `spec` with the weights of an `eval=tuned` evaluation written out for `game`
/// ([`AgentSpec::spell_out_weights`]).
pub(crate) fn spell_out_weights(game: &AnyGame, spec: &AgentSpec) -> AgentSpec {
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
                    .map_err(|e| Error::agent(&a.label, e))?;
            }
            Ok(())
        }
    }
    game.visit(Check(agents))
}
