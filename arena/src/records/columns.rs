//! A games file's columns, in order, and the layouts files have had (with the clock columns,
//! or from before them).

/// The columns, in order.
pub const COLUMNS: [&str; 29] = [
    "id",
    "pairing",
    "pair",
    "game",
    "seed",
    "opening_plies",
    "first_agent",
    "first_spec",
    "second_agent",
    "second_spec",
    "winner",
    "winner_agent",
    "reason",
    "plies",
    "first_score",
    "second_score",
    "first_time_ms",
    "second_time_ms",
    "first_nodes",
    "second_nodes",
    "first_iterations",
    "second_iterations",
    "first_moves",
    "second_moves",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
    "moves",
];

/// The clock columns, which files written before them lack ([`Layout::Legacy`]).
pub const CLOCK_COLUMNS: [&str; 6] = [
    "first_moves",
    "second_moves",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
];

/// [`COLUMNS`] without the clock columns: a games file's columns before they existed.
static LEGACY_COLUMNS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    COLUMNS
        .into_iter()
        .filter(|c| !CLOCK_COLUMNS.contains(c))
        .collect()
});

/// Which columns a games file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// [`COLUMNS`], with the clocks.
    Current,
    /// Without them.
    Legacy,
}

impl Layout {
    /// The layout whose header line (with its newline) is `line`.
    #[must_use]
    pub fn of_header(line: &[u8]) -> Option<Layout> {
        [Layout::Current, Layout::Legacy]
            .into_iter()
            .find(|l| l.header_line().as_bytes() == line)
    }

    /// The layout's columns, in order.
    pub(crate) fn columns(self) -> &'static [&'static str] {
        match self {
            Layout::Current => &COLUMNS,
            Layout::Legacy => LEGACY_COLUMNS.as_slice(),
        }
    }

    /// The header line, with its newline.
    pub(crate) fn header_line(self) -> String {
        self.columns().join(",") + "\n"
    }
}
