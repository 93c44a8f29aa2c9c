//! One decision of one agent in one position, with what it cost.

use ringside_agents::{Agent, AgentSpec, LabelledSpec};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::explore::position::play_moves;

/// What a decision chose and cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The move, in the game's notation.
    pub mv: String,
    /// The agent's figures for the decision.
    pub stats: ringside_agents::SearchStats,
}

/// Lets the agent `agent` (seeded `seed`) choose a move after `moves` from the start of
/// `game`.
pub fn think(game: &AnyGame, agent: &LabelledSpec, moves: &str, seed: u64) -> Result<Thought> {
    struct Think<'a> {
        spec: &'a AgentSpec,
        label: &'a str,
        moves: &'a str,
        seed: u64,
    }
    impl GameVisitor for Think<'_> {
        type Output = Result<Thought>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let state = play_moves(start.clone(), self.moves)?;
            if state.outcome().is_some() {
                return Err(Error::setting(
                    "the game is over after these moves; nothing to choose",
                ));
            }
            crate::run::pool::no_person(self.label, self.spec)?;
            let mut agent = self
                .spec
                .build(&start, self.seed)
                .map_err(|e| Error::agent(self.label, e))?;
            // An engine outside the process can fail to start, crash or answer nonsense: one
            // line naming it, not a panic.
            let d = agent.try_choose(&state).map_err(|fault| {
                let text = fault.to_string();
                let first = text.lines().next().unwrap_or("failed");
                Error::setting(format!("agent '{}': {first}", self.label))
            })?;
            // An engine can name a move the rules refuse: said, not printed as its choice.
            state.clone().try_play(d.mv).map_err(|e| {
                Error::setting(format!(
                    "agent '{}': chose {}, which the rules refuse: {e}",
                    self.label,
                    state.move_text(d.mv)
                ))
            })?;
            Ok(Thought {
                mv: state.move_text(d.mv),
                stats: d.stats,
            })
        }
    }
    game.visit(Think {
        spec: &agent.spec,
        label: &agent.label,
        moves,
        seed,
    })
}
