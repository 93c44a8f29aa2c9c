//! The shapes file: the strength of each local shape around a move, as `arena tune shapes`
//! writes it and agents read it (a game's shipped shapes; `mcts:shapes=FILE`).
//!
//! `#` lines are comments (the fit's header); every other line is `shape ln_gamma` and any
//! further fields (the fit writes how often the shape was chosen and offered), the shape a
//! number of [`crate::Features::move_shape`] and `ln_gamma` its Bradley–Terry strength, 0
//! the average candidate.
//!
//! A file fitted **in context** (`arena tune shapes --context`) fits each shape once for each
//! context the game gives it ([`crate::Features::shape_context`]: Havannah's, the distance to
//! the last stone), the key being `shape + CONTEXT_UNIT · context` ([`key`]). Shapes are below
//! [`CONTEXT_UNIT`], so a file is in context exactly when a key reaches it ([`in_context`]),
//! and a reader composes its keys the same way.

/// What a context step adds to a shape's key in a shapes file fitted in context: `2²⁴`, above
/// every shape (Havannah's are twelve places of two bits).
pub const CONTEXT_UNIT: u32 = 1 << 24;

/// The key of `shape` seen in `context` (below 256) in a shapes file fitted in context.
#[must_use]
pub fn key(shape: u32, context: u32) -> u32 {
    shape + CONTEXT_UNIT * context
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

/// Whether shapes-file weights (as [`parse_shape_weights`] returns them, sorted) were fitted
/// in context: their largest key reaches [`CONTEXT_UNIT`].
#[must_use]
pub fn in_context(weights: &[(u32, f32)]) -> bool {
    weights.last().is_some_and(|&(k, _)| k >= CONTEXT_UNIT)
}

/// The shapes and their weights (`ln γ`) of shapes-file `text`, sorted by shape; or what is
/// wrong with it and on which line (a shape given twice, a field that is not a number, a
/// weight that is not finite, no shape at all).
pub fn parse_shape_weights(text: &str) -> Result<Vec<(u32, f32)>, String> {
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
        let shape: u32 = shape
            .parse()
            .map_err(|_| wrong(&format!("shape {shape} is not a whole number")))?;
        let weight = match weight.parse::<f32>() {
            Ok(w) if w.is_finite() => w,
            _ => return Err(wrong(&format!("weight {weight} is not a finite number"))),
        };
        shapes.push((shape, weight, at + 1));
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

/// Weights by key (a shapes file's, or any `u32`-keyed table) in an open-addressed table at
/// most half full, probed linearly from a multiplicative hash's top bits: a lookup reads one
/// or two slots where a binary search over a file of 17,000 shapes takes fifteen dependent
/// reads. A key given twice keeps its last weight.
#[derive(Debug, Clone)]
pub struct WeightTable {
    slots: Vec<(u32, f32)>,
    /// 32 less the log₂ of the slots.
    shift: u32,
    /// The weight of key `u32::MAX`, which marks a free slot and so is kept aside.
    last_key: Option<f32>,
    /// Keys held.
    len: usize,
}

/// A slot no key holds.
const FREE: u32 = u32::MAX;

impl WeightTable {
    /// A table of `entries`, sized for `count` of them (more only crowd it: each entry beyond
    /// `count` lengthens the probes).
    pub fn with_entries(count: usize, entries: impl IntoIterator<Item = (u32, f32)>) -> Self {
        let size = (count * 2).next_power_of_two().max(16);
        let mut table = WeightTable {
            slots: vec![(FREE, 0.0); size],
            shift: 32 - size.trailing_zeros(),
            last_key: None,
            len: 0,
        };
        for (key, weight) in entries {
            if key == FREE {
                table.len += usize::from(table.last_key.is_none());
                table.last_key = Some(weight);
                continue;
            }
            let at = table.find(key);
            table.len += usize::from(table.slots[at].0 == FREE);
            table.slots[at] = (key, weight);
        }
        table
    }

    /// The table of shapes-file weights (as [`parse_shape_weights`] returns them).
    #[must_use]
    pub fn new(weights: &[(u32, f32)]) -> Self {
        Self::with_entries(weights.len(), weights.iter().copied())
    }

    /// The slot holding `key` (not [`FREE`]), or the free slot where it would go.
    fn find(&self, key: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = (key.wrapping_mul(0x9E37_79B1) >> self.shift) as usize;
        while self.slots[at].0 != key && self.slots[at].0 != FREE {
            at = (at + 1) & mask;
        }
        at
    }

    /// The weight of `key`, if the table holds it.
    #[must_use]
    pub fn get(&self, key: u32) -> Option<f32> {
        if key == FREE {
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
        assert!(WeightTable::new(&[]).is_empty());
        assert_eq!(WeightTable::new(&[]).get(u32::MAX), None);
    }
}
