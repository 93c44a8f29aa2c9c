//! Agent options declared once. Each option of an agent kind is one [`OptionDef`] row: its
//! key, what it takes (type and range), its default, a line of help, where the idea comes
//! from, and how it is stored in and printed from the typed spec. Parsing, checking,
//! printing, help text, rounding for tuners, the typed setter ([`super::AgentSpec::set`])
//! and the kind's `Default` ([`with_defaults`]) all read the same rows: a default is written
//! once, in its row.

use super::{SpecError, error};

/// How a whole number's range reads in messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Takes {
    /// A whole number from `min` to `max` (`None`: no upper bound other than the type's).
    /// `unit` follows "a whole number" in messages (" of milliseconds").
    Whole {
        /// Smallest value.
        min: u64,
        /// Largest value, if the option has one of its own.
        max: Option<u64>,
        /// Words after "a whole number" in messages.
        unit: &'static str,
    },
    /// A finite number within a bound.
    Number(Bound),
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Any text; help shows it as these words (`PROGRAM ARGS`).
    Text(&'static str),
    /// A 64-bit number in hexadecimal digits (a content id), read as a whole number.
    Hex,
}

/// The range of a number option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Any finite number.
    Finite,
    /// A finite number from 0 up.
    FromZero,
    /// A finite number above 0.
    AboveZero,
    /// From 0 to 1.
    Unit,
}

/// A value read for an option, checked against what it takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A whole number.
    Whole(u64),
    /// A number.
    Number(f64),
    /// One of the option's words.
    Word(&'static str),
    /// Text.
    Text(String),
}

impl Value {
    /// The whole number (0 for other values; rows only ask what their option takes).
    #[must_use]
    pub fn whole(&self) -> u64 {
        match *self {
            Value::Whole(n) => n,
            _ => 0,
        }
    }

    /// The number.
    #[must_use]
    pub fn number(&self) -> f64 {
        match *self {
            Value::Number(x) => x,
            Value::Whole(n) => n as f64,
            Value::Word(_) | Value::Text(_) => 0.0,
        }
    }

    /// The word.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match *self {
            Value::Word(w) => w,
            _ => "",
        }
    }

    /// The text (empty for other values).
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

/// What an option is when a spec does not name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// This value, written as a spec would give it: the kind's `Default` holds it.
    Value(&'static str),
    /// No value of its own: the option is unset or off unless given (help shows these words;
    /// empty: nothing).
    Unset(&'static str),
}

/// One option as the reference shows it: an [`OptionDef`]'s words, whatever its spec type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDoc {
    /// The key in the spec.
    pub key: &'static str,
    /// `key=shape (default)`, as `arena agents` lists it.
    pub usage: String,
    /// What it takes, in the words of messages ("a whole number from 1 to 64"); for text,
    /// its shape (`FILE.json`).
    pub takes: String,
    /// The default as help shows it (empty: unset or off unless given).
    pub default: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// Where the idea comes from (empty for plain settings).
    pub source: &'static str,
}

/// One option of an agent kind whose typed spec is `S`.
pub struct OptionDef<S> {
    /// The key in the spec.
    pub key: &'static str,
    /// What it takes.
    pub takes: Takes,
    /// What it is when not given.
    pub default: Fallback,
    /// One line of help.
    pub help: &'static str,
    /// Where the idea comes from (empty for plain settings).
    pub source: &'static str,
    /// Stores a checked value.
    pub set: fn(&mut S, Value),
    /// The `key=value` text the canonical spec prints, or `None` where it prints nothing
    /// (so specs of earlier runs, made before an option existed, print as they did).
    pub print: fn(&S) -> Option<String>,
}

impl<S> OptionDef<S> {
    /// What the option takes, in the words of messages ("a whole number from 1 to 64").
    #[must_use]
    pub fn what(&self) -> String {
        match self.takes {
            Takes::Whole {
                min,
                max: Some(max),
                unit,
            } => format!("a whole number{unit} from {min} to {max}"),
            Takes::Whole { unit, .. } => format!("a whole number{unit}"),
            Takes::Number(Bound::Unit) => "a number from 0 to 1".into(),
            Takes::Number(_) => "a number".into(),
            Takes::Choice(words) => words.join("|"),
            Takes::Text(_) => "text".into(),
            Takes::Hex => "16 hexadecimal digits".into(),
        }
    }

