//! `arena`: Ringside's command line, a thin layer over the `ringside_arena` library.
//!
//! Every failure the user can cause (bad flags, unknown games, illegal moves, corrupted
//! files) is reported as one line on standard error with exit code 2; nothing here panics on
//! input. Output to a closed pipe (`arena summary x.csv | head`) ends the program quietly.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;
use clap::error::ErrorKind as ClapKind;

mod cli;
mod commands;
mod output;
mod progress;
mod reference;
mod tuning;

use cli::{Cli, Command};
use ringside_arena::{Error, Setting};

/// Set by the first Ctrl-C: runs finish the games in play, write them and their summary, and
/// stop (exit code 130). A second Ctrl-C ends the program at once; what was written stays.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn on_interrupt() {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        std::process::exit(130);
    }
    eprintln!(
        "\ninterrupted: finishing the games in play and writing them; Ctrl-C again stops at once"
    );
}

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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e),
    };
    if matches!(cli.command, Command::Match(_) | Command::Run(_)) {
        // Without the handler Ctrl-C still stops the run, losing only the games in play.
        let _ = ctrlc::set_handler(on_interrupt);
    }
    let result = match cli.command {
        Command::Replay(args) => commands::replay(&args),
        Command::Playouts(args) => commands::playouts(&args),
        Command::Match(args) => commands::run_match(&args),
        Command::Run(args) => commands::run_experiment(&args),
        Command::Summary(args) => commands::summary(&args),
        Command::Verdicts(args) => commands::verdicts(&args),
        Command::Report(args) => commands::report(&args),
        Command::Merge(args) => commands::merge(&args),
        Command::SlurmShard(args) => commands::slurm_shard(&args),
        Command::Think(args) => commands::think(&args),
        Command::Solve(args) => commands::solve(&args),
        Command::Errors(args) => commands::errors(&args),
        Command::Balance(args) => commands::balance(&args),
        Command::Gtp(args) => commands::gtp(&args),
        Command::Play(args) => commands::play(&args),
        Command::Tune(cli::TuneCommand::Texel(args)) => tuning::tune_texel(&args),
        Command::Tune(cli::TuneCommand::Spsa(args)) => tuning::tune_spsa(&args),
        Command::Tune(cli::TuneCommand::Net(args)) => tuning::tune_net(&args),
        Command::Tune(cli::TuneCommand::Shapes(args)) => tuning::tune_shapes(&args),
        Command::Tune(cli::TuneCommand::Zero(args)) => tuning::tune_zero(&args),
        Command::Features(args) => commands::features(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => commands::serve(&args),
        Command::Games => output::print(&cli::games_text()),
        Command::Agents => output::print(&cli::agents_text()),
        Command::Reference(args) => reference::write(&args.out, &args.root),
    };
    match result {
        Ok(()) if INTERRUPTED.load(Ordering::SeqCst) => ExitCode::from(130),
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", as_typed(&e));
            ExitCode::from(2)
        }
    }
}

/// Help and version go out as clap writes them; an argument error becomes one line (its
/// first sentence and any detail lines, without the usage block) and exit code 2.
fn clap_error(e: &clap::Error) -> ExitCode {
    match e.kind() {
        ClapKind::DisplayHelp | ClapKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ClapKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            eprintln!(
                "error: {}; see 'arena --help'",
                one_line(&e.render().to_string())
            );
            ExitCode::from(2)
        }
    }
}

/// Joins the lines of a clap message that say what is wrong, dropping the usage block.
fn one_line(message: &str) -> String {
    message
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// The flag that sets a run setting.
fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Threads => "--threads",
        Setting::Games => "-n/--games",
        Setting::Sprt => "--sprt",
        Setting::Shard => "--shard",
        Setting::OutFolder => "--out",
        Setting::Param => "--param",
        Setting::Iterations => "--iterations",
        Setting::Pairs => "--pairs",
        Setting::VerifyGames => "--verify-games",
        Setting::Ply => "--ply",
        Setting::LeafDepth => "--leaf-depth",
        Setting::FixedWeight => "--fix",
        Setting::HiddenWidth => "--hidden",
        Setting::StepSize => "--rate",
        Setting::Batch => "--batch",
        Setting::Eval => "--eval",
        _ => "",
    }
}

/// The library's message with the setting it is about named as the user typed it: its flag.
fn as_typed(e: &Error) -> String {
    match e.setting.map(flag) {
        Some(flag) if !flag.is_empty() => e.naming_setting(flag),
        _ => e.message.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_arena::plan::SprtConfig;
    use ringside_arena::run::pool::thread_count;

    #[test]
    fn library_errors_name_settings_in_words_and_the_binary_names_the_flag() {
        let threads = thread_count(Some(0)).unwrap_err();
        assert_eq!(threads.setting, Some(Setting::Threads));
        assert!(!threads.message.contains("--"), "{}", threads.message);
        assert_eq!(as_typed(&threads), "--threads must be at least 1");
        let sprt = SprtConfig::parse("1,0,0.05,0.05").unwrap_err();
        assert!(!sprt.message.contains("--"), "{}", sprt.message);
        assert_eq!(
            as_typed(&sprt),
            "--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5"
        );
        // A message about no setting is printed as it is.
        let other = Error::setting("unknown game 'chess'");
        assert_eq!(as_typed(&other), "unknown game 'chess'");
    }
}
