//! A game's declaration: its name, its options as data and how it builds from them.
//!
//! Each game declares itself once, in its own folder, by implementing [`Registered`]: a
//! [`GameInfo`] (name, one line about it, each option's name, kind, default and help) and
//! [`Registered::from_options`], which reads the options through [`Options`]. The registry
//! lists the declared types in one line each; `arena games`, the agents, Python (and its
//! OpenSpiel adapter), GTP and the reports read the same data.
//!
//! This module imports nothing above the [`Game`] trait, so every game may use it.

use crate::error::{GameSpecError, SpecErrorKind};
use crate::{Features, Game};

/// The kind of value an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number from `min` to `max`. The game may refuse values inside the range too
    /// (Rin's odd sizes, an offset past the side); its constructor says why.
    Int {
        /// The smallest value.
        min: usize,
        /// The largest value.
        max: usize,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A cell in the game's notation.
    Cell,
}

/// One option of a game, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOption {
    /// Its key in a spec (`size`).
    pub name: &'static str,
    /// The values it takes.
    pub kind: OptionKind,
    /// The default as a spec writes it; `None` for an option without one (a named cell,
    /// given with its partner or not at all).
    pub default: Option<&'static str>,
    /// What it sets, in a few words.
    pub help: &'static str,
}

impl GameOption {
    /// `key=values (default)`, as `arena games` prints it: `size=3..19 (11)`.
    #[must_use]
    pub fn synopsis(&self) -> String {
        let values = match self.kind {
            OptionKind::Int { min, max } => format!("{min}..{max}"),
            OptionKind::Choice(words) => words.join("|"),
            OptionKind::Cell => "CELL".to_string(),
        };
        match self.default {
            Some(d) => format!("{}={values} ({d})", self.name),
            None => format!("{}={values}", self.name),
        }
    }
}

/// The swap rule (the pie rule) as Havannah and Hex declare it: OpenSpiel's `swap`, off by
/// default.
pub const SWAP: GameOption = GameOption {
    name: "swap",
    kind: OptionKind::Choice(&["off", "on"]),
    default: Some("off"),
    help: "the swap rule (OpenSpiel's swap)",
};

/// A game as the registry lists it: its name, a line about it and its options.
#[derive(Debug, Clone, Copy)]
pub struct GameInfo {
    /// Registry name (`hex`).
    pub name: &'static str,
    /// One line about the game.
    pub about: &'static str,
    /// Its options, in the order specs write them.
    pub options: &'static [GameOption],
}

impl GameInfo {
    /// The options in one line, `key=values (default)` each, comma-separated; empty for a
    /// game without options.
    #[must_use]
    pub fn options_text(&self) -> String {
        self.options
            .iter()
            .map(GameOption::synopsis)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The option called `name`.
    #[must_use]
    pub fn option(&self, name: &str) -> Option<&'static GameOption> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The canonical spec of the game whose options have the values `values` (key, value as
    /// a spec writes it): the name, then `:` and each option whose value differs from its
    /// declared default, in the declared order (`mnk:m=3,n=3,k=3`; `mnk` for the defaults).
    /// An option left out of `values` is left out of the spec. Written from the table, so a
    /// game's defaults are written once, in its [`GameInfo`], and `Game::spec` cannot drift
    /// from them:
    ///
    /// ```
    /// use ringside_engine::options::Registered;
    /// use ringside_engine::games::hex::Hex;
    ///
    /// assert_eq!(Hex::INFO.spec(&[("size", &11), ("swap", &"off")]), "hex");
    /// assert_eq!(Hex::INFO.spec(&[("swap", &"on"), ("size", &9)]), "hex:size=9,swap=on");
    /// ```
    ///
    /// # Panics
    /// In a debug build, when `values` names an option the game does not declare.
    #[must_use]
    pub fn spec(&self, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        debug_assert!(
            values.iter().all(|(key, _)| self.option(key).is_some()),
            "{}: a value for an undeclared option",
            self.name
        );
        let mut spec = self.name.to_string();
        let mut separator = ':';
        for option in self.options {
            let Some((_, value)) = values.iter().find(|(key, _)| *key == option.name) else {
                continue;
            };
            let value = value.to_string();
            if option.default != Some(value.as_str()) {
                spec.push(separator);
                spec.push_str(option.name);
                spec.push('=');
                spec.push_str(&value);
                separator = ',';
            }
        }
        spec
    }
}

/// A game the registry can build: declared once, in the game's own folder.
pub trait Registered: Game + Features {
    /// The game's name, line and options.
    const INFO: GameInfo;

