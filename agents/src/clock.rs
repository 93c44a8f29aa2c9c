//! A search's deadline, read at a rate set by how long the search's steps take.
//!
//! Reading the clock costs about as much as a cheap node, so a search reads it only every
//! `stride` steps; a fixed stride (alpha-beta's was 1,024 nodes) lets a search whose steps
//! are costly (a network's evaluation at every leaf) run far past its budget. The clock here
//! measures the time between its reads and halves its stride when a read came later than
//! [`Clock`]'s interval, doubles it when a read came sooner than half of it, so reads are
//! about one interval apart whatever a step costs: a search stops within about one interval
//! (a fiftieth of the budget, between 20 µs and 1 ms) and one step of its deadline. The
//! deadline is two intervals short of the budget, so a search with cheap steps, and the
//! choice of its move after it, end within the budget: a move over budget is one that a
//! costly step (or the machine) made late, and is counted as such by the arena.

use std::time::{Duration, Instant};

/// The most steps between two reads of the clock.
const MAX_STRIDE: u32 = 1 << 12;

/// A deadline, checked by [`Clock::expired`] once a search step.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    deadline: Option<Instant>,
    /// Steps between reads.
    stride: u32,
    /// Steps left until the next read.
    countdown: u32,
    /// When the clock was last read.
    last: Instant,
    /// The time wanted between reads.
    interval: Duration,
    expired: bool,
}

impl Clock {
    /// A clock for a search that began at `started` with `budget` (none: never expires).
    #[must_use]
    pub fn new(started: Instant, budget: Option<Duration>) -> Clock {
        let interval = budget.map_or(Duration::from_millis(1), |b| {
            (b / 50).clamp(Duration::from_micros(20), Duration::from_millis(1))
        });
        Clock {
            deadline: budget.map(|b| started + b.saturating_sub(2 * interval)),
            stride: 1,
            countdown: 1,
            last: started,
            interval,
            expired: false,
        }
    }

    /// A clock that never expires.
    #[must_use]
    pub fn unlimited() -> Clock {
        Clock::new(Instant::now(), None)
    }

    /// Whether the deadline has passed; called once a step, it reads the clock only every
    /// stride steps. Once true, always true.
    #[inline]
    pub fn expired(&mut self) -> bool {
        if self.expired || self.deadline.is_none() {
            return self.expired;
        }
        self.countdown -= 1;
        if self.countdown > 0 {
            return false;
        }
        self.read(Instant::now())
    }

    /// The read at `now`: expires past the deadline, else sets the stride from the time
    /// since the last read.
    #[cold]
    fn read(&mut self, now: Instant) -> bool {
        if self.deadline.is_some_and(|d| now >= d) {
            self.expired = true;
            return true;
        }
        let since = now - self.last;
        if since > self.interval {
            self.stride = (self.stride / 2).max(1);
        } else if since < self.interval / 2 {
            self.stride = (self.stride * 2).min(MAX_STRIDE);
        }
        self.countdown = self.stride;
        self.last = now;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps each costing `cost` on a simulated clock, checked as a search checks them,
    /// until the clock expires: when the search stopped, from its start, and the clock.
    fn run(budget: Duration, cost: Duration) -> (Duration, Clock) {
        let started = Instant::now();
        let mut clock = Clock::new(started, Some(budget));
        let mut now = started;
        loop {
            now += cost;
            clock.countdown -= 1;
            if clock.countdown == 0 && clock.read(now) {
                return (now - started, clock);
            }
        }
    }

    #[test]
    fn costly_steps_stop_within_one_step_of_the_deadline() {
        // 200 µs a step: a fixed stride of 1,024 steps would run 0.2 s past a 10 ms budget.
        let (end, clock) = run(Duration::from_millis(10), Duration::from_micros(200));
        assert!(end <= Duration::from_millis(10), "stopped at {end:?}");
        assert_eq!(clock.stride, 1);
    }

    #[test]
    fn cheap_steps_read_the_clock_rarely_and_stop_inside_the_budget() {
        let budget = Duration::from_millis(10);
        let (end, clock) = run(budget, Duration::from_nanos(50));
        assert!(clock.stride >= 1024, "stride {}", clock.stride);
        // The interval is a fiftieth of the budget, within its bounds; the deadline two
        // intervals short of the budget; reads about an interval apart.
        assert_eq!(clock.interval, Duration::from_micros(200));
        assert!(end <= budget, "stopped at {end:?}");
        assert!(end >= budget - 3 * clock.interval, "stopped at {end:?}");
    }

    #[test]
    fn steps_of_every_cost_stop_within_one_step_of_the_deadline() {
        let budget = Duration::from_millis(10);
        for nanos in [10, 300, 2_000, 20_000, 90_000, 700_000] {
            let cost = Duration::from_nanos(nanos);
            let (end, clock) = run(budget, cost);
            let deadline = budget - 2 * clock.interval;
            assert!(end >= deadline, "{cost:?} a step: stopped at {end:?}");
            assert!(
                end <= deadline + clock.interval + cost,
                "{cost:?} a step: stopped at {end:?}"
            );
        }
    }

    #[test]
    fn a_clock_without_a_budget_never_expires_and_an_expired_one_stays_expired() {
        let mut free = Clock::unlimited();
        assert!((0..10_000).all(|_| !free.expired()));
        let mut gone = Clock::new(Instant::now(), Some(Duration::ZERO));
        assert!(gone.expired());
        assert!(gone.expired());
    }
}
