//! Hex's features: what alpha-beta's evaluations and the tuner weigh.

use super::{Cell, EMPTY, FIRST_EDGE, Hex, MAX_CELLS, NONE, SECOND_EDGE, neighbours};
use crate::game::Player;
use crate::{Feature, Features, MAX_FEATURES};

/// Hex's features (see [`Features`]).
const FEATURES: [Feature; 3] = [
    Feature {
        name: "material",
        default_weight: 0.0,
    },
    Feature {
        name: "connection_need",
        default_weight: -0.5,
    },
    Feature {
        name: "two_distance",
        default_weight: -0.5,
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

    /// Van Rijswijck's two-distance potential of `player` (Queenbee's evaluation): the least,
    /// over empty cells, of the cell's two-distance to one of the player's edges plus its
    /// two-distance to the other. A cell next to an edge (directly, or through a group of the
    /// player's stones that touches it) is at distance 1; any other empty cell is one more
    /// than the second-smallest distance among its neighbours, where the empty cells around
    /// an adjacent group of the player's count as neighbours and the opponent's stones block.
    /// The second-best neighbour is what the opponent cannot take away with one stone.
    /// `2 × size²` when no empty cell reaches both edges; 0 once the player has won.
    /// Allocates nothing.
    #[must_use]
    pub fn two_distance(&self, player: Player) -> u32 {
        const WORDS: usize = MAX_CELLS.div_ceil(64);
        type Set = [u64; WORDS];
        let (n, me) = (self.size(), player.index() as u8);
        let cells = n * n;
        if self.outcome == Some(crate::Outcome::Win(player)) {
            return 0;
        }
        let has = |s: &Set, c: usize| s[c / 64] >> (c % 64) & 1 == 1;
        let put = |s: &mut Set, c: usize| s[c / 64] |= 1 << (c % 64);
        // The empty cells around each group of the player's, by root.
        let mut liberties = [[0u64; WORDS]; MAX_CELLS];
        for cell in 0..cells {
            if self.owner[cell] != me {
                continue;
            }
            let root = self.root_of(cell);
            for &nb in &neighbours(n)[cell] {
                if nb != NONE && self.owner[usize::from(nb)] == EMPTY {
                    put(&mut liberties[root], usize::from(nb));
                }
            }
        }
        // Each empty cell's neighbours through the player's groups, and the edges it touches.
        let mut around = [[0u64; WORDS]; MAX_CELLS];
        let mut touches = [0u8; MAX_CELLS];
        for cell in (0..cells).filter(|&c| self.owner[c] == EMPTY) {
            touches[cell] = self.own_edges(player.index(), cell);
            for &nb in &neighbours(n)[cell] {
                if nb == NONE {
                    continue;
                }
                let nb = usize::from(nb);
                if self.owner[nb] == EMPTY {
                    put(&mut around[cell], nb);
                } else if self.owner[nb] == me {
                    let root = self.root_of(nb);
                    touches[cell] |= self.edges[root];
                    for w in 0..WORDS {
                        around[cell][w] |= liberties[root][w];
                    }
                }
            }
            around[cell][cell / 64] &= !(1 << (cell % 64));
        }
        let mut best = u32::MAX;
        let mut dist = [[u32::MAX; MAX_CELLS]; 2];
        for (e, edge) in [FIRST_EDGE, SECOND_EDGE].into_iter().enumerate() {
            // Layer by layer: a cell joins layer k when two of its neighbours are nearer.
            let mut reached: Set = [0; WORDS];
            for cell in (0..cells).filter(|&c| self.owner[c] == EMPTY && touches[c] & edge != 0) {
                dist[e][cell] = 1;
                put(&mut reached, cell);
            }
            let mut layer = 1;
            loop {
                layer += 1;
                let mut next = reached;
                for cell in (0..cells).filter(|&c| self.owner[c] == EMPTY && !has(&reached, c)) {
                    let near: u32 = (0..WORDS)
                        .map(|w| (around[cell][w] & reached[w]).count_ones())
                        .sum();
                    if near >= 2 {
                        dist[e][cell] = layer;
                        put(&mut next, cell);
                    }
                }
                if next == reached {
                    break;
                }
                reached = next;
            }
        }
        for cell in (0..cells).filter(|&c| self.owner[c] == EMPTY) {
            let [a, b] = [dist[0][cell], dist[1][cell]];
            if a != u32::MAX && b != u32::MAX {
                best = best.min(a + b);
            }
        }
        if best == u32::MAX {
            2 * cells as u32
        } else {
            best
        }
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
    /// - `two_distance`: van Rijswijck's two-distance potential ([`Hex::two_distance`]),
    ///   which counts a connection the opponent cannot cut with one stone (a bridge) as made.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let cells = self.size() * self.size();
        let me = player.index() as u8;
        out[0] = self.owner[..cells].iter().filter(|&&o| o == me).count() as f64;
        out[1] = f64::from(self.connection_need(player));
        out[2] = f64::from(self.two_distance(player));
    }

    /// The board's side: cell `(row r, column c)` is grid cell `c + n·(n − 1 − r)`, rows
    /// turned upside down so that the diagonal neighbours, up-right and down-left, are the
    /// axial grid's `±(1, 1)` that the networks' hex kernel reads.
    fn grid_side(&self) -> Option<usize> {
        Some(self.size())
    }

    /// As the trait says, for the player to move, but for the edges: plane 5 holds the
    /// cells of the mover's two edges and plane 6 the opponent's (corners in both), since in
    /// Hex an edge belongs to a player. No last move is kept: that plane is empty.
    fn grid_planes(&self, out: &mut [f32]) {
        let n = self.size();
        let cells = n * n;
        let out = &mut out[..crate::GRID_PLANES * cells];
        out.fill(0.0);
        let me = crate::Game::to_move(self).unwrap_or(Player::ZERO).index();
        for cell in 0..cells {
            let (r, c) = (cell / n, cell % n);
            let g = c + n * (n - 1 - r);
            let plane = match self.owner[cell] {
                EMPTY => 2,
                o if usize::from(o) == me => 0,
                _ => 1,
            };
            out[plane * cells + g] = 1.0;
            out[3 * cells + g] = 1.0;
            // Black (player 0) joins the first and last rows, White the columns.
            let on_edge = |player: usize| {
                let k = if player == 0 { r } else { c };
                k == 0 || k == n - 1
            };
            if on_edge(me) {
                out[5 * cells + g] = 1.0;
            }
            if on_edge(1 - me) {
                out[6 * cells + g] = 1.0;
            }
        }
    }

    /// The half turn, which keeps each player's edges its own.
    fn grid_symmetries(&self) -> Vec<Vec<usize>> {
        let cells = self.size() * self.size();
        vec![(0..cells).map(|g| cells - 1 - g).collect()]
    }

    /// The cell the stone fills; the swap fills none.
    fn grid_cell(&self, mv: Cell) -> Option<usize> {
        let (n, cell) = (self.size(), usize::from(mv.0));
        (cell < n * n && self.owner[cell] == EMPTY).then(|| cell % n + n * (n - 1 - cell / n))
    }
}
