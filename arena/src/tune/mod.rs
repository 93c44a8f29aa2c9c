//! Tuning agents: Texel's method on recorded positions ([`texel`]) and SPSA on games
//! ([`spsa`]), with their records and figures ([`crate::figures::plot`]).

pub mod spsa;
pub mod spsa_run;
pub mod texel;
pub mod texel_run;
