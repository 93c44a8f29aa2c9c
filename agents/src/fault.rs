//! What an agent returns when it cannot decide: a fault that loses it the game. The core
//! [`crate::Agent`] trait's `try_choose` returns it; outside engines (the GTP plug-in) are the
//! agents that produce it today, and the faulty test agent imitates them.

use std::fmt;

/// What went wrong with an agent (so far, always an outside engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// It could not start, exited, or closed its pipes.
    EngineCrash,
    /// It answered later than its time and margin.
    TimeForfeit,
    /// Its move does not parse or is not legal.
    IllegalMove,
    /// It answered `?`, or wrote something that is not a GTP answer.
    ProtocolError,
    /// It resigned.
    Resign,
}

/// A decision an agent could not make: the game is lost for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentFault {
    /// What kind of fault.
    pub kind: FaultKind,
    /// What happened, then the engine's last stderr lines.
    pub message: String,
}

impl fmt::Display for AgentFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
