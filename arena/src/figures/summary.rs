//! The figures of a run's games: per pairing results with intervals, pentanomial figures, a
//! rating table by connected group, and the game-design figures (first-player advantage,
//! draws, caps, lengths). [`crate::figures::report`] renders them as Markdown and CSV.
//!
//! The figures are folds: a [`Tally`] takes games one at a time, as they are played or read,
//! and keeps per pairing only counts (results, pentanomial pairs, a histogram of lengths) and
//! the metrics' fold ([`MetricFold`]); it never holds the rows, so its memory follows the
//! pairings and the distinct game lengths, not the games.

use crate::figures::metrics::{Estimate, GameFacts, MetricFold, MetricsSink};
use crate::figures::stats::{
    PairFold, PairingResult, Penta, RatingGroup, Wdl, Z95, elo_interval, los, rate_groups, wilson,
};
use crate::plan::{RunPlan, Seat};
use crate::records::games_csv::{Tail, read_games_with};
use crate::records::row::{GameRow, MoveClock, Reason};

/// Game lengths as counts by plies: the mean, nearest-rank percentiles and a histogram, in
/// memory that follows the longest game, not the number of games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lengths {
    /// `counts[k]`: games of `k` plies.
    counts: Vec<u64>,
    games: u64,
    plies: u64,
}

impl Lengths {
    /// Counts a game of `plies` plies.
    pub fn add(&mut self, plies: u32) {
        let k = plies as usize;
        if k >= self.counts.len() {
            self.counts.resize(k + 1, 0);
        }
        self.counts[k] += 1;
        self.games += 1;
        self.plies += u64::from(plies);
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The mean length (0 without games).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        }
    }

    /// The longest game (0 without games).
    #[must_use]
    pub fn longest(&self) -> u32 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u32
    }

    /// The length at quantile `q` (0..=1) by nearest rank, as [`crate::figures::stats::percentile`]
    /// gives it on the sorted lengths: the smallest length whose count reaches rank
    /// `⌈q·n⌉` (at least 1).
    #[must_use]
    pub fn percentile(&self, q: f64) -> u32 {
        if self.games == 0 {
            return 0;
        }
        let rank = ((q * self.games as f64).ceil() as u64).clamp(1, self.games);
        let mut seen = 0;
        for (k, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return k as u32;
            }
        }
        unreachable!("the counts sum to the games")
    }

    /// `(length, games)` for every length some game has, shortest first.
    pub fn counts(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(k, &c)| (k as u32, c))
    }
}

/// How many different games a pairing holds: a game is its start (the spec as played), its
/// seating (which agent had which colour) and its moves. Deterministic agents without random
/// openings play the same game again and again, and the intervals, which count games as
/// independent, then read as certainty; this count says so. Kept as 64-bit hashes, counted
/// exactly up to [`Distinct::CAP`] and saturating there, so its memory stays bounded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Distinct {
    seen: std::collections::HashSet<u64>,
    first: Wdl,
}

impl Distinct {
    /// Distinct games are counted up to this many (about 64 KiB of hashes a pairing): enough
    /// to tell a sample from a few games repeated.
    pub const CAP: usize = 4096;

    /// Counts `row`'s game.
    pub fn add(&mut self, row: &GameRow) {
        use std::hash::{Hash, Hasher};
        if self.seen.len() >= Self::CAP {
            return;
        }
        // SipHash with fixed keys: the same count on every run and machine.
        let mut h = std::hash::DefaultHasher::new();
        (row.first_agent, row.second_agent, &row.game, &row.moves).hash(&mut h);
        if self.seen.insert(h.finish()) {
            self.first.add(row.first_points());
        }
    }

    /// The first colour's wins, draws and losses over the distinct games counted (each game
    /// once, however often it was played again): what a test on a sample of games may count.
    #[must_use]
    pub fn first(&self) -> Wdl {
        self.first
    }

    /// Distinct games seen (at most [`Distinct::CAP`]).
    #[must_use]
    pub fn count(&self) -> u64 {
        self.seen.len() as u64
    }

    /// Whether the count stopped at [`Distinct::CAP`] (there may be more).
    #[must_use]
    pub fn saturated(&self) -> bool {
        self.seen.len() >= Self::CAP
    }

    /// The count as text: `12`, or `≥4096` once saturated.
    #[must_use]
    pub fn text(&self) -> String {
        if self.saturated() {
            format!("≥{}", Self::CAP)
        } else {
            self.count().to_string()
        }
    }

