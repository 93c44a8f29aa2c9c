//! One module a game, each with its rules document and its tests.

pub mod life;
pub mod rin;
