//! The arena's end-to-end tests, one module a topic, linked into one test binary: each
//! integration test file costs a full link of the library (under `--release`), so
//! one binary keeps the README's test command quick. Run one topic with
//! `cargo test -p ringside-arena --test all gtp::`.
//!
//! The tests share one process: a scratch folder is named for its test
//! ([`common::scratch`]), and no test may rely on the working directory (one sets it to the
//! repository's root, where committed runs name their files).

mod common;

mod book;
mod cli;
mod fuzz;
mod gtp;
mod issue10;
mod layers;
mod locking;
mod net;
mod people;
mod report;
#[cfg(feature = "serve")]
mod serve;
mod slurm;
mod streaming;
mod study;
mod tournament;
mod tune;
mod verdicts;
mod zero;