    /// Whether the `games` repeat: at most half as many distinct games as games. Random play
    /// repeats a short game now and then, and those repeats are a sample like any other; what
    /// is marked is a set of games that is mostly copies, as deterministic agents without random
    /// openings give.
    #[must_use]
    pub fn repeats(&self, games: u64) -> bool {
        Self::repeat(self.count(), games)
    }

    /// [`Distinct::repeats`] from a count of `distinct` games (a count at the cap is a lower
    /// bound, and never marks).
    #[must_use]
    pub fn repeat(distinct: u64, games: u64) -> bool {
        (distinct as usize) < Self::CAP && distinct * 2 <= games
    }
}

/// Figures of one pairing, from its first agent's view (agent `a` against agent `b`).
#[derive(Debug, Clone, PartialEq)]
pub struct PairingSummary {
    /// Pairing index.
    pub pairing: usize,
    /// First agent of the pairing.
    pub a: usize,
    /// Second agent.
    pub b: usize,
    /// All games, `a`'s view.
    pub all: Wdl,
    /// Games where `a` had the first colour.
    pub a_first: Wdl,
    /// Games where `a` had the second colour.
    pub a_second: Wdl,
    /// Complete colour-swapped pairs, `a`'s points.
    pub penta: Penta,
    /// Games won by the first colour, drawn, lost.
    pub first_player: Wdl,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// Games lost by an agent fault.
    pub faults: u64,
    /// Game lengths.
    pub lengths: Lengths,
    /// Distinct games.
    pub distinct: Distinct,
    /// The game-design metrics' fold (empty unless the games' facts were given).
    pub metrics: MetricFold,
}

impl PairingSummary {
    fn new(pairing: usize, (a, b): (usize, usize)) -> PairingSummary {
        PairingSummary {
            pairing,
            a,
            b,
            all: Wdl::default(),
            a_first: Wdl::default(),
            a_second: Wdl::default(),
            penta: Penta::default(),
            first_player: Wdl::default(),
            capped: 0,
            faults: 0,
            lengths: Lengths::default(),
            distinct: Distinct::default(),
            metrics: MetricFold::default(),
        }
    }
}

/// One agent's clock over a run's games: the time of its moves against its budget.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AgentClock {
    /// The agent's moves in the games whose rows kept the clock columns.
    pub moves: u64,
    /// Milliseconds it spent on them.
    pub time_ms: f64,
    /// Its longest move, in milliseconds.
    pub max_ms: f64,
    /// Moves longer than its budget.
    pub overruns: u64,
}

impl AgentClock {
    fn add(&mut self, time_ms: f64, clock: Option<MoveClock>) {
        if let Some(c) = clock {
            self.moves += u64::from(c.moves);
            self.time_ms += time_ms;
            self.max_ms = self.max_ms.max(c.max_ms);
            self.overruns += u64::from(c.overruns);
        }
    }

    /// Mean milliseconds a move (0 without moves).
    #[must_use]
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.time_ms / self.moves as f64
        }
    }
}

/// The figures of a run, folded game by game: one [`PairingSummary`] a pairing of the plan.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pairings: Vec<PairingSummary>,
    clocks: Vec<AgentClock>,
    clocked: u64,
    fold: PairFold,
    games: u64,
}

impl Tally {
    /// The game-design metrics of every pairing whose games came with their facts:
    /// `(pairing, estimates)` for pairings with games.
    #[must_use]
    pub fn metrics(&self) -> Vec<(usize, Vec<Estimate>)> {
        self.pairings()
            .into_iter()
            .filter(|p| !p.metrics.is_empty())
            .map(|p| (p.pairing, p.metrics.estimates()))
            .collect()
    }

    /// A tally of no games for `plan`'s pairings.
    #[must_use]
    pub fn new(plan: &RunPlan) -> Tally {
        Tally {
            pairings: (plan.pairings.iter().enumerate())
                .map(|(i, &ab)| PairingSummary::new(i, ab))
                .collect(),
            clocks: vec![AgentClock::default(); plan.agents.len()],
            clocked: 0,
            fold: PairFold::default(),
            games: 0,
        }
    }

    /// The tally of `rows` (without the metrics, which need the replayed facts).
    #[must_use]
    pub fn of_rows(plan: &RunPlan, rows: &[GameRow]) -> Tally {
        let mut tally = Tally::new(plan);
        for row in rows {
            tally.add(row, None);
        }
        tally
    }

