//! What the games say: statistics, the SPRT, the per-pairing fold, game-design metrics, reports, studies, plots and board pictures.

pub mod clarity;
pub mod cluster;
pub mod confseq;
pub mod family;
pub mod metrics;
pub mod picture;
pub mod plot;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod study;
pub mod summary;
