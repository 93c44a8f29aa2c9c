//! Alpha-beta's options, one row each ([`super::options`]); the search is documented in
//! [`crate::alphabeta`].

use std::time::Duration;

use super::options::{Bound, Fallback, OptionDef, Takes, with_defaults};
use super::{AlphaBetaSpec, EvalSpec, Scoring, evaluation, score_text};

impl Default for AlphaBetaSpec {
    /// Every option at its default: the table's ([`OPTIONS`]), set by
    /// [`with_defaults`] over a spec whose fields the table fills in.
    fn default() -> AlphaBetaSpec {
        with_defaults(
            "alphabeta",
            OPTIONS,
            AlphaBetaSpec {
                nodes: None,
                time: None,
                eval: EvalSpec::default(),
                // From the table:
                depth: 0,
                score: Scoring::Win,
                tt_bits: 0,
                random_ties: false,
                near: None,
                near_plies: None,
            },
        )
    }
}

/// Alpha-beta's options, in the order the canonical spec prints them.
pub const OPTIONS: &[OptionDef<AlphaBetaSpec>] = &[
    OptionDef {
        key: "depth",
        takes: Takes::Whole {
            min: 1,
            max: Some(64),
            unit: "",
        },
        default: Fallback::Value("3"),
        help: "the deepest iteration of iterative deepening",
        source: "",
        set: |s, v| s.depth = v.whole() as u32,
        print: |s| Some(format!("depth={}", s.depth)),
    },
    OptionDef {
        key: "nodes",
        takes: Takes::Whole {
            min: 0,
            max: None,
            unit: "",
        },
        default: Fallback::Unset(""),
        help: "stop after N nodes (the last finished iteration's move is played)",
        source: "",
        set: |s, v| s.nodes = Some(v.whole()),
        print: |s| s.nodes.map(|n| format!("nodes={n}")),
    },
    OptionDef {
        key: "time_ms",
        takes: Takes::Whole {
            min: 0,
            max: None,
            unit: " of milliseconds",
        },
        default: Fallback::Unset(""),
        help: "stop after this much time",
        source: "",
        set: |s, v| s.time = Some(Duration::from_millis(v.whole())),
        print: |s| s.time.map(|t| format!("time_ms={}", t.as_millis())),
    },
    evaluation::eval_row(
        "the evaluation at the horizon; weights=FILE.json and w.FEATURE=F set its weights; net: the game's shipped network, or net=FILE",
    ),
    evaluation::weights_row(),
    evaluation::net_row(),
    evaluation::net_id_row(),
    OptionDef {
        key: "score",
        takes: Takes::Choice(&["win", "moves"]),
        default: Fallback::Value("win"),
        help: "win/loss values, or win fast and lose slowly",
        source: "seed 004",
        set: |s, v| {
            s.score = if v.word() == "moves" {
                Scoring::Moves
            } else {
                Scoring::Win
            }
        },
        print: |s| Some(format!("score={}", score_text(s.score))),
    },
    OptionDef {
        key: "tt_bits",
        takes: Takes::Whole {
            min: 10,
            max: Some(26),
            unit: "",
        },
        default: Fallback::Value("16"),
        help: "log2 of the transposition table's entries",
        source: "",
        set: |s, v| s.tt_bits = v.whole() as u8,
        print: |s| Some(format!("tt_bits={}", s.tt_bits)),
    },
    OptionDef {
        key: "ties",
        takes: Takes::Choice(&["first", "random"]),
        default: Fallback::Value("first"),
        help: "among equally valued root moves play the first listed, or one drawn from the seed (distinct games in self-play without random openings)",
        source: "",
        set: |s, v| s.random_ties = v.word() == "random",
        print: |s| s.random_ties.then(|| "ties=random".to_string()),
    },
    OptionDef {
        key: "near",
        takes: Takes::Number(Bound::FromZero),
        default: Fallback::Unset(""),
        help: "play a move drawn from the seed among the root moves within this many evaluation units (a stone is 1) of the best at the depth searched, each tested by a null-window search within what is left of nodes=/time_ms= (where the budget ended the search, the best move is played): distinct self-play from the player's own choices (a forced win is never traded for less)",
        source: "",
        set: |s, v| s.near = Some(v.number()),
        print: |s| s.near.map(|m| format!("near={m}")),
    },
    OptionDef {
        key: "near_plies",
        takes: Takes::Whole {
            min: 1,
            max: None,
            unit: "",
        },
        default: Fallback::Unset(""),
        help: "apply near= only at the game's first N plies (unset: at every ply)",
        source: "",
        set: |s, v| s.near_plies = Some(v.whole() as u32),
        print: |s| s.near_plies.map(|n| format!("near_plies={n}")),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_tables_and_what_it_was_when_written_by_hand() {
        let by_hand = AlphaBetaSpec {
            depth: 3,
            nodes: None,
            time: None,
            eval: EvalSpec::default(),
            score: Scoring::Win,
            tt_bits: 16,
            random_ties: false,
            near: None,
            near_plies: None,
        };
        assert_eq!(AlphaBetaSpec::default(), by_hand);
    }
}
