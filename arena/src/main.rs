//! `arena`: Ringside's command-line front end.
//!
//! Every failure the user can cause (bad flags, unknown games, illegal moves) is reported as
//! one line on standard error with exit code 2; nothing here panics on input.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod error;
mod experiment;
mod playouts;
mod record;
mod replay;
mod stats;
mod summary;
mod tournament;

use cli::{Cli, Command};

fn main() -> ExitCode {
    // One line instead of a trace: a panicking agent loses its game (the CSV records it) and
    // the run goes on; any other panic is a bug to report, not a stack to read.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("arena: panic: {message}");
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Playouts(args) => playouts::run(&args),
        Command::Match(args) => commands::run_match(&args),
        Command::Run(args) => commands::run_experiment(&args),
        Command::Summary(args) => commands::summary(&args),
        Command::Merge(args) => commands::merge(&args),
        Command::Think(args) => replay::think(&args),
        Command::Games => {
            cli::print_games();
            Ok(())
        }
        Command::Agents => {
            cli::print_agents();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
