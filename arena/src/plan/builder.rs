//! Settings as typed (flags, an experiment file, a test) into a checked [`RunPlan`].

use ringside_agents::LabelledSpec;
use ringside_engine::registry::AnyGame;

use crate::error::{Error, Result};
use crate::plan::raw::spell_out_weights;
use crate::plan::{RawAgent, RawPlan, RunPlan, Shard, SprtConfig, schedule};

/// An agent for a plan: text to read (an experiment file, a test) or an agent a front end
/// has read already ([`LabelledSpec`], as the command line's flags are).
pub trait PlanAgent {
    /// The agent read, or why its text does not read (naming the agent as typed).
    fn labelled(self) -> Result<LabelledSpec>;
}

impl PlanAgent for &str {
    fn labelled(self) -> Result<LabelledSpec> {
        LabelledSpec::parse(self).map_err(|e| Error::agent(self.trim(), e))
    }
}

impl PlanAgent for &&str {
    fn labelled(self) -> Result<LabelledSpec> {
        (*self).labelled()
    }
}

impl PlanAgent for &String {
    fn labelled(self) -> Result<LabelledSpec> {
        self.as_str().labelled()
    }
}

impl PlanAgent for &LabelledSpec {
    fn labelled(self) -> Result<LabelledSpec> {
        Ok(self.clone())
    }
}

/// Builds a plan from settings as typed: agent specs are read (weights files included) and
/// equal full specs become one agent, named by the first way it was typed.
#[derive(Debug, Clone)]
pub struct PlanBuilder {
    /// The game, read once (its error is the builder's to report).
    game: Result<AnyGame>,
    raw: RawPlan,
    problem: Option<Error>,
    /// Agents typed differently that read as one player ([`PlanBuilder::merged`]).
    merged: Vec<(String, String)>,
}

impl PlanBuilder {
    /// A plan for the game spelled `game` with no pairings yet, 100 games a pairing, seed 1
    /// (a spec that does not parse is [`PlanBuilder::build`]'s error).
    #[must_use]
    pub fn new(game: &str) -> PlanBuilder {
        let parsed = AnyGame::parse(game).map_err(Error::from);
        PlanBuilder::with(parsed, game.to_string())
    }

    /// A plan for `game` with no pairings yet, 100 games a pairing, seed 1.
    #[must_use]
    pub fn for_game(game: AnyGame) -> PlanBuilder {
        let spec = game.spec();
        PlanBuilder::with(Ok(game), spec)
    }

    fn with(game: Result<AnyGame>, spec: String) -> PlanBuilder {
        PlanBuilder {
            game,
            raw: RawPlan {
                game: spec,
                agents: Vec::new(),
                pairings: Vec::new(),
                games_per_pairing: 100,
                seed: 1,
                ply_cap: None,
                opening_plies: 0,
                opening_stops: Some(true),
                time_margin_ms: None,
                sprt: None,
                shard: None,
            },
            problem: None,
            merged: Vec::new(),
        }
    }

    fn agent(&mut self, typed: impl PlanAgent) -> Option<usize> {
        if self.problem.is_some() {
            return None;
        }
        let LabelledSpec { label, spec } = match typed.labelled() {
            Ok(agent) => agent,
            Err(e) => {
                self.problem = Some(e);
                return None;
            }
        };
        // `eval=tuned` is recorded with its weights in full (the game's error, if any, is
        // the builder's to report).
        let spec = match &self.game {
            Ok(game) => spell_out_weights(game, &spec),
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
                Some(i) => {
                    if agents[i].label != label {
                        self.merged.push((label, agents[i].label.clone()));
                    }
                    i
                }
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
    pub fn pairing(mut self, a: impl PlanAgent, b: impl PlanAgent) -> PlanBuilder {
        if let (Some(a), Some(b)) = (self.agent(a), self.agent(b)) {
            self.raw.pairings.push((a, b));
        }
        self
    }

    /// Adds a round robin (every two once) or a gauntlet (the first against each other).
    #[must_use]
    pub fn tournament<I>(mut self, agents: I, gauntlet: bool) -> PlanBuilder
    where
        I: IntoIterator,
        I::Item: PlanAgent,
    {
        let indices: Vec<Option<usize>> = agents.into_iter().map(|a| self.agent(a)).collect();
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

    /// How far past its budget an agent's move may run before it loses on time.
    #[must_use]
    pub fn time_margin_ms(mut self, margin: Option<u64>) -> PlanBuilder {
        self.raw.time_margin_ms = margin;
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

    /// Each agent typed differently from one before it that read as the same player (an
    /// option left at its default, or one that changes nothing beside the others): the agent
    /// as typed, then the label of the player it plays as. Such agents are one agent of the
    /// plan, so a gauntlet or tournament that listed them as rivals pairs a player with itself.
    #[must_use]
    pub fn merged(&self) -> &[(String, String)] {
        &self.merged
    }

    /// The checked plan.
    pub fn build(self) -> Result<RunPlan> {
        if let Some(e) = self.problem {
            return Err(e);
        }
        RunPlan::from_game_and_raw(self.game?, &self.raw)
    }
}
