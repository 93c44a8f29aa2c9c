//! Ringside's rules engines behind one [`Game`] trait.
//!
//! Each game lives in its own folder under `games/` with its rules document and tests. The
//! [`registry`] picks a game by name and hands it to generic code; [`conformance`] is the
//! suite every game's tests run.
//!
//! ```
//! use ringside_engine::{Game, Outcome, games::rin::Rin, random_playout, seeded_rng};
//!
//! let mut rin = Rin::new(8).unwrap();
//! let mv = rin.parse_move("d4").unwrap();
//! rin.play(mv);
//! assert_eq!(rin.move_text(mv), "d4");
//!
//! let mut rng = seeded_rng(1, 0);
//! let outcome = random_playout(&mut rin, &mut rng, &mut Vec::new(), u32::MAX);
//! assert!(matches!(outcome, Some(Outcome::Win(_)) | Some(Outcome::Draw)));
//! assert!(rin.to_move().is_none());
//! ```

pub mod bitboard;
pub mod conformance;
pub mod error;
pub mod features;
mod game;
pub mod games;
pub mod grid;
pub mod hex;
pub mod options;
pub mod registry;
pub mod shapes;
pub mod spec_text;
pub mod square;
pub mod zobrist;

pub use error::{GameSpecError, IllegalMove, ParseMoveError, PositionError, SpecErrorKind};
pub use features::{Feature, Features, GRID_PLANES, MAX_FEATURES, PermanentIn};
pub use game::{BoardSize, CellShape, Game, Outcome, Player, Stone, random_playout};

use rand::SeedableRng;

/// The random generator used everywhere in Ringside: PCG with 64-bit multiplier, 128-bit state.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// The generator for item `index` (a game, a playout, a pair) of a run seeded with `seed`.
///
/// Each item gets its own stream, so results do not depend on which thread plays which item
/// or in what order.
#[must_use]
pub fn seeded_rng(seed: u64, index: u64) -> GameRng {
    let a = zobrist::splitmix64(seed);
    let b = zobrist::splitmix64(a ^ zobrist::splitmix64(index.wrapping_add(0x5EED)));
    GameRng::from_seed(((u128::from(a) << 64) | u128::from(b)).to_le_bytes())
}
