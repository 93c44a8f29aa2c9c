//! The shapes file: the strength of each local shape around a move, as `arena tune shapes`
//! writes it and agents read it (a game's shipped shapes; `mcts:shapes=FILE`).
//!
//! `#` lines are comments (the fit's header); every other line is `key ln_gamma` and any
//! further fields (the fit writes how often the shape was chosen and offered), the key a
//! number of [`crate::Features::move_shape`] and `ln_gamma` its Bradley–Terry strength, 0
//! the average candidate.
//!
//! A file fitted **in context** (`arena tune shapes --context`) fits each shape once for each
//! context the game gives it ([`crate::Features::shape_context`]: Havannah's, the distance to
//! the last stone), the key being `shape + CONTEXT_UNIT · context` ([`key`]). Shapes are below
//! [`CONTEXT_UNIT`], so a file is in context exactly when a key reaches it ([`in_context`]),
//! and a reader composes its keys the same way.
//!
//! A file may also hold **wide shapes** ([`crate::Features::move_wide_shape`]: Havannah's 18
//! cells within distance 2), keyed `WIDE + shape + WIDE_CONTEXT_UNIT · context`
//! ([`wide_key`]), so that a wide key is never a shape key (those are below 2³²). A player
//! reads a move's wide shape where the file has it and its shape where not
//! ([`ShapeReader::weight`]): a wide fit refines the shapes it was fitted over
//! (`arena tune shapes --wide --over FILE`).

/// What a context step adds to a shape's key in a shapes file fitted in context: `2²⁴`, above
/// every shape (Havannah's are twelve places of two bits).
pub const CONTEXT_UNIT: u32 = 1 << 24;

/// The mark of a wide shape's key ([`wide_key`]): `2⁴⁸`, above every shape key and every wide
/// shape with its context.
pub const WIDE: u64 = 1 << 48;

/// What a context step adds to a wide shape's key: `2⁴⁰`, above every wide shape (Havannah's
/// are eighteen places of two bits).
pub const WIDE_CONTEXT_UNIT: u64 = 1 << 40;

/// The key of `shape` seen in `context` (below 256) in a shapes file fitted in context.
#[must_use]
pub fn key(shape: u32, context: u32) -> u32 {
    shape + CONTEXT_UNIT * context
}

/// The key of wide shape `shape` (below [`WIDE_CONTEXT_UNIT`]) seen in `context` (below 256):
/// `WIDE + shape + WIDE_CONTEXT_UNIT · context`.
#[must_use]
pub fn wide_key(shape: u64, context: u32) -> u64 {
    WIDE + shape + WIDE_CONTEXT_UNIT * u64::from(context)
}

/// The key of `mv`'s shape at `state` in a shapes file: the shape
/// ([`crate::Features::move_shape`]), with its context ([`crate::Features::shape_context`])
/// when the file is fitted `in_context`; `None` when the move has no shape. What a fit writes
/// and a player looks up.
pub fn move_key<G: crate::Features>(state: &G, mv: G::Move, in_context: bool) -> Option<u32> {
    let shape = state.move_shape(mv)?;
    Some(if in_context {
        key(shape, state.shape_context(mv))
    } else {
        shape
    })
}

/// The key of `mv`'s wide shape ([`crate::Features::move_wide_shape`]) in a shapes file, as
/// [`move_key`] is of its shape; `None` when the move has no wide shape.
pub fn move_wide_key<G: crate::Features>(state: &G, mv: G::Move, in_context: bool) -> Option<u64> {
    let shape = state.move_wide_shape(mv)?;
    Some(wide_key(
        shape,
        if in_context {
            state.shape_context(mv)
        } else {
            0
        },
    ))
}

/// Whether shapes-file weights (as [`parse_shape_weights`] returns them, sorted) were fitted
/// in context: a shape key reaches [`CONTEXT_UNIT`] or a wide key [`WIDE_CONTEXT_UNIT`].
#[must_use]
pub fn in_context(weights: &[(u64, f32)]) -> bool {
    weights.iter().any(|&(k, _)| {
        if k >= WIDE {
            k - WIDE >= WIDE_CONTEXT_UNIT
        } else {
            k >= u64::from(CONTEXT_UNIT)
        }
    })
}

