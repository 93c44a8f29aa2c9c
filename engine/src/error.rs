//! Typed errors of the engine. The `arena` binary turns them into one-line messages.

use std::fmt;

/// A move that cannot be played in the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The move breaks a rule; `reason` says which.
    NotLegal {
        /// A short explanation, such as "point e5 is occupied".
        reason: String,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is already over"),
            IllegalMove::NotLegal { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Text that is not a move in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The text that failed to parse.
    pub text: String,
    /// What was expected instead.
    pub expected: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read '{}' as a move: {}",
            self.text, self.expected
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A position given as text that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// What is wrong with the text.
    pub reason: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position: {}", self.reason)
    }
}

impl std::error::Error for PositionError {}

/// A game name or game option that the registry does not know, or an option value out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpecError {
    /// What is wrong, naming the game or the option and what is allowed.
    pub reason: String,
}

impl fmt::Display for GameSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for GameSpecError {}
