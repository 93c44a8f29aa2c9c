//! The engine's integration tests, linked into one test binary (each test file costs a full
//! link of the library under `--release`). `no_allocation` stays a binary of its own: it installs
//! a counting global allocator. Run one topic with
//! `cargo test -p ringside-engine --test all openspiel_games::`.

mod havannah_openspiel;
mod openspiel_games;
mod tuned_weights;
