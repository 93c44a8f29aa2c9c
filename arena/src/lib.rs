//! Ringside's arena as a library: tournaments between agents, run from one typed plan, into a
//! resumable games CSV or into memory, with statistics, summaries and figures. The `arena`
//! binary is a thin command line on top; tuning, design sweeps, outside engines and people at
//! the board call the same code in-process.
//!
//! ```
//! use ringside_arena::figures::summary::Tally;
//! use ringside_arena::plan::PlanBuilder;
//! use ringside_arena::run::pool::Silent;
//! use ringside_arena::run::runner::run_in_memory;
//!
//! let plan = PlanBuilder::new("rin:size=6")
//!     .pairing("mcts:iters=50", "random")
//!     .games(4)
//!     .seed(7)
//!     .build()
//!     .unwrap();
//! let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
//! assert_eq!(rows.len(), 4);
//! let tally = Tally::of_rows(&plan, &rows);
//! assert_eq!(tally.pairings()[0].all.n(), 4);
//! ```
//!
//! # The house
//!
//! A run flows one way: text at the edge (flags, experiment files, sidecars) becomes a checked
//! [`plan::RunPlan`] holding a typed game ([`ringside_engine::registry::AnyGame`]) and
//! typed agents; the runner plays it and writes each game as a record; records are read back
//! in one streaming pass (each row checked and replayed once) and folded into figures. Nothing
//! below the plan sees a game spec as text, and nothing holds the rows of a file.
//!
//! - [`plan`]: the vocabulary every layer speaks, importing nothing else of the crate.
//!   The checked [`plan::RunPlan`] and its one id → pairing, pair, seat mapping; `shard` and
//!   `sprt` (a run's split and stopping rule); `raw` (the plan as the sidecar stores it, and
//!   the one place settings are checked); `builder` (settings as typed); `sweep` (a grid of
//!   plans, one a cell); `published` (figures to set results beside).
//! - [`run`]: a run played. `experiment` (experiment files into plans and sweeps), `play` (one
//!   game, agent faults turned into lost games), `pool` (the worker threads under every run,
//!   and the [`run::pool::Observer`] that hears of it), `runner` (a run into a file or
//!   memory: resume, shards, the SPRT stop, Ctrl-C, opening a file in one pass), `verify`
//!   (reproducing recorded games), `conduct` (an experiment from start to figures: what
//!   `arena run` calls, reporting to a `Conductor`), `slurm` (the one reader of Slurm's
//!   environment), `design` (design studies).
//! - [`records`]: games on disk. `row` (one finished game, typed), `games_csv` (the CSV, its
//!   streaming reader and its writer), `validate` (a row replayed against the rules and the
//!   plan), `fault` (what does not hold of a row, by kind), `sink` (what a replay reports
//!   each position to: the metrics and the tuners implement it, so records know none of
//!   them), `sidecar` (the settings beside a CSV), `idset` (the finished ids as runs),
//!   `merge` (joining shards), `durable` (write-then-rename), `lock` (one writer an output).
//! - [`figures`]: what the games say. `stats` (Wilson, Elo, pentanomial, Bradley–Terry),
//!   `sprt` (fishtest's test), `summary` (the per-pairing fold, [`figures::summary::Tally`]),
//!   `metrics` (Ludii's game-design metrics and their bootstrap), `report` (Markdown and CSV),
//!   `study` (a sweep's metrics and figures), `plot` (SVG charts), `picture` (boards as SVG
//!   and HTML).
//! - [`protocols`]: programs and people. `gtp` (Ringside as a GTP engine), `people` (a person
//!   at the board).
//! - [`explore`]: one game at a time. `playouts` (random games counted), `position` (a game
//!   replayed and shown), `think` (one decision and its cost), `features` (a position's
//!   evaluation features as a table).
//! - [`serve`]: `arena serve`, a local web server that follows runs as they are written
//!   (`site`: the folders served and the keys that name files in them; `follow`: a growing
//!   games CSV read incrementally into the summary's folds; `api`: each view as JSON; `pages`).
//!   `run::live` is the run's side of it: games in progress written only while someone serves.
//! - [`tune`]: Texel tuning of evaluations (`probe`: the positions it fits, a sink of the
//!   reader's replays), networks trained on the same positions, and SPSA tuning of any
//!   numeric agent option.
//!
//! ## Where text becomes types
//!
//! A game spec is read by the engine's registry ([`ringside_engine::registry::AnyGame`]) and
//! an agent spec by the agents ([`ringside_agents::AgentSpec`]) where they enter: the binary's
//! flags (clap reads `--game`, `--sprt` and `--shard` into their types), [`run::experiment`]'s
//! files, [`plan::raw`] for a sidecar, and the row reader in [`records::games_csv`] (whose
//! faults are [`records::fault::RowFault`]s). Both read a spec's `key=value` items with one
//! reader ([`ringside_engine::spec_text`]), and every agent kind with options declares them in
//! one table (`ringside_agents::spec::{alphabeta, mcts, gtp, faulty}::OPTIONS`). Past those,
//! the plan, the runner, the figures and the tuners hold typed values; an error that reports
//! the engine's or the agents' keeps it ([`error::Cause`]).
//!
//! ## Layers
//!
//! Imports run one way, from top to bottom: the plan vocabulary (`plan`, with `error`) at
//! the bottom; then `records`; then `figures`; then `run`; and on top `tune`, `protocols`,
//! `explore` and `serve` (and the binary above all). A module imports its own layer or those below, and
//! no two modules import each other. `arena/tests/layers.rs` checks it: it fails, naming the
//! files, on an import of a layer above or on two modules that import each other.

pub mod error;
pub mod explore;
pub mod figures;
pub mod plan;
pub mod protocols;
pub mod records;
pub mod run;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tune;

pub use error::{Cause, Error, ErrorKind, Result, Setting};
