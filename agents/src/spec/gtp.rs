//! The GTP agent's options, one row each ([`super::options`]); the protocol and the engine's
//! process are in [`crate::gtp`].

use std::time::Duration;

use ringside_engine::spec_text::quote_item;

use super::options::{Fallback, OptionDef, Takes, with_defaults};
use super::{SpecError, SpecErrorKind, error_of};
use crate::gtp::{Coords, GtpSpec, split_command};

/// A spec with every option at the table's default and no command yet: what the reader
/// fills in, and [`finish`] checks.
pub(super) fn blank() -> GtpSpec {
    with_defaults(
        "gtp",
        OPTIONS,
        GtpSpec {
            cmd: String::new(),
            argv: Vec::new(),
            name: None,
            setup: Vec::new(),
            // From the table:
            coords: Coords::Ringside,
            time: Duration::ZERO,
            margin: Duration::ZERO,
        },
    )
}

/// The GTP agent's options, in the order the canonical spec prints them.
pub const OPTIONS: &[OptionDef<GtpSpec>] = &[
    OptionDef {
        key: "cmd",
        takes: Takes::Text("PROGRAM ARGS"),
        default: Fallback::Unset("required; \"...\" around a value with commas"),
        help: "the engine's command line (single quotes group words)",
        source: "",
        set: |s, v| s.cmd = v.text().to_string(),
        print: |s| Some(quote_item(&format!("cmd={}", s.cmd))),
    },
    OptionDef {
        key: "name",
        takes: Takes::Text("LABEL"),
        default: Fallback::Unset(""),
        help: "the engine's label in tables",
        source: "",
        set: |s, v| s.name = Some(v.text().to_string()),
        print: |s| s.name.as_ref().map(|n| quote_item(&format!("name={n}"))),
    },
    OptionDef {
        key: "coords",
        takes: Takes::Choice(&Coords::NAMES),
        default: Fallback::Value("ringside"),
        help: "the notation the engine reads and writes moves in",
        source: "",
        set: |s, v| s.coords = Coords::from_name(v.word()).expect("one of the names"),
        print: |s| Some(format!("coords={}", s.coords.as_str())),
    },
    OptionDef {
        key: "time_ms",
        takes: Takes::Whole {
            min: 1,
            max: None,
            unit: " of milliseconds",
        },
        default: Fallback::Value("10000"),
        help: "the time the engine may take for a move (sent as time_settings)",
        source: "",
        set: |s, v| s.time = Duration::from_millis(v.whole()),
        print: |s| Some(format!("time_ms={}", s.time.as_millis())),
    },
    OptionDef {
        key: "margin_ms",
        takes: Takes::Whole {
            min: 0,
            max: None,
            unit: " of milliseconds",
        },
        default: Fallback::Value("1000"),
        help: "what the engine may take beyond time_ms before it forfeits",
        source: "",
        set: |s, v| s.margin = Duration::from_millis(v.whole()),
        print: |s| Some(format!("margin_ms={}", s.margin.as_millis())),
    },
    OptionDef {
        key: "setup",
        takes: Takes::Text("CMD;CMD"),
        default: Fallback::Unset(""),
        help: "commands sent after clear_board at each game's start",
        source: "",
        set: |s, v| {
            s.setup = v
                .text()
                .split(';')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect();
        },
        print: |s| {
            (!s.setup.is_empty()).then(|| quote_item(&format!("setup={}", s.setup.join(";"))))
        },
    },
];

/// Checks what the table cannot: the command is given and splits into words.
pub(super) fn finish(spec: &mut GtpSpec, given: bool) -> Result<(), SpecError> {
    if !given {
        return Err(error_of(
            SpecErrorKind::Missing,
            "gtp: cmd=PROGRAM is required".into(),
        ));
    }
    spec.argv = split_command(&spec.cmd)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentSpec;

    #[test]
    fn the_table_reads_and_prints_a_spec_as_the_hand_written_reader_did() {
        let text =
            r#"gtp:cmd="castro -f 1,2",name=c,coords=castro,time_ms=250,margin_ms=50,setup=a 1;b"#;
        let AgentSpec::Gtp(spec) = AgentSpec::parse(text).unwrap() else {
            panic!("a gtp spec")
        };
        let by_hand = GtpSpec {
            cmd: "castro -f 1,2".into(),
            argv: vec!["castro".into(), "-f".into(), "1,2".into()],
            name: Some("c".into()),
            coords: Coords::Castro,
            time: Duration::from_millis(250),
            margin: Duration::from_millis(50),
            setup: vec!["a 1".into(), "b".into()],
        };
        assert_eq!(spec, by_hand);
        assert_eq!(AgentSpec::Gtp(spec).to_string(), text);
        // The defaults, printed as they always were.
        assert_eq!(
            AgentSpec::parse("gtp:cmd=x").unwrap().to_string(),
            "gtp:cmd=x,coords=ringside,time_ms=10000,margin_ms=1000"
        );
    }

    #[test]
    fn a_tuner_sets_the_engines_time_through_the_table() {
        let spec = AgentSpec::parse("gtp:cmd=x,time_ms=250").unwrap();
        let longer = spec.set("time_ms", 500.0).unwrap();
        assert_eq!(
            longer.to_string(),
            "gtp:cmd=x,coords=ringside,time_ms=500,margin_ms=1000"
        );
        assert!(spec.set("time_ms", 0.0).is_err(), "below the table's range");
        assert!(spec.set("coords", 1.0).is_err(), "not a number");
    }
}
