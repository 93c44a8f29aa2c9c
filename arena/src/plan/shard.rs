//! A run split by pairs across files (and machines): shard `i/n`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::plan::MAX_SHARDS;

/// One shard of a run split by pairs: both games of a pair land in the same shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n` with `1 <= i <= n`.
    pub fn parse(text: &str) -> Result<Shard> {
        let err = || Error::setting(format!("'{text}' is not a shard i/n with 1 <= i <= n"));
        let (i, n) = text.split_once('/').ok_or_else(err)?;
        let index: u64 = i.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        Shard::new(index, count).ok_or_else(err)
    }

    /// Shard `index` of `count`, if `1 <= index <= count <= MAX_SHARDS`.
    #[must_use]
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether game `id` belongs to this shard.
    #[must_use]
    pub fn contains(&self, id: u64) -> bool {
        (id / 2) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
