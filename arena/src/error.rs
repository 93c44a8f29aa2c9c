//! The library's one error type: a kind to match on and a message that says, in one line,
//! what is wrong and where (file, line, column, setting). An error that reports the engine's
//! or the agents' own (a game or agent spec that does not read) keeps it as its [`Cause`],
//! with its kind. The binary prints the message and exits with code 2.

use std::fmt;
use std::path::Path;

/// What went wrong, for callers (and tests) that act on the kind rather than the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A setting is malformed or out of range (a game or agent spec, a number, a flag).
    Setting,
    /// An experiment file is malformed.
    Experiment,
    /// A file cannot be read or written.
    Io,
    /// A games CSV or a settings file does not hold what its run planned: a torn or
    /// malformed row, an id outside the run, a seed or winner that does not match, an
    /// illegal move.
    Corrupt,
    /// A file belongs to a run with other settings than the one asked for.
    OtherSettings,
    /// Shards or files that cannot be joined (duplicates, other settings).
    Merge,
    /// A re-played game differs from its recorded row.
    NotReproduced,
    /// Another process is writing the same output.
    Busy,
}

/// A run setting an error is about. The library names it in words at the start of the
/// message ([`Setting::name`]); a front end names it as its user typed it (the `arena` binary
/// puts the flag there), so the library never names a command-line flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// Worker threads.
    Threads,
    /// The number of games.
    Games,
    /// The SPRT's hypotheses and error rates.
    Sprt,
    /// The shard of a run.
    Shard,
    /// The folder a tuning run writes into.
    OutFolder,
    /// A tuned parameter.
    Param,
    /// SPSA's iterations.
    Iterations,
    /// SPSA's pairs an iteration.
    Pairs,
    /// The games of a tuning run's closing check.
    VerifyGames,
    /// The ply of a picture.
    Ply,
    /// The depth of a tuning run's leaf searches.
    LeafDepth,
    /// A weight a Texel fit holds fixed.
    FixedWeight,
    /// A net's hidden units a view.
    HiddenWidth,
    /// A training run's step size.
    StepSize,
    /// A training run's positions a batch.
    Batch,
    /// The evaluation a tuning run starts from.
    Eval,
}

impl Setting {
    /// How the library names the setting at the start of a message.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Setting::Threads => "threads",
            Setting::Games => "games",
            Setting::Sprt => "SPRT",
            Setting::Shard => "shard",
            Setting::OutFolder => "output folder",
            Setting::Param => "parameter",
            Setting::Iterations => "iterations",
            Setting::Pairs => "pairs",
            Setting::VerifyGames => "verification games",
            Setting::Ply => "ply",
            Setting::LeafDepth => "leaf search depth",
            Setting::FixedWeight => "fixed weight",
            Setting::HiddenWidth => "hidden width",
            Setting::StepSize => "step size",
            Setting::Batch => "batch",
            Setting::Eval => "evaluation",
        }
    }
}

/// The engine's or the agents' error an arena error reports, kept whole so that callers
/// (and tests) match its own kind.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cause {
    /// A game spec the engine does not read.
    Game(ringside_engine::GameSpecError),
    /// An agent spec the agents do not read or cannot build for the game.
    Agent(ringside_agents::SpecError),
}

impl Cause {
    /// The cause as a standard error.
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        match self {
            Cause::Game(e) => e,
            Cause::Agent(e) => e,
        }
    }
}

/// An error of the arena library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// One line for people.
    pub message: String,
    /// The run setting the message is about, named by [`Setting::name`] at its start.
    pub setting: Option<Setting>,
    /// The engine's or the agents' error behind this one, if any.
    pub cause: Option<Cause>,
    /// Where the message goes on after the setting's name (0 without a setting).
    named: usize,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            setting: None,
            cause: None,
            named: 0,
        }
    }

    /// A bad value of `setting`: `message` follows the setting's name (after a space, unless
    /// it starts with a colon).
    pub fn about(setting: Setting, message: impl std::fmt::Display) -> Error {
        let message = message.to_string();
        let gap = if message.starts_with(':') { "" } else { " " };
        Error {
            setting: Some(setting),
            named: setting.name().len(),
            ..Error::setting(format!("{}{gap}{message}", setting.name()))
        }
    }

    /// The agent typed as `label` whose spec does not read or build: a setting error that
    /// keeps the agents' own.
    pub fn agent(label: &str, e: ringside_agents::SpecError) -> Error {
        let message = format!("agent '{label}': {e}");
        Error {
            cause: Some(Cause::Agent(e)),
            ..Error::setting(message)
        }
    }

    /// The message with its setting named `name` instead of [`Setting::name`] (a front end
    /// names it as its user typed it: the `arena` binary, by its flag); the message as it is
    /// when it is about no setting.
    #[must_use]
    pub fn naming_setting(&self, name: &str) -> String {
        match self.setting {
            // The guard keeps a message changed after it was made (the field is public) whole.
            Some(s) if self.message.get(..self.named) == Some(s.name()) => {
                format!("{name}{}", &self.message[self.named..])
            }
            _ => self.message.clone(),
        }
    }

    /// A bad setting.
    pub fn setting(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Setting, message)
    }

    /// A file that does not hold what it should.
    pub fn corrupt(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Corrupt, message)
    }

    /// A failed read or write of `path`.
    pub fn io(what: &str, path: &Path, e: &std::io::Error) -> Error {
        Error::new(
            ErrorKind::Io,
            format!("cannot {what} {}: {e}", path.display()),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_ref().map(Cause::as_error)
    }
}

impl From<ringside_engine::GameSpecError> for Error {
    fn from(e: ringside_engine::GameSpecError) -> Self {
        let message = e.reason.clone();
        Error {
            cause: Some(Cause::Game(e)),
            ..Error::setting(message)
        }
    }
}

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{PlanBuilder, SprtConfig};
    use std::error::Error as _;

    #[test]
    fn a_game_or_agent_spec_error_keeps_the_engines_or_the_agents_kind() {
        let game = PlanBuilder::new("no_such_game")
            .pairing("random", "random")
            .build()
            .unwrap_err();
        assert_eq!(game.kind, ErrorKind::Setting);
        match &game.cause {
            Some(Cause::Game(e)) => {
                assert_eq!(e.kind, ringside_engine::SpecErrorKind::UnknownGame);
            }
            other => panic!("{other:?}"),
        }
        assert!(game.source().is_some());
        let agent = PlanBuilder::new("rin")
            .pairing("mcts:no_such_key=1", "random")
            .build()
            .unwrap_err();
        match &agent.cause {
            Some(Cause::Agent(e)) => {
                assert_eq!(e.kind, ringside_agents::SpecErrorKind::UnknownKey);
            }
            other => panic!("{other:?}"),
        }
        assert!(
            agent.message.starts_with("agent 'mcts:no_such_key=1': "),
            "{}",
            agent.message
        );
        let plain = Error::setting("no cause");
        assert!(plain.cause.is_none() && plain.source().is_none());
    }

    #[test]
    fn a_front_end_names_the_setting_its_own_way_without_reading_the_message() {
        let sprt = SprtConfig::parse("1,0,0.05,0.05").unwrap_err();
        assert_eq!(sprt.setting, Some(Setting::Sprt));
        assert_eq!(
            sprt.naming_setting("--sprt"),
            "--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5"
        );
        let games = Error::about(Setting::Games, "must be even");
        assert_eq!(games.message, "games must be even");
        assert_eq!(games.naming_setting("-n"), "-n must be even");
        let other = Error::setting("unknown game 'chess'");
        assert_eq!(other.naming_setting("--game"), "unknown game 'chess'");
    }
}
