//! Hex's features: what alpha-beta's evaluations and the tuner weigh.

use super::{EMPTY, Hex, MAX_CELLS, NONE, neighbours};
use crate::game::Player;
use crate::{Feature, Features, MAX_FEATURES};

/// Hex's features (see [`Features`]).
const FEATURES: [Feature; 2] = [
    Feature {
        name: "material",
        default_weight: 0.0,
    },
    Feature {
        name: "connection_need",
        default_weight: -1.0,
    },
];

impl Hex {
    /// The fewest empty cells `player` must fill to join its two edges, its own stones
    /// free and the opponent's impassable (a 0-1 breadth-first search from the first edge);
    /// `size²` when the opponent has cut every path. Allocates nothing.
    #[must_use]
    pub fn connection_need(&self, player: Player) -> u32 {
        let (n, me) = (self.size(), player.index() as u8);
        let unreachable = (n * n) as u16;
        let mut dist = [u16::MAX; MAX_CELLS];
        // A deque in a ring: 0-cost steps go to the front, 1-cost steps to the back. A cell
        // enters at most once a neighbour that improves it, so 8 × cells is room enough.
        let mut ring = [0u16; 8 * MAX_CELLS];
        let cap = ring.len();
        let (mut head, mut len) = (0usize, 0usize);
        let cost = |cell: usize| -> Option<u16> {
            match self.owner[cell] {
                o if o == me => Some(0),
                EMPTY => Some(1),
                _ => None,
            }
        };
        for k in 0..n {
            let cell = if me == 0 { k } else { k * n };
            if let Some(c) = cost(cell) {
                dist[cell] = c;
                ring[(head + len) % cap] = cell as u16;
                len += 1;
            }
        }
        let mut best = unreachable;
        while len > 0 {
            let cell = usize::from(ring[head]);
            head = (head + 1) % cap;
            len -= 1;
            let d = dist[cell];
            let (r, c) = (cell / n, cell % n);
            if (if me == 0 { r } else { c }) == n - 1 {
                best = best.min(d);
            }
            for &nb in &neighbours(n)[cell] {
                if nb == NONE {
                    continue;
                }
                let nb = usize::from(nb);
                let Some(step) = cost(nb) else { continue };
                if d + step < dist[nb] {
                    dist[nb] = d + step;
                    if step == 0 {
                        head = (head + cap - 1) % cap;
                        ring[head] = nb as u16;
                    } else {
                        ring[(head + len) % cap] = nb as u16;
                    }
                    len += 1;
                }
            }
        }
        u32::from(best)
    }
}

impl Features for Hex {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    /// - `material`: the player's stones.
    /// - `connection_need`: the fewest empty cells the player must still fill to join its
    ///   edges ([`Hex::connection_need`]), the shortest-path measure that two-distance and
    ///   resistance evaluations refine.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let cells = self.size() * self.size();
        let me = player.index() as u8;
        out[0] = self.owner[..cells].iter().filter(|&&o| o == me).count() as f64;
        out[1] = f64::from(self.connection_need(player));
    }
}
