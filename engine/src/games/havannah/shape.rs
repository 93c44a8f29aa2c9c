//! The shape around a cell: its six neighbours and the six cells a bridge away, each empty,
//! the mover's, the opponent's or off the board, numbered the same under the board's twelve
//! symmetries; and the weights of the shapes learned from strong play (`shapes.txt`; in the
//! context of the last stone, `shapes-ctx.txt`).

use std::sync::OnceLock;

use crate::shapes::WeightTable;

use super::{EMPTY, Havannah, OFF, OFFSETS};

/// The twelve places of a shape: the six neighbours in [`OFFSETS`]' order, then the six
/// cells a bridge away, the one between neighbours `k` and `k + 1` at place `6 + k`.
const PLACES: [(i32, i32); 12] = {
    let mut p = [(0, 0); 12];
    let mut k = 0;
    while k < 6 {
        p[k] = OFFSETS[k];
        let (a, b) = (OFFSETS[k], OFFSETS[(k + 1) % 6]);
        p[6 + k] = (a.0 + b.0, a.1 + b.1);
        k += 1;
    }
    p
};

/// For each of the board's twelve symmetries (six turns, each with and without the mirror
/// `(x, y) → (y, x)`), the place each place goes to. A turn by 60° takes neighbour `k` to
/// `k + 1`; the mirror takes neighbour `k` to `−k` and the bridge between `k` and `k + 1` to
/// the one between `−k − 1` and `−k`.
const SYMMETRIES: [[usize; 12]; 12] = {
    let mut s = [[0; 12]; 12];
    let mut turn = 0;
    while turn < 6 {
        let mut mirror = 0;
        while mirror < 2 {
            let mut k = 0;
            while k < 6 {
                let (n, b) = if mirror == 0 {
                    (k, k)
                } else {
                    ((6 - k) % 6, (11 - k) % 6)
                };
                s[2 * turn + mirror][k] = (n + turn) % 6;
                s[2 * turn + mirror][6 + k] = 6 + (b + turn) % 6;
                k += 1;
            }
            mirror += 1;
        }
        turn += 1;
    }
    s
};

/// A place's state in a shape by its owner (player 0, player 1, `EMPTY`, `OFF`), for each
/// mover: empty 0, the mover's 1, the opponent's 2, off the board 3.
const STATES: [[u32; 4]; 2] = {
    let mut s = [[0; 4]; 2];
    let mut me = 0;
    while me < 2 {
        s[me][me] = 1;
        s[me][1 - me] = 2;
        s[me][EMPTY as usize] = 0;
        s[me][OFF as usize] = 3;
        me += 1;
    }
    s
};

/// For each cell of a board of base `base`, the cells at its twelve places (row-major index,
/// `x + diameter·y`); a place outside the square of cells reads the cell `(0, diameter − 1)`,
/// which is off the hexagonal board on every base.
fn places(base: usize) -> &'static [[u16; 12]] {
    static TABLES: [OnceLock<Vec<[u16; 12]>>; 11] = [const { OnceLock::new() }; 11];
    TABLES[base].get_or_init(|| cells_at(base, PLACES))
}

/// For each cell of a board of base `base`, the cells at `places` (offsets from it), as
/// [`places`] gives them.
fn cells_at<const N: usize>(base: usize, places: [(i32, i32); N]) -> Vec<[u16; N]> {
    let d = 2 * base as i32 - 1;
    let outside = (d * (d - 1)) as u16;
    (0..d * d)
        .map(|c| {
            let (x, y) = (c % d, c / d);
            places.map(|(dx, dy)| {
                let (px, py) = (x + dx, y + dy);
                if px < 0 || py < 0 || px >= d || py >= d {
                    outside
                } else {
                    (px + d * py) as u16
                }
            })
        })
        .collect()
}

impl Havannah {
    /// The shape around cell `c` for player `me` as it lies on the board: two bits a place,
    /// place `i` at bits `2i`.
    fn shape_as_placed(&self, c: usize, me: u8) -> u32 {
        let states = &STATES[usize::from(me)];
        places(self.base as usize)[c]
            .iter()
            .enumerate()
            .fold(0, |key, (i, &p)| {
                key | states[usize::from(self.owner[usize::from(p)])] << (2 * i)
            })
    }

    /// The empty cells among the twelve places of cell `c`, in the places' order.
    pub(super) fn empty_places(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        places(self.base as usize)[c]
            .iter()
            .map(|&p| usize::from(p))
            .filter(|&p| self.owner[p] == EMPTY)
    }

    /// The shape around cell `c` for player `me`: the smallest number of the shape as it lies
    /// over the twelve symmetries.
    pub(super) fn shape_of(&self, c: usize, me: u8) -> u32 {
        lowest_turn(self.shape_as_placed(c, me))
    }