/// The keys and their weights (`ln γ`) of shapes-file `text`, sorted by key; or what is wrong
/// with it and on which line (a key given twice, a field that is not a number, a key that is
/// neither a shape's, below 2³², nor a wide shape's, from [`WIDE`] to below `2 · WIDE`, a
/// weight that is not finite, no shape at all).
pub fn parse_shape_weights(text: &str) -> Result<Vec<(u64, f32)>, String> {
    // A file is read whole or not at all: one cut mid-write (its last line without its
    // newline) could end in a valid but wrong weight.
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!(
            "line {}: cut short (the file does not end with a newline, as a file written whole does)",
            text.lines().count()
        ));
    }
    let mut shapes = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let wrong = |what: &str| format!("line {}: {what}", at + 1);
        let mut fields = line.split_whitespace();
        let (Some(shape), Some(weight)) = (fields.next(), fields.next()) else {
            return Err(wrong("a shape and its weight, `shape ln_gamma`"));
        };
        if let Some(extra) = fields.find(|f| f.parse::<u64>().is_err()) {
            return Err(wrong(&format!(
                "{extra} after the weight is not a count (`shape ln_gamma [chosen offered]`)"
            )));
        }
        let key: u64 = shape
            .parse()
            .map_err(|_| wrong(&format!("shape {shape} is not a whole number")))?;
        if key > u64::from(u32::MAX) && !(WIDE..2 * WIDE).contains(&key) {
            return Err(wrong(&format!(
                "shape {key} is neither a shape's key (below 2^32) nor a wide shape's (2^48 to below 2^49)"
            )));
        }
        let weight = match weight.parse::<f32>() {
            Ok(w) if w.is_finite() => w,
            _ => return Err(wrong(&format!("weight {weight} is not a finite number"))),
        };
        shapes.push((key, weight, at + 1));
    }
    if shapes.is_empty() {
        return Err("no shapes in it (lines of `shape ln_gamma`)".into());
    }
    shapes.sort_unstable_by_key(|&(shape, _, _)| shape);
    if let Some(pair) = shapes.windows(2).find(|p| p[0].0 == p[1].0) {
        return Err(format!(
            "line {}: shape {} again (first on line {})",
            pair[0].2.max(pair[1].2),
            pair[0].0,
            pair[0].2.min(pair[1].2)
        ));
    }
    Ok(shapes.into_iter().map(|(s, w, _)| (s, w)).collect())
}

/// The shape keys (below 2³²) of shapes-file weights, as `u32`, with their weights.
#[must_use]
pub fn shape_keys(weights: &[(u64, f32)]) -> Vec<(u32, f32)> {
    weights
        .iter()
        .filter_map(|&(k, w)| u32::try_from(k).ok().map(|k| (k, w)))
        .collect()
}

/// A shapes file as a player reads it: a move's wide shape's weight where the file has it,
/// else its shape's, else none (the average candidate); each in its context when the file
/// was fitted in context.
#[derive(Debug, Clone)]
pub struct ShapeReader {
    shapes: WeightTable,
    wide: WeightTable<u64>,
    in_context: bool,
}

impl ShapeReader {
    /// The reader of shapes-file weights (as [`parse_shape_weights`] returns them).
    #[must_use]
    pub fn new(weights: &[(u64, f32)]) -> Self {
        let wide: Vec<(u64, f32)> = weights
            .iter()
            .copied()
            .filter(|&(k, _)| k >= WIDE)
            .collect();
        ShapeReader {
            shapes: WeightTable::new(&shape_keys(weights)),
            wide: WeightTable::new(&wide),
            in_context: in_context(weights),
        }
    }

    /// Whether the file was fitted in context ([`in_context`]).
    #[must_use]
    pub fn in_context(&self) -> bool {
        self.in_context
    }

    /// Whether the file holds wide shapes.
    #[must_use]
    pub fn has_wide(&self) -> bool {
        !self.wide.is_empty()
    }