    /// The tally of the games file `path` of `plan`, with the metrics, read in one streaming
    /// pass (each row checked and replayed once); and what followed its last complete line.
    /// Reads only: a file without rows gives an empty tally.
    pub fn read(path: &std::path::Path, plan: &RunPlan) -> crate::Result<(Tally, Tail)> {
        let mut tally = Tally::new(plan);
        let report = read_games_with(path, plan, &MetricsSink, &mut |chunk| {
            for r in chunk {
                tally.add(&r.row, r.gathered.as_ref());
            }
            Ok(())
        })?;
        Ok((tally, report.tail))
    }

    /// Counts one game; `facts` (from its replay) feed the metrics.
    pub fn add(&mut self, row: &GameRow, facts: Option<&GameFacts>) {
        let Some(p) = self.pairings.get_mut(row.slot.pairing) else {
            return;
        };
        self.games += 1;
        self.clocked += u64::from(row.first_clock.is_some());
        for (agent, time_ms, clock) in [
            (row.first_agent, row.first_time_ms, row.first_clock),
            (row.second_agent, row.second_time_ms, row.second_clock),
        ] {
            if let Some(a) = self.clocks.get_mut(agent) {
                a.add(time_ms, clock);
            }
        }
        let points = row.pairing_first_points();
        p.all.add(points);
        match row.slot.seat {
            Seat::AFirst => p.a_first.add(points),
            Seat::BFirst => p.a_second.add(points),
        }
        p.first_player.add(row.first_points());
        p.capped += u64::from(row.reason == Reason::PlyCap);
        p.faults += u64::from(row.reason.is_fault());
        p.lengths.add(row.plies);
        p.distinct.add(row);
        if let Some(pair_points) = self.fold.add(row) {
            p.penta.add(pair_points);
        }
        if let Some(facts) = facts {
            p.metrics.add(facts);
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether adding a row still reads its `game` and `moves` text: false once every
    /// pairing's count of distinct games is full ([`Distinct::CAP`]), when it never will again.
    #[must_use]
    pub fn reads_text(&self) -> bool {
        self.pairings.iter().any(|p| !p.distinct.saturated())
    }

    /// The summaries of the pairings that have games, in pairing order.
    #[must_use]
    pub fn pairings(&self) -> Vec<&PairingSummary> {
        self.pairings.iter().filter(|p| p.all.n() > 0).collect()
    }

    /// Each agent's clock, in the plan's order.
    #[must_use]
    pub fn clocks(&self) -> &[AgentClock] {
        &self.clocks
    }

    /// Games counted whose rows kept the clock columns.
    #[must_use]
    pub fn clocked_games(&self) -> u64 {
        self.clocked
    }

    /// Pairing `i`'s summary (with or without games).
    #[must_use]
    pub fn pairing(&self, i: usize) -> Option<&PairingSummary> {
        self.pairings.get(i)
    }
}

/// The figures derived from one pairing's counts, computed once for the Markdown and the CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// 95% Wilson interval of the first agent's score.
    pub score_interval: (f64, f64),
    /// Elo with its 95% interval, per game.
    pub elo: (f64, f64, f64),
    /// Likelihood of superiority.
    pub los: f64,
    /// Elo with its 95% interval, per colour-swapped pair.
    pub pair_elo: (f64, f64, f64),
    /// 95% Wilson interval of the first colour's score.
    pub first_interval: (f64, f64),
    /// Share of drawn games.
    pub draw_rate: f64,
    /// Share of games stopped by the ply cap.
    pub cap_rate: f64,
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// Median game length.
    pub median_plies: u32,
    /// 90th percentile of game length.
    pub p90_plies: u32,
}

impl PairingSummary {
    /// The figures of this pairing (it has at least one game).
    #[must_use]
    pub fn figures(&self) -> Figures {
        let n = self.all.n() as f64;
        Figures {
            score_interval: wilson(self.all.score(), n, Z95),
            elo: elo_interval(&self.all),
            los: los(self.all.w, self.all.l),
            pair_elo: self.penta.elo_interval(),
            first_interval: wilson(self.first_player.score(), n, Z95),
            draw_rate: self.all.d as f64 / n,
            cap_rate: self.capped as f64 / n,
            mean_plies: self.lengths.mean(),
            median_plies: self.lengths.percentile(0.5),
            p90_plies: self.lengths.percentile(0.9),
        }
    }
}

/// The rating groups of a run's agents from its pairings' results: Bradley–Terry ratings with
/// 95% intervals, each group on its own scale (agents that never met another are in none).
#[must_use]
pub fn ratings<'a>(
    agents: usize,
    pairings: impl IntoIterator<Item = &'a PairingSummary>,
) -> Vec<RatingGroup> {
    let results: Vec<PairingResult> = pairings
        .into_iter()
        .map(|p| PairingResult {
            a: p.a,
            b: p.b,
            a_points: p.all.w as f64 + p.all.d as f64 / 2.0,
            games: p.all.n() as f64,
        })
        .collect();
    rate_groups(agents, &results)
}

