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
}

/// An error of the arena library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// One line for people.
    pub message: String,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
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
