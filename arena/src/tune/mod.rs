//! Tuning agents: Texel's method on recorded positions ([`texel`]), networks trained on the
//! same positions ([`net`]), SPSA on games ([`spsa`]) and the strengths of move shapes fitted
//! to strong players' moves ([`shapes`]), with their records and figures
//! ([`crate::figures::plot`]).

pub mod net;
pub mod net_run;
pub mod probe;
pub mod shapes;
pub mod spsa;
pub mod spsa_run;
pub mod texel;
pub mod texel_run;
pub mod zero;
pub mod zero_run;
