//! The perfect player's options, one row each ([`super::options`]); the agent is
//! [`crate::perfect`].

use std::time::Duration;

use super::SolverSpec;
use super::options::{Fallback, OptionDef, Takes, with_defaults};

impl Default for SolverSpec {
    /// Every option at its default: the table's ([`OPTIONS`]).
    fn default() -> SolverSpec {
        with_defaults(
            "solver",
            OPTIONS,
            SolverSpec {
                time: None,
                // From the table:
                nodes: None,
                memory_mb: 0,
                fallback_iters: 0,
            },
        )
    }
}

/// The perfect player's options, in the order the canonical spec prints them.
pub const OPTIONS: &[OptionDef<SolverSpec>] = &[
    OptionDef {
        key: "nodes",
        takes: Takes::Whole {
            min: 1,
            max: None,
            unit: "",
        },
        default: Fallback::Value("10000000"),
        help: "give up the exact solve of a position after N positions searched and fall back (seconds in Connect Four 7x6)",
        source: "",
        set: |s, v| s.nodes = Some(v.whole()),
        print: |s| s.nodes.map(|n| format!("nodes={n}")),
    },
    OptionDef {
        key: "time_ms",
        takes: Takes::Whole {
            min: 1,
            max: None,
            unit: " of milliseconds",
        },
        default: Fallback::Unset("no limit"),
        help: "give up the exact solve after this much time and fall back (not reproducible)",
        source: "",
        set: |s, v| s.time = Some(Duration::from_millis(v.whole())),
        print: |s| s.time.map(|t| format!("time_ms={}", t.as_millis())),
    },
    OptionDef {
        key: "memory_mb",
        takes: Takes::Whole {
            min: 1,
            max: Some(65_536),
            unit: " of megabytes",
        },
        default: Fallback::Value("64"),
        help: "the transposition table, kept from move to move",
        source: "",
        set: |s, v| s.memory_mb = v.whole() as u32,
        print: |s| Some(format!("memory_mb={}", s.memory_mb)),
    },
    OptionDef {
        key: "fallback_iters",
        takes: Takes::Whole {
            min: 1,
            max: None,
            unit: "",
        },
        default: Fallback::Value("1000"),
        help: "iterations of the default MCTS that moves when the solve runs out of budget",
        source: "",
        set: |s, v| s.fallback_iters = v.whole(),
        print: |s| Some(format!("fallback_iters={}", s.fallback_iters)),
    },
];
