//! The command line, as clap derive types. Doc comments are the `--help` text.

use clap::{Args, Parser, Subcommand};
use ringside_engine::registry::GAMES;

/// Ringside's arena: replay games and measure random play (tournaments follow).
///
/// Games are named by a spec: the name, then optionally ':' and key=value options, for
/// example `rin` or `rin:size=8`. `arena games` lists them.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a list of moves from the start position and print the final position.
    ///
    /// An illegal or malformed move stops the replay with an error that names the move's
    /// number (1 for the first move) and the reason, and exit code 2.
    Replay(ReplayArgs),
    /// Play uniformly random games and count who wins.
    ///
    /// The last line reads `games=N first=.. second=.. draws=.. mean_plies=.. playouts_per_s=..`,
    /// where `first` counts wins of the player who moves first. Game i draws its moves from its
    /// own generator seeded by (seed, i), so the counts are the same for any thread count.
    Playouts(PlayoutsArgs),
    /// List the games and their options.
    Games,
}

/// Arguments of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game spec, for example `rin` or `rin:size=8`.
    #[arg(long)]
    pub game: String,
    /// The moves in the game's notation, separated by spaces (for Rin: `j9 b6 c10`).
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// Print one JSON object: game, plies, to_move, board (rows top to bottom), result, score.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena playouts`.
#[derive(Debug, Args)]
pub struct PlayoutsArgs {
    /// The game spec, for example `rin` or `rin:size=8`.
    #[arg(long)]
    pub game: String,
    /// How many games to play.
    #[arg(short = 'n', long = "games", default_value_t = 10_000)]
    pub games: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop a game after this many plies and count it as capped (games that never end).
    #[arg(long)]
    pub max_plies: Option<u32>,
}

/// Prints the registry's games for `arena games`.
pub fn print_games() {
    for g in GAMES {
        println!(
            "{:<12} {}\n{:<12} options: {}",
            g.name, g.about, "", g.options
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
