//! A set of game ids kept as runs of consecutive ids: what a run has finished, in memory that
//! follows the gaps, not the games. Games finish nearly in id order (workers take ids from one
//! list), so a file of ten million games is a handful of runs.

use std::collections::BTreeMap;

/// Game ids as disjoint runs `start..end`, none touching another.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdSet {
    /// `start → end` (exclusive) of each run.
    runs: BTreeMap<u64, u64>,
    len: u64,
}

impl IdSet {
    /// An empty set.
    #[must_use]
    pub fn new() -> IdSet {
        IdSet::default()
    }

    /// The number of ids.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of runs of consecutive ids (what the set's memory follows).
    #[must_use]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Whether `id` is in the set.
    #[must_use]
    pub fn contains(&self, id: u64) -> bool {
        self.runs
            .range(..=id)
            .next_back()
            .is_some_and(|(_, &end)| id < end)
    }

    /// Adds `id`; false if it was already there.
    pub fn insert(&mut self, id: u64) -> bool {
        let before = self.runs.range(..=id).next_back().map(|(&s, &e)| (s, e));
        if let Some((_, end)) = before
            && id < end
        {
            return false;
        }
        let mut start = id;
        let mut end = id + 1;
        if let Some((s, e)) = before
            && e == id
        {
            start = s;
        }
        if let Some(after_end) = self.runs.remove(&end) {
            end = after_end;
        }
        self.runs.insert(start, end);
        self.len += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_join_into_runs_and_are_counted_once() {
        let mut set = IdSet::new();
        for id in [5, 3, 4, 9, 0, 1, 2, 8] {
            assert!(set.insert(id), "{id}");
        }
        assert!(!set.insert(4));
        assert_eq!(set.len(), 8);
        // 0..6 and 8..10.
        assert_eq!(set.runs(), 2);
        for id in 0..12 {
            assert_eq!(set.contains(id), id <= 5 || id == 8 || id == 9, "{id}");
        }
        assert!(set.insert(7));
        assert!(set.insert(6));
        assert_eq!(set.runs(), 1);
        assert!(!set.contains(10));
    }

    #[test]
    fn a_set_agrees_with_a_hash_set_on_random_inserts() {
        use rand::RngExt;
        let mut rng = ringside_engine::seeded_rng(3, 0);
        let mut set = IdSet::new();
        let mut plain = std::collections::HashSet::new();
        for _ in 0..5000 {
            let id = rng.random_range(0..3000u64);
            assert_eq!(set.insert(id), plain.insert(id));
        }
        assert_eq!(set.len(), plain.len() as u64);
        for id in 0..3100 {
            assert_eq!(set.contains(id), plain.contains(&id));
        }
    }
}
