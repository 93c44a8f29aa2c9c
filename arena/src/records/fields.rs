//! A games CSV's row from its fields, however the record was split: the csv reader's records,
//! or a plain line cut at its commas by the follower of a growing file (`arena serve`). Read
//! exactly as the csv crate and `str::parse` read them, only faster where a field is a plain
//! count or decimal.

use crate::plan::RunPlan;
use crate::records::columns::{COLUMNS, Layout};
use crate::records::fault::RowFault;
use crate::records::row::{GameRow, MoveClock, Reason, Winner};

/// The fields of one record, however it was split: what [`parse_record`] reads. The csv
/// reader's records are fields; so are the slices of a line a faster splitter cut (the
/// follower of a growing file, `arena serve`, splits plain lines itself).
pub trait Fields {
    /// How many fields the record has.
    fn count(&self) -> usize;
    /// Field `i`, for `i < count()`.
    fn field(&self, i: usize) -> &str;
}

impl Fields for csv::StringRecord {
    fn count(&self) -> usize {
        self.len()
    }
    fn field(&self, i: usize) -> &str {
        &self[i]
    }
}

impl Fields for [&str] {
    fn count(&self) -> usize {
        self.len()
    }
    fn field(&self, i: usize) -> &str {
        self[i]
    }
}

/// Reads one record of a file in `layout` into a row and checks its columns against the plan
/// (id, pairing, pair, seed, seats, specs, winner), without replaying its moves: what a
/// follower of a growing file (`arena serve`) checks of each new line. The error says which
/// column and why.
pub fn parse_record(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
) -> std::result::Result<GameRow, RowFault> {
    parse_fields(record, plan, layout, true)
}

/// [`parse_record`] with every check, but the row's `game` and `moves` left empty: the
/// figures of [`crate::figures::summary::Tally`] read them only to count distinct games, and
/// a follower whose counts of distinct games are all full (`Tally::reads_text` false) saves
/// copying them.
pub fn parse_record_figures(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
) -> std::result::Result<GameRow, RowFault> {
    parse_fields(record, plan, layout, false)
}

fn parse_fields(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
    text: bool,
) -> std::result::Result<GameRow, RowFault> {
    let columns = layout.columns();
    if record.count() != columns.len() {
        return Err(RowFault::column(format!(
            "{} columns, not {}",
            record.count(),
            columns.len()
        )));
    }
    let field = |i: usize| record.field(i);
    fn number<T: std::str::FromStr>(text: &str, column: &str) -> std::result::Result<T, RowFault> {
        text.parse().map_err(|_| {
            RowFault::column(format!(
                "{column} '{text}' is not a number of the right kind"
            ))
        })
    }
    // A count: plain digits read by a loop, anything else (a sign, a count too large for
    // its type) by `str::parse`, which accepts or refuses it as it always did.
    fn whole<T: std::str::FromStr + TryFrom<u64>>(
        text: &str,
        column: &str,
    ) -> std::result::Result<T, RowFault> {
        let b = text.as_bytes();
        if !b.is_empty() && b.len() <= 20 {
            let n = b.iter().try_fold(0u64, |n, &c| {
                c.is_ascii_digit().then_some(())?;
                n.checked_mul(10)?.checked_add(u64::from(c - b'0'))
            });
            if let Some(Ok(n)) = n.map(T::try_from) {
                return Ok(n);
            }
        }
        number(text, column)
    }
    let finite = |i: usize| -> std::result::Result<f64, RowFault> {
        let x: f64 = match plain_decimal(field(i)) {
            Some(x) => x,
            None => number(field(i), COLUMNS[i])?,
        };
        if x.is_finite() {
            Ok(x)
        } else {
            Err(RowFault::column(format!(
                "{} '{}' is not finite",
                COLUMNS[i],
                field(i)
            )))
        }
    };
    let score = |i: usize| -> std::result::Result<Option<f64>, RowFault> {
        if field(i).is_empty() {
            Ok(None)
        } else {
            finite(i).map(Some)
        }
    };
    // Side `side`'s clock: its three columns, all empty (a row of a game played in `arena
    // play`, say) or all numbers; none in a legacy file.
    let clock = |side: usize| -> std::result::Result<Option<MoveClock>, RowFault> {
        if layout == Layout::Legacy {
            return Ok(None);
        }
        let [moves, max, overruns] = [22, 24, 26].map(|i| i + side);
        if [moves, max, overruns].iter().all(|&i| field(i).is_empty()) {
            return Ok(None);
        }
        let max_ms = finite(max)?;
        if max_ms < 0.0 {
            return Err(RowFault::column(format!(
                "{} '{}' is negative",
                COLUMNS[max],
                field(max)
            )));
        }
        Ok(Some(MoveClock {
            moves: whole(field(moves), COLUMNS[moves])?,
            max_ms,
            overruns: whole(field(overruns), COLUMNS[overruns])?,
        }))
    };
    let id: u64 = whole(field(0), "id")?;
    let slot = plan.slot(id).ok_or_else(|| {
        RowFault::column(format!(
            "game id {id} is outside the run ({} games)",
            plan.total_games()
        ))
    })?;
    if !plan.in_shard(id) {
        let shard = plan.shard.map(|s| s.to_string()).unwrap_or_default();
        return Err(RowFault::column(format!(
            "game {id} does not belong to shard {shard}"
        )));
    }
    let pairing: usize = whole(field(1), "pairing")?;
    let pair: u64 = whole(field(2), "pair")?;
    if (pairing, pair) != (slot.pairing, slot.pair) {
        return Err(RowFault::column(format!(
            "game {id} is pairing {}, pair {} of the run, not pairing {pairing}, pair {pair}",
            slot.pairing, slot.pair
        )));
    }
    let seed: u64 = whole(field(4), "seed")?;
    if seed != plan.pair_seed(slot) {
        return Err(RowFault::column(format!(
            "seed {seed} is not the seed of game {id}'s pair ({}): a row of another run?",
            plan.pair_seed(slot)
        )));
    }
    let opening_plies: u32 = whole(field(5), "opening_plies")?;
    if opening_plies > plan.opening_plies {
        return Err(RowFault::column(format!(
            "{opening_plies} opening plies, more than the run's {}",
            plan.opening_plies
        )));
    }
    let (first, second) = plan.seated_agents(slot);
    let first_agent: usize = whole(field(6), "first_agent")?;
    let second_agent: usize = whole(field(8), "second_agent")?;
    if (first_agent, second_agent) != (first, second) {
        return Err(RowFault::column(format!(
            "game {id} seats agents {first} and {second}, not {first_agent} and {second_agent}"
        )));
    }
    for (column, agent) in [(7, first), (9, second)] {
        if field(column) != plan.agents[agent].full {
            return Err(RowFault::column(format!(
                "{} '{}' is not agent {agent}'s spec '{}'",
                COLUMNS[column],
                field(column),
                plan.agents[agent].full
            )));
        }
    }
    let winner: Winner = field(10).parse()?;
    let reason: Reason = field(12).parse()?;
    let row = GameRow {
        id,
        slot,
        game: if text {
            field(3).to_string()
        } else {
            String::new()
        },
        seed,
        opening_plies,
        first_agent,
        second_agent,
        winner,
        reason,
        plies: whole(field(13), "plies")?,
        first_score: score(14)?,
        second_score: score(15)?,
        first_time_ms: finite(16)?,
        second_time_ms: finite(17)?,
        first_nodes: whole(field(18), "first_nodes")?,
        second_nodes: whole(field(19), "second_nodes")?,
        first_iterations: whole(field(20), "first_iterations")?,
        second_iterations: whole(field(21), "second_iterations")?,
        first_clock: clock(0)?,
        second_clock: clock(1)?,
        moves: if text {
            field(columns.len() - 1).to_string()
        } else {
            String::new()
        },
        fault: None,
    };
    let recorded_winner = if field(11).is_empty() {
        None
    } else {
        Some(whole::<usize>(field(11), "winner_agent")?)
    };
    if recorded_winner != row.winner_agent() {
        return Err(RowFault::column(format!(
            "winner_agent '{}' does not match winner '{}'",
            field(11),
            row.winner
        )));
    }
    match (reason, winner) {
        (Reason::PlyCap, w) if w != Winner::Draw => {
            Err(RowFault::column("a game stopped by the ply cap is a draw"))
        }
        (r, Winner::Draw) if r != Reason::Normal && r != Reason::PlyCap => Err(RowFault::column(
            format!("a game ended by {r} has a winner"),
        )),
        _ => Ok(row),
    }
}