    /// `text` read as this option's value and checked; the error names agent `kind`.
    pub fn read(&self, kind: &str, text: &str) -> Result<Value, SpecError> {
        let key = self.key;
        let value = match self.takes {
            Takes::Choice(words) => words
                .iter()
                .copied()
                .find(|w| *w == text)
                .map(Value::Word)
                .ok_or_else(|| {
                    error(format!(
                        "{kind}: {key} must be one of {}, not '{text}'",
                        words.join("|")
                    ))
                })?,
            Takes::Whole { .. } => Value::Whole(text.parse().map_err(|_| {
                error(format!("{kind}: {key} takes {}, not '{text}'", self.what()))
            })?),
            Takes::Number(_) => Value::Number(text.parse().map_err(|_| {
                error(format!("{kind}: {key} takes {}, not '{text}'", self.what()))
            })?),
            Takes::Text(_) => Value::Text(text.to_string()),
            Takes::Hex => Value::Whole(u64::from_str_radix(text, 16).map_err(|_| {
                error(format!(
                    "{kind}: {key} must be {}, not '{text}'",
                    self.what()
                ))
            })?),
        };
        self.check(kind, value)
    }

    /// `value` if it lies in the option's range; the error names agent `kind`.
    pub fn check(&self, kind: &str, value: Value) -> Result<Value, SpecError> {
        let key = self.key;
        match (self.takes, &value) {
            (Takes::Whole { min, max, .. }, &Value::Whole(n)) => match max {
                Some(max) if !(min..=max).contains(&n) => Err(error(format!(
                    "{kind}: {key} must be from {min} to {max}, not {n}"
                ))),
                None if n < min => Err(error(format!("{kind}: {key} must be at least {min}"))),
                _ => Ok(value),
            },
            (Takes::Number(bound), &Value::Number(x)) => {
                let (fits, words) = match bound {
                    Bound::Finite => (x.is_finite(), "a finite number"),
                    Bound::FromZero => (x.is_finite() && x >= 0.0, "a finite number from 0 up"),
                    Bound::AboveZero => (x.is_finite() && x > 0.0, "a finite number above 0"),
                    Bound::Unit => ((0.0..=1.0).contains(&x), "from 0 to 1"),
                };
                if fits {
                    Ok(value)
                } else {
                    Err(error(format!("{kind}: {key} must be {words}, not {x}")))
                }
            }
            (Takes::Choice(_), Value::Word(_))
            | (Takes::Text(_), Value::Text(_))
            | (Takes::Hex, Value::Whole(_)) => Ok(value),
            _ => Err(error(format!("{kind}: {key} takes {}", self.what()))),
        }
    }

    /// Whether the option takes whole numbers (a tuner rounds its values).
    #[must_use]
    pub fn is_whole(&self) -> bool {
        matches!(self.takes, Takes::Whole { .. })
    }

    /// The option as help lists it: `key=N (default)`, `key=a|b (default)`, `key=F`.
    #[must_use]
    pub fn usage(&self) -> String {
        let shape = match self.takes {
            Takes::Whole { .. } => "N".to_string(),
            Takes::Number(_) => "F".to_string(),
            Takes::Choice(words) => words.join("|"),
            Takes::Text(shape) => shape.to_string(),
            Takes::Hex => "HEX".to_string(),
        };
        match self.default_text() {
            "" => format!("{}={shape}", self.key),
            default => format!("{}={shape} ({default})", self.key),
        }
    }

    /// The row as the reference shows it, without its typed setter and printer.
    #[must_use]
    pub fn doc(&self) -> OptionDoc {
        OptionDoc {
            key: self.key,
            usage: self.usage(),
            takes: match self.takes {
                Takes::Text(shape) => shape.to_string(),
                _ => self.what(),
            },
            default: self.default_text(),
            help: self.help,
            source: self.source,
        }
    }

    /// The default as help shows it (empty: unset or off unless given, nothing to say).
    #[must_use]
    pub fn default_text(&self) -> &'static str {
        match self.default {
            Fallback::Value(text) | Fallback::Unset(text) => text,
        }
    }
}

/// `base` with every option that has a default value ([`Fallback::Value`]) set to it, read
/// and stored as a spec's `key=value` would be: how a kind's `Default` is made, so that its
/// defaults are the table's. `kind` names the agent in the message of a default that does not
/// read (a bug in the table, which the kinds' tests catch).
///
/// # Panics
/// When a default does not read as its option's value.
#[must_use]
pub fn with_defaults<S>(kind: &str, table: &[OptionDef<S>], mut base: S) -> S {
    for d in table {
        if let Fallback::Value(text) = d.default {
            let value = d
                .read(kind, text)
                .unwrap_or_else(|e| panic!("{kind}: the default of {} is no value: {e}", d.key));
            (d.set)(&mut base, value);
        }
    }
    base
}

/// A kind's options as the reference shows them, in table order.
#[must_use]
pub fn docs<S>(table: &[OptionDef<S>]) -> Vec<OptionDoc> {
    table.iter().map(OptionDef::doc).collect()
}

/// The canonical text of `spec`'s options: each printed option in table order.
#[must_use]
pub fn print<S>(table: &[OptionDef<S>], spec: &S) -> String {
    table
        .iter()
        .filter_map(|d| (d.print)(spec))
        .collect::<Vec<_>>()
        .join(",")
}
