//! The solver's transposition table: what is known of a position's score, as bounds.

/// One position's entry: its hash, the bounds on its score and the move index that proved it.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    /// `Game::move_index` of the best move found, plus one (0: none).
    best: u16,
    filled: bool,
}

/// A table of `2^n` entries, indexed by the key's top bits after a multiplicative mix (keys
/// need not be random: Connect Four's are its bitboards), always replacing: a position's
/// bounds are a pure function of the position, so a lost entry costs time, never
/// correctness. Scores are relative to the position (distance counted from it), so an entry
/// holds wherever the position is reached.
#[derive(Debug)]
pub(super) struct Table {
    entries: Vec<Entry>,
    shift: u32,
    used: usize,
}

/// Bytes of one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl Table {
    /// The largest table of a power of two entries that fits in `bytes` (at least 1,024).
    pub(super) fn new(bytes: usize) -> Table {
        let want = (bytes / ENTRY_BYTES).max(1024);
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Table {
            entries: vec![Entry::default(); n],
            shift: 64 - n.trailing_zeros(),
            used: 0,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Entries in use and the capacity.
    pub(super) fn usage(&self) -> (usize, usize) {
        (self.used, self.entries.len())
    }

    /// The bounds and best move index known for the position of `key`.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(i32, i32, Option<usize>)> {
        let e = &self.entries[self.slot(key)];
        (e.filled && e.key == key).then(|| {
            (
                i32::from(e.lower),
                i32::from(e.upper),
                (e.best > 0).then(|| usize::from(e.best - 1)),
            )
        })
    }

    /// What the table knows of the position of `key` searched in the window `(alpha,
    /// beta)`: `Err(score)` when its bounds settle the search at once (a bound outside the
    /// window, or the exact score), else the window narrowed by them and the best move index
    /// recorded.
    #[inline]
    pub(super) fn probe(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32, Option<usize>), i32> {
        match self.get(key) {
            None => Ok((alpha, beta, None)),
            Some((lo, hi, _)) if lo >= beta || lo == hi => Err(lo),
            Some((_, hi, _)) if hi <= alpha => Err(hi),
            Some((lo, hi, best)) => Ok((alpha.max(lo), beta.min(hi), best)),
        }
    }

    /// Records bounds on the position of `key`'s score, tightened with what was known of it.
    #[inline]
    pub(super) fn put(&mut self, key: u64, lower: i32, upper: i32, best: Option<usize>) {
        let slot = self.slot(key);
        let e = &mut self.entries[slot];
        let (mut lower, mut upper) = (lower, upper);
        if !e.filled {
            self.used += 1;
        } else if e.key == key {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
        }
        *e = Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best: best.map_or(0, |b| b as u16 + 1),
            filled: true,
        };
    }
}
