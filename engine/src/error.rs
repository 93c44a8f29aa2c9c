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
#[non_exhaustive]
pub struct GameSpecError {
    /// What kind of mistake it is: what tests and callers match.
    pub kind: SpecErrorKind,
    /// What is wrong, naming the game or the option and what is allowed, for people.
    pub reason: String,
}

/// The kinds of [`GameSpecError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// The spec names no game.
    NoGame,
    /// No game of that name.
    UnknownGame,
    /// An option that is not `key=value`.
    Malformed,
    /// An option given twice.
    Repeated,
    /// An option the game does not have.
    UnknownOption,
    /// A value of the wrong type or out of range, or options that do not fit together.
    BadValue,
    /// One of two options that go together given without the other.
    Incomplete,
    /// A board size asked of a game whose board has one size.
    FixedBoard,
}

impl GameSpecError {
    /// An error of `kind`.
    #[must_use]
    pub fn new(kind: SpecErrorKind, reason: impl Into<String>) -> GameSpecError {
        GameSpecError {
            kind,
            reason: reason.into(),
        }
    }

    /// A value out of range: what a game's constructor says of its options.
    #[must_use]
    pub fn bad_value(reason: impl Into<String>) -> GameSpecError {
        GameSpecError::new(SpecErrorKind::BadValue, reason)
    }
}

impl fmt::Display for GameSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for GameSpecError {}