    /// The learned weight of the shape around cell `c` for player `me` (0 for a shape the
    /// table lacks): one probe of a table that holds every symmetry of each shape, so the
    /// shape is read as it lies.
    pub(super) fn shape_weight(&self, c: usize, me: u8) -> f64 {
        shape_table().weight(self.shape_as_placed(c, me))
    }
}

/// The eighteen places of a wide shape, the cells within distance 2: the twelve of
/// [`PLACES`], then the six two steps along a line, the one beyond neighbour `k` at place
/// `12 + k`.
const WIDE_PLACES: [(i32, i32); 18] = {
    let mut p = [(0, 0); 18];
    let mut k = 0;
    while k < 12 {
        p[k] = PLACES[k];
        k += 1;
    }
    let mut k = 0;
    while k < 6 {
        p[12 + k] = (2 * OFFSETS[k].0, 2 * OFFSETS[k].1);
        k += 1;
    }
    p
};

/// [`SYMMETRIES`] of the wide shape's places: a place two steps beyond neighbour `k` goes
/// where neighbour `k` goes, two steps out.
const WIDE_SYMMETRIES: [[usize; 18]; 12] = {
    let mut s = [[0; 18]; 12];
    let mut t = 0;
    while t < 12 {
        let mut k = 0;
        while k < 12 {
            s[t][k] = SYMMETRIES[t][k];
            k += 1;
        }
        let mut k = 0;
        while k < 6 {
            s[t][12 + k] = 12 + SYMMETRIES[t][k];
            k += 1;
        }
        t += 1;
    }
    s
};

/// For each cell of a board of base `base`, the cells at its eighteen wide places, as
/// [`places`] gives the twelve.
fn wide_places(base: usize) -> &'static [[u16; 18]] {
    static TABLES: [OnceLock<Vec<[u16; 18]>>; 11] = [const { OnceLock::new() }; 11];
    TABLES[base].get_or_init(|| cells_at(base, WIDE_PLACES))
}

/// For each symmetry, each byte (four places, the last two) of a wide shape, and each value
/// of that byte: the byte's places moved where the symmetry takes them. A wide shape turns
/// by five lookups, as [`TURNS`] turns a shape by three.
fn wide_turns() -> &'static [[[u64; 256]; 5]; 12] {
    static TABLE: OnceLock<Box<[[[u64; 256]; 5]; 12]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([[[0u64; 256]; 5]; 12]);
        for (turns, to) in table.iter_mut().zip(&WIDE_SYMMETRIES) {
            for (byte, row) in turns.iter_mut().enumerate() {
                for (v, out) in row.iter_mut().enumerate() {
                    for place in (4 * byte..18).take(4) {
                        *out |= ((v as u64 >> (2 * (place - 4 * byte))) & 3) << (2 * to[place]);
                    }
                }
            }
        }
        table
    })
}

/// The smallest number of wide shape `key` (as it lies) over the twelve symmetries.
fn lowest_wide_turn(key: u64) -> u64 {
    let b = [0, 8, 16, 24, 32].map(|s| ((key >> s) & 0xff) as usize);
    wide_turns()
        .iter()
        .map(|t| t[0][b[0]] | t[1][b[1]] | t[2][b[2]] | t[3][b[3]] | t[4][b[4]])
        .min()
        .expect("twelve symmetries")
}

impl Havannah {
    /// The wide shape around cell `c` for player `me` (the 18 cells within distance 2, two
    /// bits a place, place `i` at bits `2i`): the smallest number over the twelve symmetries.
    /// Its low 24 bits are the twelve-place shape in one of its turns, so a wide shape fixes
    /// its shape ([`Havannah::shape_of`]).
    pub(super) fn wide_shape_of(&self, c: usize, me: u8) -> u64 {
        let states = &STATES[usize::from(me)];
        let placed =
            wide_places(self.base as usize)[c]
                .iter()
                .enumerate()
                .fold(0u64, |key, (i, &p)| {
                    key | u64::from(states[usize::from(self.owner[usize::from(p)])]) << (2 * i)
                });
        lowest_wide_turn(placed)
    }
}

/// Wide shape `key` with each place's state moved where symmetry `to` takes it.
#[cfg(test)]
fn wide_turned(key: u64, to: &[usize; 18]) -> u64 {
    (0..18).fold(0, |k, i| k | ((key >> (2 * i)) & 3) << (2 * to[i]))
}

/// Shape `key` with each place's state moved where symmetry `to` takes it.
fn turned(key: u32, to: &[usize; 12]) -> u32 {
    (0..12).fold(0, |k, i| k | ((key >> (2 * i)) & 3) << (2 * to[i]))
}

