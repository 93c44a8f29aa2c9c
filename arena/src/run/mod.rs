//! A run played: experiment files, one game, the worker pool, the runner (files, resume, the SPRT), reproduction, and games in progress written for `arena serve` (`live`).

pub mod balance;
pub mod conduct;
pub mod design;
pub mod experiment;
pub mod live;
pub mod play;
pub mod pool;
pub mod runner;
pub mod slurm;
pub mod verify;
