//! The library's one error type: a kind to match on and a message that says, in one line,
//! what is wrong and where (file, line, column, setting). The binary prints the message and
//! exits with code 2.

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

/// An error of the arena library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// One line for people.
    pub message: String,
    /// The run setting the message is about, named by [`Setting::name`] at its start.
    pub setting: Option<Setting>,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            setting: None,
        }
    }

    /// A bad value of `setting`: `message` follows the setting's name (after a space, unless
    /// it starts with a colon).
    pub fn about(setting: Setting, message: impl std::fmt::Display) -> Error {
        let message = message.to_string();
        let gap = if message.starts_with(':') { "" } else { " " };
        Error {
            setting: Some(setting),
            ..Error::setting(format!("{}{gap}{message}", setting.name()))
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

impl std::error::Error for Error {}

impl From<ringside_engine::GameSpecError> for Error {
    fn from(e: ringside_engine::GameSpecError) -> Self {
        Error::setting(e.reason)
    }
}

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;
