//! `arena`: Ringside's command-line front end.
//!
//! Every failure the user can cause (bad flags, unknown games, illegal moves) is reported as
//! one line on standard error with exit code 2; nothing here panics on input.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod error;
mod playouts;
mod replay;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Playouts(args) => playouts::run(&args),
        Command::Games => {
            cli::print_games();
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
