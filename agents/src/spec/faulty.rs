//! The faulty agent's options, one row each ([`super::options`]); the agent is
//! [`crate::faulty`].

use super::options::{Fallback, OptionDef, Takes};
use super::{SpecError, error};
use crate::faulty::Fault;

/// A faulty agent's plan while its options are read: the fault and its decision, and
/// whether both kinds of fault were given.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    fault: Option<(Fault, u32)>,
    both: bool,
}

impl Plan {
    /// The plan of an agent already read.
    pub(super) fn of(fault: Fault, at: u32) -> Plan {
        Plan {
            fault: Some((fault, at)),
            both: false,
        }
    }

    fn put(&mut self, fault: Fault, at: u64) {
        self.both |= self.fault.is_some_and(|(f, _)| f != fault);
        let at = u32::try_from(at).expect("the table bounds the decision");
        self.fault = Some((fault, at));
    }

    fn at(&self, fault: Fault) -> Option<u32> {
        self.fault.filter(|(f, _)| *f == fault).map(|(_, at)| at)
    }

    /// The fault and its decision: exactly one kind must be given.
    pub(super) fn finish(&self) -> Result<(Fault, u32), SpecError> {
        match self.fault {
            Some(planned) if !self.both => Ok(planned),
            _ => Err(error(
                "faulty: give one of panic_at=N or illegal_at=N".into(),
            )),
        }
    }
}

/// The decision of a fault: the first is the agent's own (a referee needs a game under way).
const DECISION: Takes = Takes::Whole {
    min: 2,
    max: Some(u32::MAX as u64),
    unit: " (a decision, the first being 1)",
};

/// The faulty agent's options (one of them is given).
pub const OPTIONS: &[OptionDef<Plan>] = &[
    OptionDef {
        key: "panic_at",
        takes: DECISION,
        default: Fallback::Unset(""),
        help: "random moves, then a panic at this decision",
        source: "",
        set: |p, v| p.put(Fault::Panic, v.whole()),
        print: |p| p.at(Fault::Panic).map(|at| format!("panic_at={at}")),
    },
    OptionDef {
        key: "illegal_at",
        takes: DECISION,
        default: Fallback::Unset(""),
        help: "random moves, then an illegal move at this decision",
        source: "",
        set: |p, v| p.put(Fault::Illegal, v.whole()),
        print: |p| p.at(Fault::Illegal).map(|at| format!("illegal_at={at}")),
    },
];

#[cfg(test)]
mod tests {
    use crate::AgentSpec;

    #[test]
    fn one_fault_is_read_printed_and_set_through_the_table() {
        let spec = AgentSpec::parse("faulty:panic_at=5").unwrap();
        assert_eq!(spec.to_string(), "faulty:panic_at=5");
        assert_eq!(
            spec.set("panic_at", 7.0).unwrap().to_string(),
            "faulty:panic_at=7"
        );
        let err = |text: &str| AgentSpec::parse(text).unwrap_err().to_string();
        assert!(err("faulty").contains("give one of"));
        assert!(err("faulty:panic_at=3,illegal_at=4").contains("give one of"));
        assert!(err("faulty:illegal_at=1").contains("illegal_at must be from 2"));
        assert!(spec.set("illegal_at", 3.0).is_err(), "two faults");
        assert!(
            spec.set("panic_at", 1.0).is_err(),
            "below the table's range"
        );
    }
}