    /// The weight the file gives `mv` at `state`: its wide shape's ([`move_wide_key`]) where
    /// the file holds it, else its shape's ([`move_key`]); `None` where it holds neither (the
    /// average candidate, 0) or the move has no shape.
    pub fn weight<G: crate::Features>(&self, state: &G, mv: G::Move) -> Option<f32> {
        // The move's context, found once for both keys.
        let context = if self.in_context {
            state.shape_context(mv)
        } else {
            0
        };
        if !self.wide.is_empty()
            && let Some(shape) = state.move_wide_shape(mv)
            && let Some(weight) = self.wide.get(wide_key(shape, context))
        {
            return Some(weight);
        }
        let shape = state.move_shape(mv)?;
        self.shapes.get(key(shape, context))
    }
}

/// A key of a [`WeightTable`]: a whole number with a multiplicative hash, one value of which
/// ([`TableKey::FREE`], the largest) marks a free slot.
pub trait TableKey: Copy + Eq + std::fmt::Debug {
    /// The value that marks a free slot (kept aside when a table holds it as a key).
    const FREE: Self;
    /// The top `bits` bits (at least 1) of the key's multiplicative hash.
    fn slot(self, bits: u32) -> usize;
}

impl TableKey for u32 {
    const FREE: u32 = u32::MAX;
    fn slot(self, bits: u32) -> usize {
        (self.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
    }
}

impl TableKey for u64 {
    const FREE: u64 = u64::MAX;
    fn slot(self, bits: u32) -> usize {
        (self.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }
}

/// Weights by key (a shapes file's, or any table keyed by `u32` or `u64`) in an open-addressed
/// table at most half full, probed linearly from a multiplicative hash's top bits: a lookup
/// reads one or two slots where a binary search over a file of 17,000 shapes takes fifteen
/// dependent reads. A key given twice keeps its last weight.
#[derive(Debug, Clone)]
pub struct WeightTable<K: TableKey = u32> {
    slots: Vec<(K, f32)>,
    /// The log₂ of the slots.
    bits: u32,
    /// The weight of key [`TableKey::FREE`], which marks a free slot and so is kept aside.
    last_key: Option<f32>,
    /// Keys held.
    len: usize,
}

impl<K: TableKey> WeightTable<K> {
    /// A table of `entries`, sized for `count` of them (more only crowd it: each entry beyond
    /// `count` lengthens the probes).
    pub fn with_entries(count: usize, entries: impl IntoIterator<Item = (K, f32)>) -> Self {
        let size = (count * 2).next_power_of_two().max(16);
        let mut table = WeightTable {
            slots: vec![(K::FREE, 0.0); size],
            bits: size.trailing_zeros(),
            last_key: None,
            len: 0,
        };
        for (key, weight) in entries {
            if key == K::FREE {
                table.len += usize::from(table.last_key.is_none());
                table.last_key = Some(weight);
                continue;
            }
            let at = table.find(key);
            table.len += usize::from(table.slots[at].0 == K::FREE);
            table.slots[at] = (key, weight);
        }
        table
    }

    /// The table of `weights` (a shapes file's, as [`shape_keys`] gives them).
    #[must_use]
    pub fn new(weights: &[(K, f32)]) -> Self {
        Self::with_entries(weights.len(), weights.iter().copied())
    }

    /// The slot holding `key` (not [`TableKey::FREE`]), or the free slot where it would go.
    fn find(&self, key: K) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = key.slot(self.bits);
        while self.slots[at].0 != key && self.slots[at].0 != K::FREE {
            at = (at + 1) & mask;
        }
        at
    }

    /// The weight of `key`, if the table holds it.
    #[must_use]
    pub fn get(&self, key: K) -> Option<f32> {
        if key == K::FREE {
            return self.last_key;
        }
        let (k, weight) = self.slots[self.find(key)];
        (k == key).then_some(weight)
    }

    /// How many keys the table holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table holds no key.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shapes_file_reads_sorted_past_its_comments_and_extra_fields() {
        let text = "# Shape strengths of havannah\n# shape ln_gamma chosen offered\n\
                    6 1.8183 2039 25405\n0 -4.3662 2076 5938429\n\n2 -2.5\n";
        assert_eq!(
            parse_shape_weights(text).unwrap(),
            vec![(0, -4.3662), (2, -2.5), (6, 1.8183)]
        );
    }

