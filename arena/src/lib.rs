//! Ringside's arena as a library: tournaments between agents, run from one typed plan, into a
//! resumable games CSV or into memory, with statistics and summaries. The `arena` binary is a
//! thin command line on top; tuning, design sweeps and external engines call the same code
//! in-process.
//!
//! ```
//! use ringside_arena::plan::PlanBuilder;
//! use ringside_arena::runner::{Silent, run_in_memory};
//! use ringside_arena::summary::pairings;
//!
//! let plan = PlanBuilder::new("rin:size=6")
//!     .pairing("mcts:iters=50", "random")
//!     .games(4)
//!     .seed(7)
//!     .build()
//!     .unwrap();
//! let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
//! assert_eq!(rows.len(), 4);
//! let summary = &pairings(&plan, &rows)[0];
//! assert_eq!(summary.all.n(), 4);
//! ```
//!
//! The parts, in the order a run uses them:
//! - [`plan`]: the checked run plan (game, agents, pairings, seeds, shards, SPRT) and the one
//!   mapping from a game's id to its pairing, pair and seat;
//! - [`experiment`]: experiment files, read into a plan; [`sweep`]: their grids of game and
//!   agent options, one plan a cell;
//! - [`play`]: one game, with agent faults turned into lost games;
//! - [`runner`]: the parallel run, resume, shards, the SPRT stop, a callback per game;
//! - [`row`], [`games_csv`], [`sidecar`], [`validate`], [`durable`]: the records, checked
//!   against the plan on every read and written so that a kill loses nothing;
//! - [`merge`], [`verify`]: joining shards, reproducing a run;
//! - [`stats`], [`sprt`], [`summary`], [`report`]: the figures and their rendering;
//! - [`metrics`], [`study`], [`plot`]: Ludii's game-design metrics with intervals, a sweep's
//!   study (metrics of every cell, figures, summary), SVG plots;
//! - [`playouts`], [`position`], [`think`]: random games, positions, one decision;
//! - [`tune`]: Texel tuning of evaluations and SPSA tuning of any numeric agent option.

pub mod durable;
pub mod error;
pub mod experiment;
pub mod games_csv;
pub mod gtp;
pub mod idset;
pub mod merge;
pub mod metrics;
pub mod people;
pub mod picture;
pub mod plan;
pub mod play;
pub mod playouts;
pub mod plot;
pub mod position;
pub mod report;
pub mod row;
pub mod runner;
pub mod sidecar;
pub mod sprt;
pub mod stats;
pub mod study;
pub mod summary;
pub mod sweep;
pub mod think;
pub mod tune;
pub mod validate;
pub mod verify;

pub use error::{Error, ErrorKind, Result};