/// `text` as a number when it is a plain decimal (`123` or `12.345`, at most 15 digits),
/// which the rows' times and scores are: the digits as an integer divided by a power of ten,
/// both exact in a double, so the one rounded division gives what `str::parse` gives
/// (Clinger's fast path), without its general parser. `None` for any other text.
fn plain_decimal(text: &str) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let b = text.as_bytes();
    if b.is_empty() || b.len() > 16 {
        return None;
    }
    let (mut m, mut digits, mut point) = (0u64, 0usize, None);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                digits += 1;
            }
            b'.' if point.is_none() && i > 0 && i + 1 < b.len() => point = Some(i),
            _ => return None,
        }
    }
    if digits > 15 {
        return None;
    }
    let scale = point.map_or(0, |p| b.len() - p - 1);
    Some(m as f64 / POW10[scale])
}

#[cfg(test)]
mod tests {
    use super::plain_decimal;

    #[test]
    fn plain_decimals_read_as_the_standard_parser_reads_them() {
        for text in [
            "0.0",
            "18.0",
            "0.5",
            "00.10",
            "7",
            "123.456",
            "999999999999999",
        ] {
            assert_eq!(plain_decimal(text), Some(text.parse().unwrap()), "{text}");
        }
        // Every digit count and point position, digits from a fixed generator.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for digits in 1..=15usize {
            for point in 0..digits {
                for _ in 0..200 {
                    let mut text = String::new();
                    for d in 0..digits {
                        if d == point && point > 0 {
                            text.push('.');
                        }
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        text.push(char::from(b'0' + (x >> 60) as u8 % 10));
                    }
                    let want: f64 = text.parse().unwrap();
                    assert_eq!(
                        plain_decimal(&text).map(f64::to_bits),
                        Some(want.to_bits()),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_numbers_are_left_to_the_standard_parser() {
        for text in [
            "",
            ".5",
            "5.",
            "1e3",
            "-1.0",
            "+1",
            "1.2.3",
            "inf",
            "NaN",
            "1 ",
            "1234567890123456",
        ] {
            assert_eq!(plain_decimal(text), None, "{text}");
        }
    }
}
