//! The agents' integration tests, one module a topic, linked into one test binary (each
//! test file costs a full link of the library under `--release`). Run one topic with
//! `cargo test -p ringside-agents --test all strength::`.

mod budgets;
mod host;
mod leaf;
mod search;
mod snapshot;
mod strength;
mod tuned;