    /// The start position with the options of a spec, read through `options`. Options the
    /// game does not read are refused by the registry afterwards.
    fn from_options(options: &mut Options) -> Result<Self, GameSpecError>;
}

/// The options of one spec being read: each read consumes its key, and the registry refuses
/// whatever was not read. Defaults and ranges come from the game's [`GameInfo`].
#[derive(Debug)]
pub struct Options {
    info: &'static GameInfo,
    items: Vec<(String, String)>,
}

impl Options {
    /// The options `items` (key, value) of a spec of the game `info` declares.
    #[must_use]
    pub fn new(info: &'static GameInfo, items: Vec<(String, String)>) -> Options {
        Options { info, items }
    }

    fn declared(&self, key: &str) -> &'static GameOption {
        self.info
            .option(key)
            .unwrap_or_else(|| panic!("{}: option {key} is read but not declared", self.info.name))
    }

    fn take(&mut self, key: &str) -> Option<String> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        Some(self.items.remove(i).1)
    }

    fn bad(&self, reason: String) -> GameSpecError {
        GameSpecError::new(
            SpecErrorKind::BadValue,
            format!("{}: {reason}", self.info.name),
        )
    }

    /// The whole-number option `key`: its value, checked against its declared range, or its
    /// default.
    ///
    /// # Panics
    /// When the game reads an option it does not declare as a whole number with a default.
    pub fn int(&mut self, key: &str) -> Result<usize, GameSpecError> {
        let option = self.declared(key);
        let OptionKind::Int { min, max } = option.kind else {
            panic!("{}: option {key} is not a whole number", self.info.name)
        };
        let text = match self.take(key) {
            Some(v) => v,
            None => option
                .default
                .expect("a whole-number option read this way has a default")
                .into(),
        };
        let value: usize = text
            .parse()
            .map_err(|_| self.bad(format!("option {key} takes a whole number, not '{text}'")))?;
        if !(min..=max).contains(&value) {
            return Err(self.bad(format!(
                "{key} must be from {min} to {max} ({}), not {value}",
                option.help
            )));
        }
        Ok(value)
    }

    /// The choice option `key`: its value, one of its declared words, or its default.
    ///
    /// # Panics
    /// When the game reads an option it does not declare as a choice with a default.
    pub fn choice(&mut self, key: &str) -> Result<&'static str, GameSpecError> {
        let option = self.declared(key);
        let OptionKind::Choice(words) = option.kind else {
            panic!("{}: option {key} is not a choice", self.info.name)
        };
        let Some(value) = self.take(key) else {
            return Ok(option
                .default
                .expect("a choice read this way has a default"));
        };
        words.iter().copied().find(|w| *w == value).ok_or_else(|| {
            self.bad(format!(
                "option {key} must be one of {}, not '{value}'",
                words.join("|")
            ))
        })
    }

    /// The text of option `key` (a cell), if given.
    ///
    /// # Panics
    /// When the game reads an option it does not declare.
    pub fn text(&mut self, key: &str) -> Option<String> {
        self.declared(key);
        self.take(key)
    }

    /// Refuses any option left unread.
    pub fn finish(self) -> Result<(), GameSpecError> {
        match self.items.first() {
            None => Ok(()),
            Some((key, _)) => Err(GameSpecError::new(
                SpecErrorKind::UnknownOption,
                format!(
                    "{}: unknown option '{key}'; allowed: {}",
                    self.info.name,
                    match self.info.options_text() {
                        t if t.is_empty() => "none".to_string(),
                        t => t,
                    }
                ),
            )),
        }
    }
}