/// The smallest number of shape `key` over the twelve symmetries: [`turned`] read from
/// [`TURNS`] a byte (four places) at a time.
pub(super) fn lowest_turn(key: u32) -> u32 {
    let bytes = [key & 0xff, (key >> 8) & 0xff, (key >> 16) & 0xff].map(|b| b as usize);
    TURNS
        .iter()
        .map(|t| t[0][bytes[0]] | t[1][bytes[1]] | t[2][bytes[2]])
        .min()
        .expect("twelve symmetries")
}

/// [`turned`] of each byte of a shape on its own, by symmetry, byte and value: a shape's
/// turn is the three bytes' turns together (each place's two bits move on their own).
/// 36 KiB, worked out at compile time.
static TURNS: [[[u32; 256]; 3]; 12] = {
    let mut table = [[[0; 256]; 3]; 12];
    let mut s = 0;
    while s < 12 {
        let mut byte = 0;
        while byte < 3 {
            let mut v = 0;
            while v < 256 {
                let mut turn = 0;
                let mut place = 0;
                while place < 4 {
                    let bits = (v >> (2 * place)) & 3;
                    turn |= (bits as u32) << (2 * SYMMETRIES[s][4 * byte + place]);
                    place += 1;
                }
                table[s][byte][v] = turn;
                v += 1;
            }
            byte += 1;
        }
        s += 1;
    }
    table
};

/// The shipped weights: `ln γ` of each shape, Bradley–Terry strengths fitted to the moves of
/// strong players (`arena tune shapes`; the command and the games are in the file's header).
const SHAPES: &str = include_str!("shapes.txt");

/// The weights by shape as it lies: every symmetry of each shipped shape, in a
/// [`WeightTable`] (the shipped 14,152 shapes lie at most 169,824 ways: 2¹⁹ slots of 8 bytes,
/// 4 MiB, a third full or less).
struct ShapeTable(WeightTable);

impl ShapeTable {
    /// The table of `shapes` (each as its smallest number) and all their symmetries.
    fn new(shapes: &[(u32, f32)]) -> ShapeTable {
        let turns = shapes
            .iter()
            .flat_map(|&(key, weight)| SYMMETRIES.iter().map(move |to| (turned(key, to), weight)));
        ShapeTable(WeightTable::with_entries(
            shapes.len() * SYMMETRIES.len(),
            turns,
        ))
    }

    /// The weight of shape `key` as it lies (0 when no symmetry of it was shipped).
    fn weight(&self, key: u32) -> f64 {
        self.0.get(key).map_or(0.0, f64::from)
    }
}

/// The shipped context fit: `ln γ` of each shape beside its distance to the last stone (1, 2,
/// or 3 for 3 and more), its key [`crate::shapes::key`] of the shape and that distance, fitted
/// to Castro's moves by `arena tune shapes --context` (`results/castro-best/shapes-ctx/`, byte
/// for byte); read by the term `shape_ctx`.
const SHAPES_CTX: &str = include_str!("shapes-ctx.txt");

/// [`SHAPES_CTX`] read once, by key (each shape as its smallest number, with its context).
fn context_table() -> &'static WeightTable {
    static TABLE: OnceLock<WeightTable> = OnceLock::new();
    TABLE.get_or_init(|| WeightTable::new(&parse_shapes(SHAPES_CTX)))
}

/// The shipped context fit's weight of shapes-file `key` ([`crate::shapes::move_key`] in
/// context: the move's shape and its distance to the last stone), 0 for a key the fit lacks:
/// what `shapes=FILE` of the same file reads in place of `shape`.
pub(super) fn context_weight(key: u32) -> f64 {
    context_table().get(key).map_or(0.0, f64::from)
}

/// The shipped wide fit: the 12-cell shapes of a context fit written in full, and the wide
/// shapes (18 cells) offered 20 times or more fitted over them, each beside its distance to
/// the last stone (`arena tune shapes --context --wide --over`,
/// `results/castro-best/shapes-wide/`, byte for byte); read by the term `shape_wide`.
const SHAPES_WIDE: &str = include_str!("shapes-wide.txt");

/// The shipped wide fit's weight of `mv` as a player reads it
/// ([`crate::shapes::ShapeReader::weight`]: its wide shape's where the fit has it, else its
/// shape's), 0 where the fit has neither.
pub(super) fn wide_weight(h: &Havannah, mv: super::Cell) -> f64 {
    static READER: OnceLock<crate::shapes::ShapeReader> = OnceLock::new();
    read_weight(&READER, SHAPES_WIDE, h, mv)
}

