//! [`Bb256`], a set of up to 256 points laid out as a 16×16 grid.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of points of a 16×16 grid, one bit a point: bit `16 * row + col`, row 0 at the bottom,
/// column 0 at the left. Smaller square boards use the bottom-left corner of the grid.
///
/// ```text
/// row 15 │ bits 240 … 255      word 3
///   …    │                       …
/// row  1 │ bits  16 …  31      word 0
/// row  0 │ bits   0 …  15      word 0 (bit 0 = a1)
///          col 0 … col 15
/// ```
///
/// Each `u64` word holds four whole rows, so a shift by one column never crosses a word.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb256(pub [u64; 4]);

/// Column 0 of every row.
const COL0: u64 = 0x0001_0001_0001_0001;
/// Column 15 of every row.
const COL15: u64 = 0x8000_8000_8000_8000;

impl Bb256 {
    /// The empty set.
    pub const EMPTY: Bb256 = Bb256([0; 4]);

    /// The set holding only `point` (0..256).
    #[inline]
    #[must_use]
    pub const fn from_point(point: usize) -> Bb256 {
        let mut words = [0; 4];
        words[point >> 6] = 1 << (point & 63);
        Bb256(words)
    }

    /// Whether `point` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, point: usize) -> bool {
        (self.0[point >> 6] >> (point & 63)) & 1 != 0
    }

    /// Adds `point`.
    #[inline]
    pub const fn insert(&mut self, point: usize) {
        self.0[point >> 6] |= 1 << (point & 63);
    }

    /// Removes `point`.
    #[inline]
    pub const fn remove(&mut self, point: usize) {
        self.0[point >> 6] &= !(1 << (point & 63));
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Whether the two sets share a point.
    #[inline]
    #[must_use]
    pub fn intersects(self, other: Bb256) -> bool {
        !(self & other).is_empty()
    }

    /// The number of points in the set.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// The lowest point of the set, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<usize> {
        let mut i = 0;
        while i < 4 {
            if self.0[i] != 0 {
                return Some(i * 64 + self.0[i].trailing_zeros() as usize);
            }
            i += 1;
        }
        None
    }

    /// The `n`-th lowest point of the set (0-based), if the set has more than `n` points.
    #[inline]
    #[must_use]
    pub fn nth(self, mut n: u32) -> Option<usize> {
        for (i, &word) in self.0.iter().enumerate() {
            let c = word.count_ones();
            if n < c {
                return Some(i * 64 + select_in_word(word, n) as usize);
            }
            n -= c;
        }
        None
    }

    /// The set shifted one row up (towards row 15); points on row 15 fall off.
    #[inline]
    #[must_use]
    pub const fn north(self) -> Bb256 {
        let w = self.0;
        Bb256([
            w[0] << 16,
            (w[1] << 16) | (w[0] >> 48),
            (w[2] << 16) | (w[1] >> 48),
            (w[3] << 16) | (w[2] >> 48),
        ])
    }

    /// The set shifted one row down; points on row 0 fall off.
    #[inline]
    #[must_use]
    pub const fn south(self) -> Bb256 {
        let w = self.0;
        Bb256([
            (w[0] >> 16) | (w[1] << 48),
            (w[1] >> 16) | (w[2] << 48),
            (w[2] >> 16) | (w[3] << 48),
            w[3] >> 16,
        ])
    }

    /// The set shifted one column right; points on column 15 fall off.
    #[inline]
    #[must_use]
    pub const fn east(self) -> Bb256 {
        let w = self.0;
        Bb256([
            (w[0] & !COL15) << 1,
            (w[1] & !COL15) << 1,
            (w[2] & !COL15) << 1,
            (w[3] & !COL15) << 1,
        ])
    }

    /// The set shifted one column left; points on column 0 fall off.
    #[inline]
    #[must_use]
    pub const fn west(self) -> Bb256 {
        let w = self.0;
        Bb256([
            (w[0] & !COL0) >> 1,
            (w[1] & !COL0) >> 1,
            (w[2] & !COL0) >> 1,
            (w[3] & !COL0) >> 1,
        ])
    }

    /// The set together with its orthogonal neighbours.
    #[inline]
    #[must_use]
    pub const fn dilate(self) -> Bb256 {
        let n = self.north().0;
        let s = self.south().0;
        let e = self.east().0;
        let w = self.west().0;
        let m = self.0;
        Bb256([
            m[0] | n[0] | s[0] | e[0] | w[0],
            m[1] | n[1] | s[1] | e[1] | w[1],
            m[2] | n[2] | s[2] | e[2] | w[2],
            m[3] | n[3] | s[3] | e[3] | w[3],
        ])
    }

    /// The points of the set, lowest first.
    #[must_use]
    pub fn points(self) -> Points {
        Points(self)
    }
}

