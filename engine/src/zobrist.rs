//! Zobrist keys made at compile time from a fixed seed, so hashes are the same in every build.

/// Keys for `2 × CELLS` (colour, cell) pairs and `PHASES` turn phases.
#[derive(Debug)]
pub struct Zobrist<const CELLS: usize, const PHASES: usize> {
    pieces: [[u64; CELLS]; 2],
    phases: [u64; PHASES],
}

/// One step of SplitMix64: a good 64-bit mixer for seeding and key generation.
#[must_use]
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<const CELLS: usize, const PHASES: usize> Zobrist<CELLS, PHASES> {
    /// Keys derived from `seed`; different games use different seeds.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        let mut state = splitmix64(seed);
        let mut pieces = [[0; CELLS]; 2];
        let mut phases = [0; PHASES];
        let mut colour = 0;
        while colour < 2 {
            let mut cell = 0;
            while cell < CELLS {
                state = splitmix64(state);
                pieces[colour][cell] = state;
                cell += 1;
            }
            colour += 1;
        }
        let mut phase = 0;
        while phase < PHASES {
            state = splitmix64(state);
            phases[phase] = state;
            phase += 1;
        }
        Zobrist { pieces, phases }
    }

    /// The key of a stone of `colour` (0 or 1) on `cell`.
    #[inline]
    #[must_use]
    pub const fn piece(&self, colour: usize, cell: usize) -> u64 {
        self.pieces[colour][cell]
    }

    /// The keys of every stone of two bitboards (bit `i` of `boards[c]` is a stone of colour
    /// `c` on cell `i`), combined: the pieces' part of a hash from scratch for games whose
    /// board fits in 64 cells.
    #[must_use]
    pub fn of_bitboards(&self, boards: [u64; 2]) -> u64 {
        let mut h = 0;
        for (colour, &board) in boards.iter().enumerate() {
            let mut rest = board;
            while rest != 0 {
                h ^= self.piece(colour, rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
        h
    }

    /// The key of turn phase `phase` (who moves, and whatever else the game's turn order holds).
    #[inline]
    #[must_use]
    pub const fn phase(&self, phase: u32) -> u64 {
        self.phases[phase as usize]
    }
}
