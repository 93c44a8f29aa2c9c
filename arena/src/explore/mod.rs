//! One game at a time: random games counted, a game replayed and shown, one decision, a
//! position's features.

pub mod errors;
pub mod features;
pub mod playouts;
pub mod position;
pub mod solve;
pub mod think;
