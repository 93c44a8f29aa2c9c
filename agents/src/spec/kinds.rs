//! The agent kinds as help and the guide's reference list them: each kind's options, read from
//! its table ([`super::options`]), then the key families and presets read beside the table.
//! `arena agents`, the "allowed:" of an unknown key and the guide's agents page are all made
//! from [`agent_docs`], so none of them can drift from what the parser takes.

use super::options::{OptionDoc, docs};
use super::{alphabeta, faulty, gtp, mcts, preset_names, solver};

/// A family of keys read beside a kind's table (`w.FEATURE=F`), or a key that stands for
/// options (`preset=`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFamily {
    /// The keys as help lists them: `w.FEATURE=F`.
    pub usage: String,
    /// What they set.
    pub help: &'static str,
}

/// One agent kind as the reference shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindDoc {
    /// The kind's name in a spec (`mcts`).
    pub kind: &'static str,
    /// A line about the kind beyond its keys (empty: its keys say it).
    pub about: &'static str,
    /// Its table's options, in the order the canonical spec prints them.
    pub options: Vec<OptionDoc>,
    /// The keys read beside the table, after the options.
    pub families: Vec<KeyFamily>,
}

impl KindDoc {
    /// The kind's keys in one line, as `arena agents` prints them: each option's usage, then
    /// each family's, comma-separated (`no options` for none), then `: about` if there is one.
    #[must_use]
    pub fn keys_line(&self) -> String {
        let keys: Vec<&str> = self
            .options
            .iter()
            .map(|o| o.usage.as_str())
            .chain(self.families.iter().map(|f| f.usage.as_str()))
            .collect();
        let mut line = if keys.is_empty() {
            "no options".to_string()
        } else {
            keys.join(", ")
        };
        if !self.about.is_empty() {
            line.push_str(": ");
            line.push_str(self.about);
        }
        line
    }
}

/// `w.FEATURE=F`, which alpha-beta and MCTS read.
fn weight_family() -> KeyFamily {
    KeyFamily {
        usage: "w.FEATURE=F".into(),
        help: "one evaluation feature's weight, over the evaluation's (`arena features --game G` lists a game's features)",
    }
}

/// Every agent kind, in the order help lists them.
#[must_use]
pub fn agent_docs() -> Vec<KindDoc> {
    let kind = |kind, about, options, families| KindDoc {
        kind,
        about,
        options,
        families,
    };
    vec![
        kind("random", "", vec![], vec![]),
        kind(
            "human",
            "a person at `arena play` (named in saved games; not for matches)",
            vec![],
            vec![],
        ),
        kind(
            "alphabeta",
            "",
            docs(alphabeta::OPTIONS),
            vec![weight_family()],
        ),
        kind(
            "faulty",
            "one of them; random moves, then a planned fault, for testing harnesses",
            docs(faulty::OPTIONS),
            vec![],
        ),
        kind("gtp", "", docs(gtp::OPTIONS), vec![]),
        kind(
            "host",
            "an agent the program embedding Ringside registered (a Python policy in ringside.match)",
            vec![],
            vec![KeyFamily {
                usage: "name=NAME (required)".into(),
                help: "the name the program registered the agent under",
            }],
        ),
        kind(
            "mcts",
            "",
            docs(mcts::OPTIONS),
            vec![
                weight_family(),
                KeyFamily {
                    usage: "know.NAME=W".into(),
                    help: "one of the game's named knowledge terms in the tree, added to know's",
                },
                KeyFamily {
                    usage: "prob.NAME=W".into(),
                    help: "a named knowledge term read as a prior probability: its softmax share over the siblings, added to selection as W·ρ/√(n+1) (MoHex 2.0's prior)",
                },
                KeyFamily {
                    usage: "roll.NAME=W".into(),
                    help: "playout moves near the last one drawn with weight exp(W·T), one drawn from elsewhere standing for the rest (MoHex 2.0's playouts; with roll_plies=)",
                },
                KeyFamily {
                    usage: format!("preset={}", preset_names("|", "|")),
                    help: "the options a measured configuration stands for (listed below), expanded before the others; options given beside it override its",
                },
            ],
        ),
        kind(
            "solver",
            "perfect play where the position solves in budget (the fastest win, the slowest loss, ties from the seed), else MCTS",
            docs(solver::OPTIONS),
            vec![],
        ),
    ]
}

/// The kinds of agents and their keys, for `--help` and error messages: each kind's
/// [`KindDoc::keys_line`].
#[must_use]
pub fn agent_kinds() -> Vec<(&'static str, String)> {
    agent_docs()
        .into_iter()
        .map(|d| (d.kind, d.keys_line()))
        .collect()
}