#[cfg(test)]
mod tests {
    use super::Distinct;
    use crate::plan::{Seat, Slot};
    use crate::records::row::{GameRow, Reason, Winner};

    #[test]
    fn games_repeat_when_at_most_half_are_distinct_and_never_at_the_cap() {
        assert!(Distinct::repeat(1, 40));
        assert!(Distinct::repeat(20, 40));
        assert!(!Distinct::repeat(21, 40));
        assert!(!Distinct::repeat(33, 40), "random play's few short repeats");
        let cap = Distinct::CAP as u64;
        assert!(
            !Distinct::repeat(cap, 10 * cap),
            "a count at the cap is a lower bound"
        );
        assert!(Distinct::repeat(cap - 1, 10 * cap));
    }

    /// Game `i` of a pairing: games told apart by their moves only.
    fn row(i: usize) -> GameRow {
        GameRow {
            id: i as u64,
            slot: Slot {
                pairing: 0,
                pair: i as u64 / 2,
                seat: Seat::AFirst,
            },
            game: "rin".to_string(),
            seed: 1,
            opening_plies: 0,
            first_agent: 0,
            second_agent: 1,
            winner: Winner::Draw,
            reason: Reason::Normal,
            plies: 1,
            first_score: None,
            second_score: None,
            first_time_ms: 0.0,
            second_time_ms: 0.0,
            first_nodes: 0,
            second_nodes: 0,
            first_iterations: 0,
            second_iterations: 0,
            first_clock: None,
            second_clock: None,
            moves: i.to_string(),
            fault: None,
        }
    }

    #[test]
    fn distinct_games_are_counted_to_the_cap_and_shown_as_at_least_the_cap_there() {
        let mut distinct = Distinct::default();
        for i in 0..Distinct::CAP - 1 {
            distinct.add(&row(i));
            distinct.add(&row(i));
        }
        assert_eq!(distinct.count(), Distinct::CAP as u64 - 1);
        assert!(!distinct.saturated());
        assert_eq!(distinct.text(), "4095");
        distinct.add(&row(Distinct::CAP));
        distinct.add(&row(Distinct::CAP + 1));
        assert_eq!(distinct.count(), Distinct::CAP as u64);
        assert!(distinct.saturated());
        assert_eq!(distinct.text(), "≥4096");
    }

    #[test]
    fn pairings_lists_only_the_pairings_with_games() {
        use super::Tally;
        use crate::plan::PlanBuilder;
        use crate::run::pool::Silent;
        use crate::run::runner::run_in_memory;
        let plan = PlanBuilder::new("rin:size=6")
            .pairing("random", "random")
            .pairing("random", "mcts:iters=5")
            .games(4)
            .seed(3)
            .build()
            .unwrap();
        let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
        let second: Vec<GameRow> = rows.into_iter().filter(|r| r.slot.pairing == 1).collect();
        let tally = Tally::of_rows(&plan, &second);
        let listed = tally.pairings();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].all.n(), 4);
        assert_eq!(tally.pairing(0).map(|p| p.all.n()), Some(0));
    }

    #[test]
    fn games_repeat_when_few_of_them_differ() {
        let mut distinct = Distinct::default();
        for i in 0..10 {
            distinct.add(&row(i));
        }
        assert!(!distinct.repeats(10), "ten different games");
        assert!(distinct.repeats(20), "ten different games among twenty");
        let mut copies = Distinct::default();
        for _ in 0..10 {
            copies.add(&row(0));
        }
        assert_eq!(copies.count(), 1);
        assert!(copies.repeats(10));
    }
}