/// The wide fit refitted on twice the games: [`SHAPES_WIDE`]'s method and options on 13,951
/// games of Castro's moves where it had 6,600 (`results/castro-best/shapes-wide2/`, byte for
/// byte); read by the term `shape_wide2`.
const SHAPES_WIDE2: &str = include_str!("shapes-wide2.txt");

/// The refitted wide fit's weight of `mv` as a player reads it, as [`wide_weight`] reads
/// [`SHAPES_WIDE`].
pub(super) fn wide2_weight(h: &Havannah, mv: super::Cell) -> f64 {
    static READER: OnceLock<crate::shapes::ShapeReader> = OnceLock::new();
    read_weight(&READER, SHAPES_WIDE2, h, mv)
}

/// The weight of `mv` read from shipped shapes file `text` by `reader`, which reads `text`
/// the first time it is asked; 0 where the file has neither the move's wide shape nor its
/// shape.
fn read_weight(
    reader: &OnceLock<crate::shapes::ShapeReader>,
    text: &str,
    h: &Havannah,
    mv: super::Cell,
) -> f64 {
    let reader = reader.get_or_init(|| {
        let weights =
            crate::shapes::parse_shape_weights(text).expect("the shipped wide shapes file reads");
        crate::shapes::ShapeReader::new(&weights)
    });
    reader.weight(h, mv).map_or(0.0, f64::from)
}

/// [`SHAPES`] read once.
fn shape_table() -> &'static ShapeTable {
    static TABLE: OnceLock<ShapeTable> = OnceLock::new();
    TABLE.get_or_init(|| ShapeTable::new(&parse_shapes(SHAPES)))
}

/// The shapes and weights of a shapes file; the shipped file is checked by a test, so a bad
/// line here is a build's mistake.
fn parse_shapes(text: &str) -> Vec<(u32, f32)> {
    let weights = crate::shapes::parse_shape_weights(text).expect("the shipped shapes file reads");
    crate::shapes::shape_keys(&weights)
}

/// The shipped context fit's shapes and weights, sorted, for the tests.
#[cfg(test)]
pub(super) fn shipped_context_shapes() -> Vec<(u32, f32)> {
    parse_shapes(SHAPES_CTX)
}

/// The shipped shapes and weights, sorted, for the tests.
#[cfg(test)]
pub(super) fn shipped_shapes() -> Vec<(u32, f32)> {
    parse_shapes(SHAPES)
}

/// Where place `i` of a shape lies from its cell, for the tests.
#[cfg(test)]
pub(super) fn place(i: usize) -> (i32, i32) {
    PLACES[i]
}

#[cfg(test)]
impl Havannah {
    /// Sets each cell's owner from a shape's state (1 the player to move, 2 the other, 0
    /// empty), touching nothing else: enough for [`Havannah::shape_of`].
    pub(super) fn set_for_test(&mut self, cells: &[(super::Cell, u32)]) {
        let me = self.to_move.index() as u8;
        for &(cell, state) in cells {
            self.owner[cell.0 as usize] = match state {
                1 => me,
                2 => 1 - me,
                _ => EMPTY,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_tables_turn_a_shape_as_its_places_do() {
        // Every shape of the first 2^16 and a spread of the rest (2^24 in all), each place's
        // two bits moved by each symmetry, against the place-by-place turn.
        let slow = |key: u32| SYMMETRIES.iter().map(|to| turned(key, to)).min().unwrap();
        let keys = (0..1u32 << 16).chain((0..1u32 << 24).step_by(997));
        for key in keys {
            assert_eq!(lowest_turn(key), slow(key), "shape {key:#08x}");
        }
        // Not the identity: some shape's lowest turn is another number.
        assert!((0..4096).any(|k| lowest_turn(k) != k));
    }

    #[test]
    fn the_wide_byte_tables_turn_a_wide_shape_as_its_places_do() {
        let slow = |key: u64| {
            let turns = WIDE_SYMMETRIES.iter().map(|to| wide_turned(key, to));
            turns.min().unwrap()
        };
        let mut x = 12345u64;
        for _ in 0..100_000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let key = (x >> 20) & ((1 << 36) - 1);
            assert_eq!(lowest_wide_turn(key), slow(key), "wide shape {key:#011x}");
        }
        // The twelve inner places turn as the shape's do.
        for to in &WIDE_SYMMETRIES {
            assert!(to.iter().all(|&p| p < 18));
        }
        for (wide, narrow) in WIDE_SYMMETRIES.iter().zip(&SYMMETRIES) {
            assert_eq!(wide[..12], narrow[..]);
        }
        // Each outer place lies two steps beyond its neighbour.
        for k in 0..6 {
            assert_eq!(WIDE_PLACES[12 + k], (2 * PLACES[k].0, 2 * PLACES[k].1));
        }
    }
}
