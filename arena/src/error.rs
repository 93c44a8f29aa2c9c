//! The one error type of the binary: a message for the user, reported with exit code 2.

use std::fmt;

/// Something the user asked for that cannot be done, said in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<ringside_engine::GameSpecError> for CliError {
    fn from(e: ringside_engine::GameSpecError) -> Self {
        CliError(e.reason)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError(e.to_string())
    }
}
