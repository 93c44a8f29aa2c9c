//! Programs and people: Ringside as a GTP engine, a person at the board.

pub mod gtp;
pub mod people;