    #[test]
    fn a_file_is_in_context_exactly_when_a_key_carries_a_context() {
        assert_eq!(key(5, 0), 5);
        assert_eq!(key(5, 3), 5 + 3 * (1 << 24));
        let plain = parse_shape_weights("16777215 0.5\n3 0.1\n").unwrap();
        assert!(!in_context(&plain));
        let fitted = parse_shape_weights(&format!("{} 0.5\n3 0.1\n", key(7, 1))).unwrap();
        assert!(in_context(&fitted));
        assert!(!in_context(&[]));
        // A wide key carries its context above WIDE_CONTEXT_UNIT, and only there.
        assert_eq!(wide_key(5, 0), WIDE + 5);
        assert_eq!(wide_key(5, 2), WIDE + 5 + 2 * (1 << 40));
        let wide_plain = [(3, 0.1), (wide_key((1 << 40) - 1, 0), 0.5)];
        assert!(!in_context(&wide_plain));
        assert!(in_context(&[(3, 0.1), (wide_key(0, 1), 0.5)]));
    }

    #[test]
    fn a_bad_shapes_file_says_which_line_and_what() {
        for (text, says) in [
            ("# header\n5\n", "line 2: a shape and its weight"),
            ("5 0.1\n-3 0.2\n", "line 2: shape -3 is not a whole number"),
            ("5 zero\n", "line 1: weight zero is not a finite number"),
            ("5 inf\n", "line 1: weight inf is not a finite number"),
            (
                "5 0.1\n7 0.2\n5 0.3\n",
                "line 3: shape 5 again (first on line 1)",
            ),
            ("# only a header\n", "no shapes in it"),
            (
                "4294967296 0.1\n",
                "line 1: shape 4294967296 is neither a shape's key",
            ),
            (
                "562949953421312 0.1\n",
                "line 1: shape 562949953421312 is neither",
            ),
            // Cut mid-write: a last line without its newline.
            ("5 0.1 3 9\n553984 -0.54", "line 2: cut short"),
            ("5 0.1 x\n", "line 1: x after the weight is not a count"),
        ] {
            let err = parse_shape_weights(text).unwrap_err();
            assert!(err.starts_with(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_weight_table_finds_every_key_it_was_given_and_no_other() {
        // Keys that crowd one hash neighbourhood, the free-slot mark itself, and a repeat.
        let mut entries: Vec<(u32, f32)> = (0..5000u32).map(|k| (k * 64, k as f32)).collect();
        entries.push((u32::MAX, -1.5));
        entries.push((key(7, 3), 0.25));
        let table = WeightTable::new(&entries);
        assert_eq!(table.len(), entries.len());
        for &(k, w) in &entries {
            assert_eq!(table.get(k), Some(w), "key {k}");
        }
        for missing in [1, 63, 65, 5000 * 64, key(7, 2), u32::MAX - 1] {
            assert_eq!(table.get(missing), None, "key {missing}");
        }
        let repeated = WeightTable::with_entries(2, [(9, 1.0), (9, 2.0), (u32::MAX, 3.0)]);
        assert_eq!((repeated.get(9), repeated.len()), (Some(2.0), 2));
        assert!(WeightTable::<u32>::new(&[]).is_empty());
        assert_eq!(WeightTable::<u32>::new(&[]).get(u32::MAX), None);
        // Keyed by u64: wide keys that differ only above bit 32 are told apart.
        let wide: Vec<(u64, f32)> = (0..3000u64)
            .map(|k| (wide_key(k << 20, 1), k as f32))
            .collect();
        let table = WeightTable::new(&wide);
        for &(k, w) in &wide {
            assert_eq!(table.get(k), Some(w));
        }
        assert_eq!(table.get(wide_key(1 << 20, 2)), None);
        assert_eq!(table.get(u64::from(key(1 << 20, 1))), None);
    }

    #[test]
    fn a_wide_key_is_never_a_shape_key_and_reads_back_whole() {
        let text = format!(
            "{} 1.5\n7 0.25\n{} -2\n",
            wide_key(7, 3),
            wide_key((1 << 36) - 1, 255)
        );
        let weights = parse_shape_weights(&text).unwrap();
        assert_eq!(shape_keys(&weights), vec![(7, 0.25)]);
        assert_eq!(weights[1], (WIDE + 7 + 3 * WIDE_CONTEXT_UNIT, 1.5));
        assert!(weights[2].0 < 2 * WIDE);
        assert!(u64::from(key(u32::MAX >> 8, 255)) < WIDE);
    }
}