/// The position (0..64) of the `n`-th set bit of `word`; `n` must be below its popcount.
#[inline]
fn select_in_word(word: u64, n: u32) -> u32 {
    // Narrow down by halves with popcounts: six steps, no loop over bits.
    let mut w = word;
    let mut n = n;
    let mut base = 0;
    for width in [32u32, 16, 8, 4, 2, 1] {
        let low = w & ((1u64 << width) - 1);
        let c = low.count_ones();
        if n >= c {
            n -= c;
            w >>= width;
            base += width;
        } else {
            w = low;
        }
    }
    base
}

/// Iterator over the points of a [`Bb256`], lowest first.
#[derive(Clone, Debug)]
pub struct Points(Bb256);

impl Iterator for Points {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let p = self.0.first()?;
        self.0.remove(p);
        Some(p)
    }
}

macro_rules! bitwise {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Bb256 {
            type Output = Bb256;
            #[inline]
            fn $f(self, rhs: Bb256) -> Bb256 {
                let (a, b) = (self.0, rhs.0);
                Bb256([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $assign for Bb256 {
            #[inline]
            fn $fa(&mut self, rhs: Bb256) {
                *self = *self $op rhs;
            }
        }
    };
}

bitwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bb256 {
    type Output = Bb256;
    #[inline]
    fn not(self) -> Bb256 {
        let a = self.0;
        Bb256([!a[0], !a[1], !a[2], !a[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_move_one_step_and_drop_points_off_the_grid() {
        let p = |row: usize, col: usize| Bb256::from_point(16 * row + col);
        assert_eq!(p(3, 15).north(), p(4, 15));
        assert_eq!(p(4, 0).south(), p(3, 0));
        assert_eq!(p(7, 14).east(), p(7, 15));
        assert_eq!(p(7, 15).east(), Bb256::EMPTY);
        assert_eq!(p(8, 0).west(), Bb256::EMPTY);
        assert_eq!(p(15, 3).north(), Bb256::EMPTY);
        assert_eq!(p(0, 3).south(), Bb256::EMPTY);
        assert_eq!(p(9, 1).west(), p(9, 0));
    }

    #[test]
    fn nth_selects_points_in_increasing_order() {
        let mut b = Bb256::EMPTY;
        for point in [0, 5, 63, 64, 100, 200, 255] {
            b.insert(point);
        }
        let listed: Vec<usize> = b.points().collect();
        assert_eq!(listed, vec![0, 5, 63, 64, 100, 200, 255]);
        for (n, &point) in listed.iter().enumerate() {
            assert_eq!(b.nth(n as u32), Some(point));
        }
        assert_eq!(b.nth(7), None);
    }

    #[test]
    fn select_in_word_matches_a_bit_by_bit_scan() {
        let word = 0xF0F0_1234_8000_0001u64;
        let ones: Vec<u32> = (0..64).filter(|i| word >> i & 1 == 1).collect();
        for (n, &bit) in ones.iter().enumerate() {
            assert_eq!(select_in_word(word, n as u32), bit);
        }
    }

    #[test]
    fn a_board_is_empty_only_without_a_bit_in_any_word() {
        assert!(Bb256::EMPTY.is_empty());
        // The same bit in two words (their xor is 0), and one bit in each of the four.
        for cells in [
            &[0, 64][..],
            &[64, 128],
            &[128, 192],
            &[0, 192],
            &[5, 69, 133, 197],
            &[255],
        ] {
            let mut b = Bb256::EMPTY;
            for &c in cells {
                b.insert(c);
            }
            assert!(!b.is_empty(), "{cells:?}");
        }
    }
}
