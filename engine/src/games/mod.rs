//! One module a game, each with its rules document and its tests.

pub mod advance;
pub mod breakthrough;
pub mod connect_four;
pub mod grow_jump;
pub mod havannah;
pub mod hex;
pub mod hexxagon;
pub mod ikabegama;
pub mod life;
pub mod mnk;
pub mod othello;
pub mod rin;
pub mod tic_tac_toe;
