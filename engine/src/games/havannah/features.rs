//! Havannah's features: what its best groups touch, and how far each player is from a bridge
//! or a fork, counted in stones still to place.

use super::{Cell, EMPTY, Havannah, MAX_CELLS, NONE};
use crate::{Feature, PermanentIn, Player};

/// Havannah's features, with the weights of `eval=rich`.
const FEATURES: [Feature; 6] = [
    Feature {
        name: "material",
        default_weight: 0.0,
    },
    Feature {
        name: "groups",
        default_weight: -0.1,
    },
    Feature {
        name: "corners",
        default_weight: 0.5,
    },
    Feature {
        name: "edges",
        default_weight: 0.5,
    },
    Feature {
        name: "bridge_need",
        default_weight: -0.5,
    },
    Feature {
        name: "fork_need",
        default_weight: -0.5,
    },
];

/// A distance no path reaches.
pub(super) const FAR: u16 = u16::MAX;

impl Havannah {
    /// The number of steps between cells `a` and `b` on the board's grid.
    fn cell_distance(&self, a: usize, b: usize) -> u32 {
        let d = self.geometry().diameter as i32;
        let (ax, ay) = (a as i32 % d, a as i32 / d);
        let (bx, by) = (b as i32 % d, b as i32 / d);
        let (dx, dy) = (ax - bx, ay - by);
        // Neighbours differ by (±1, 0), (0, ±1) or ±(1, 1).
        ((dx.abs() + dy.abs() + (dx - dy).abs()) / 2) as u32
    }

    /// How near cell `c` is to a stone of `me`: 3 beside one, 2 a bridge away (two common
    /// neighbours, both on the board), 1 at distance 2 otherwise, 0 farther.
    fn locality(&self, c: usize, me: u8) -> u8 {
        let g = self.geometry();
        let around = &g.neighbours[c];
        let own = |n: u16| n != NONE && self.owner[n as usize] == me;
        if around.iter().any(|&n| own(n)) {
            return 3;
        }
        let mut best = 0;
        for k in 0..6 {
            let (a, b) = (around[k], around[(k + 1) % 6]);
            if a == NONE || b == NONE {
                continue;
            }
            // The cell beside both `a` and `b` that is not `c`: a bridge away from `c`.
            for &n in &g.neighbours[a as usize] {
                if n != NONE && n as usize != c && g.neighbours[b as usize].contains(&n) && own(n) {
                    return 2;
                }
            }
            // Any other neighbour of a neighbour: distance 2.
            if g.neighbours[a as usize].iter().any(|&n| own(n)) {
                best = 1;
            }
        }
        best
    }

    /// Whether a stone of the mover on the empty cell `c` keeps a two-cell link the last stone
    /// (the opponent's) broke into: `c` and the last stone are the link's two cells when the
    /// cells on both sides of `c`, in the ring around the last stone, are the mover's or off
    /// the board.
    fn answers_intrusion(&self, c: usize) -> bool {
        if self.moves_made == 0 {
            return false;
        }
        let ring = &self.geometry().neighbours[self.last_move as usize];
        ring.iter()
            .position(|&n| n as usize == c)
            .is_some_and(|k| self.saves_link(k))
    }

    /// Whether the cell at place `k` of the ring around the last stone is empty with the
    /// mover's stones (or the board's edge) on both its sides in that ring: the other cell of
    /// a two-cell link the last stone broke into. The ring lists the six neighbours in order
    /// around the cell, so places `k ± 1` are the neighbours both cells share.
    fn saves_link(&self, k: usize) -> bool {
        let ring = &self.geometry().neighbours[self.last_move as usize];
        let me = self.to_move.index() as u8;
        let holds = |k: usize| ring[k % 6] == NONE || self.owner[ring[k % 6] as usize] == me;
        ring[k] != NONE && self.owner[ring[k] as usize] == EMPTY && holds(k + 5) && holds(k + 1)
    }

    /// The fewest empty cells `me` must fill so that a chain of its stones joins a cell where
    /// `source(cell)` holds to each cell, the cells at both ends counted (0-1 breadth-first
    /// search: own stones cost 0, empty cells 1, enemy stones block). [`FAR`] where no chain
    /// can reach. Allocates nothing.
    fn stones_needed(&self, me: u8, source: impl Fn(usize) -> bool, dist: &mut [u16; MAX_CELLS]) {
        let g = self.geometry();
        let cells = g.diameter * g.diameter;
        let cost = |c: usize| match self.owner[c] {
            o if o == me => Some(0),
            EMPTY => Some(1),
            _ => None,
        };
        dist.fill(FAR);
        // Dial's buckets for costs 0 and 1: the layer being settled and the next one.
        let (mut layer, mut next) = ([0u16; MAX_CELLS], [0u16; MAX_CELLS]);
        let (mut layer_len, mut next_len) = (0, 0);
        for c in (0..cells).filter(|&c| source(c)) {
            match cost(c) {
                Some(0) => {
                    dist[c] = 0;
                    layer[layer_len] = c as u16;
                    layer_len += 1;
                }
                Some(_) => {
                    dist[c] = 1;
                    next[next_len] = c as u16;
                    next_len += 1;
                }
                None => {}
            }
        }
        let mut d = 0;
        while layer_len > 0 || next_len > 0 {
            while layer_len > 0 {
                layer_len -= 1;
                let c = layer[layer_len] as usize;
                if dist[c] != d {
                    continue;
                }
                for &n in &g.neighbours[c] {
                    if n == NONE {
                        continue;
                    }
                    let n = n as usize;
                    let Some(step) = cost(n) else { continue };
                    if d + step < dist[n] {
                        dist[n] = d + step;
                        if step == 0 {
                            layer[layer_len] = n as u16;
                            layer_len += 1;
                        } else {
                            next[next_len] = n as u16;
                            next_len += 1;
                        }
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
            layer_len = next_len;
            next_len = 0;
            d += 1;
        }
    }

    /// Castro's distance to a win (its `LBDists`, the thesis's `-D` knowledge): for each empty
    /// cell, the fewest empty cells `me` must fill, that cell among them, for a bridge (two
    /// corners) or a fork (three edges) whose chains meet there, each chain counted by
    /// [`Havannah::stones_needed`] (chains that share cells count them once a chain, as
    /// Castro's do); [`FAR`] for a cell that is not empty or from which neither can be made.
    /// Rings are not counted. Castro's floods go only the three ways that lead away from the
    /// side they start at; these go every way, so they find the shorter chains Castro's miss.
    pub(super) fn win_distances(&self, me: u8, out: &mut [u16; MAX_CELLS]) {
        let g = self.geometry();
        let cells = g.diameter * g.diameter;
        let mut dist = [FAR; MAX_CELLS];
        // The two nearest corners and the three nearest edges of each cell, nearest first.
        let mut corners = [[FAR; 2]; MAX_CELLS];
        let mut edges = [[FAR; 3]; MAX_CELLS];
        fn keep<const N: usize>(best: &mut [u16; N], d: u16) {
            if d < best[N - 1] {
                best[N - 1] = d;
                best.sort_unstable();
            }
        }
        for k in 0..6 {
            let corner = g.corner_cells[k] as usize;
            self.stones_needed(me, |c| c == corner, &mut dist);
            for c in 0..cells {
                keep(&mut corners[c], dist[c]);
            }
            self.stones_needed(me, |c| g.edge[c] == 1 << k, &mut dist);
            for c in 0..cells {
                keep(&mut edges[c], dist[c]);
            }
        }
        for c in 0..cells {
            out[c] = FAR;
            if !g.on_board[c] || self.owner[c] != EMPTY {
                continue;
            }
            // The meeting cell is counted by each chain; it is filled once.
            if corners[c][1] != FAR {
                out[c] = corners[c][0] + corners[c][1] - 1;
            }
            if edges[c][2] != FAR {
                out[c] = out[c].min(edges[c][0] + edges[c][1] + edges[c][2] - 2);
            }
        }
    }

    /// The knowledge term `distance` from a cell's [`Havannah::win_distances`]: Castro's
    /// `max(0, diameter − d)`, 0 where no win can be made.
    fn distance_term(&self, d: u16) -> f64 {
        let diameter = self.geometry().diameter as u16;
        f64::from(diameter.saturating_sub(d))
    }

    /// The fewest stones `me` still needs for a bridge (two corners joined), capped at `cap`.
    fn bridge_need(&self, me: u8, cap: u16) -> u16 {
        let g = self.geometry();
        let mut dist = [FAR; MAX_CELLS];
        let mut best = cap;
        for k in 0..5 {
            let corner = g.corner_cells[k] as usize;
            self.stones_needed(me, |c| c == corner, &mut dist);
            for other in k + 1..6 {
                best = best.min(dist[g.corner_cells[other] as usize]);
            }
        }
        best
    }

    /// The fewest stones `me` still needs for a fork (three edges joined), capped at `cap`.
    fn fork_need(&self, me: u8, cap: u16) -> u16 {
        let g = self.geometry();
        let mut to_edge = [[FAR; MAX_CELLS]; 6];
        for (k, dist) in to_edge.iter_mut().enumerate() {
            self.stones_needed(me, |c| g.edge[c] == 1 << k, dist);
        }
        let mut best = cap;
        for c in (0..g.diameter * g.diameter).filter(|&c| g.on_board[c]) {
            let mut three = [FAR; 3];
            for dist in &to_edge {
                let d = dist[c];
                if d < three[2] {
                    three[2] = d;
                    three.sort_unstable();
                }
            }
            if three[2] == FAR {
                continue;
            }
            // Each of the three chains counts the meeting cell; it is filled once.
            let shared = u16::from(self.owner[c] == EMPTY);
            best = best.min(three[0] + three[1] + three[2] - 2 * shared);
        }
        best
    }
}

impl crate::Features for Havannah {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of size 6, the size it was trained and checked on (results/nets/havannah-mixed/,
    /// made by `experiments/net-game.sh havannah-mixed`): not shown different from
    /// `eval=tuned` at equal depth (−16.5 Elo, [−39.9, +6.7]), shipped so that `eval=net` reads
    /// every seed game; `eval=tuned` is the stronger choice until a net beats it.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.base() == 6).then_some(NET)
    }

    /// Chains below are of the player's stones and empty cells; enemy stones block them.
    /// - `material`: the player's stones (equal for both sides but for the last move; kept so
    ///   that `eval=material` means the same in every game).
    /// - `groups`: the player's groups (connected sets of its stones).
    /// - `corners`: the most corners one of the player's groups touches.
    /// - `edges`: the most edges (corners excluded) one of the player's groups touches.
    /// - `bridge_need`: the fewest empty cells the player must still fill to join two corners
    ///   (0 is a bridge), capped at `4 × size`: a larger value is worse.
    /// - `fork_need`: the fewest empty cells the player must still fill to join three edges,
    ///   capped at `4 × size`.
    ///
    /// Rings are not measured. The two needs run 11 searches of the board each.
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        self.features_wanted(player, u32::MAX, out);
    }

    /// The four counts always; `bridge_need` and `fork_need`, 11 searches of the board each,
    /// only when wanted (left as they were otherwise).
    fn features_wanted(&self, player: Player, wanted: u32, out: &mut [f64; crate::MAX_FEATURES]) {
        let g = self.geometry();
        let me = player.index() as u8;
        let (mut stones, mut groups, mut corners, mut edges) = (0, 0, 0, 0);
        for c in (0..g.diameter * g.diameter).filter(|&c| self.owner[c] == me) {
            stones += 1;
            let root = self.root_of(c);
            if root == c {
                groups += 1;
            }
            corners = corners.max(self.corners[root].count_ones());
            edges = edges.max(self.edges[root].count_ones());
        }
        let cap = 4 * u16::from(self.base);
        out[0] = f64::from(stones);
        out[1] = f64::from(groups);
        out[2] = f64::from(corners);
        out[3] = f64::from(edges);
        if wanted & (1 << 4) != 0 {
            out[4] = f64::from(self.bridge_need(me, cap));
        }
        if wanted & (1 << 5) != 0 {
            out[5] = f64::from(self.fork_need(me, cap));
        }
    }

    /// Castro's knowledge (Ewalds, "Playing and solving Havannah", 2012: `add_knowledge` in
    /// its `playeruct.cpp`), in reward units (twice Castro's, whose values span [0, 1]):
    /// - 0.4 for each corner and each edge the mover's group through `mv` would touch;
    /// - 0.5 when `mv` answers an intrusion: the last stone took one of the two cells that
    ///   link two of the mover's stones (or a stone and the board's edge), and `mv` is the
    ///   other.
    fn move_knowledge(&self, mv: Cell) -> f64 {
        let c = mv.0 as usize;
        if self.outcome.is_some() || !self.on_board(mv) || self.owner[c] != EMPTY {
            return 0.0;
        }
        let j = self.joined_by(c, self.to_move.index() as u8);
        let touched = f64::from(j.reach());
        0.4 * touched + if self.answers_intrusion(c) { 0.5 } else { 0.0 }
    }

    /// Castro's knowledge terms, each in its own units (Castro's `add_knowledge`). The
    /// thesis's combination (connect 20, bridge 100, local reply 5, locality 3, size 2, in
    /// hundredths of a reward in [0, 1]) is `know.connect=0.4,know.bridge=2,know.reply=0.1,
    /// know.local=0.06,know.size=0.04` in Ringside's rewards, which span [−1, 1]:
    /// - `connect`: the corners and edges the mover's group through `mv` would touch;
    /// - `bridge`: 1 when `mv` answers an intrusion into a two-cell link (`move_knowledge`);
    /// - `reply`: `4 − d` for a cell at distance `d < 4` from the last stone, else 0;
    /// - `local`: 3 beside a stone of the mover's, 2 a bridge away from one (two common
    ///   neighbours), 1 at distance 2, else 0;
    /// - `size`: the stones of the group a stone on `mv` would make, itself included;
    /// - `shape`: the learned weight (`ln γ`) of the shape around `mv` ([`crate::Features::move_shape`]),
    ///   0 for a shape never seen; not Castro's.
    /// - `distance`: Castro's distance to a win, `max(0, diameter − d)` with `d` the fewest
    ///   stones the mover would still need, `mv`'s among them, for a bridge or a fork through
    ///   `mv` (the thesis's `-D 2` is `know.distance=0.04`). It floods the board from every
    ///   corner and edge, so it is read for all the children at once
    ///   ([`crate::Features::knowledge_term_all`]); in playouts (`roll.distance`) it is dear.
    /// - `shape_ctx`: the shipped context fit's weight (`ln γ`) of the shape around `mv` beside
    ///   its distance to the last stone (1, 2, or 3 for 3 and more): the fit of
    ///   `results/castro-best/shapes-ctx/`, built in, so `know.shape_ctx=W` plays as
    ///   `know.shape=W,shapes=` that file does (the best player on size 8 there,
    ///   `preset=strong5`); not Castro's.
    /// - `block`: `connect` for the opponent: the corners and edges the opponent's group
    ///   through `mv` would touch, were it the opponent's stone (a cell the opponent's
    ///   forks and bridges want); not Castro's.
    /// - `shape_wide`: the shipped wide fit's weight (`ln γ`) of `mv`: its wide shape's (the
    ///   18 cells within distance 2, [`crate::Features::move_wide_shape`]) beside its distance
    ///   to the last stone where the fit has it, else its shape's in the same context. The
    ///   fit of `results/castro-best/shapes-wide/`, built in, so `know.shape_wide=W` plays as
    ///   `know.shape=W,shapes=` that file does (`preset=strong6`); not Castro's.
    /// - `shape_wide2`: as `shape_wide`, read from the same method's fit on twice the games,
    ///   `results/castro-best/shapes-wide2/`, built in, so `know.shape_wide2=W` plays as
    ///   `know.shape=W,shapes=` that file does (`preset=strong7`); not Castro's.
    fn knowledge_terms(&self) -> &'static [&'static str] {
        &KNOWLEDGE_TERMS
    }

    /// Rings stop winning once `depth` of the empty cells now are filled (Castro's
    /// `ringdepth` as a negative fraction); forks and bridges always win.
    fn ring_depth(&mut self, depth: f64) {
        let after = (depth.clamp(0.0, 1.0) * f64::from(self.empty_count)).ceil() as u16;
        self.ring_cutoff = self.moves_made.saturating_add(after);
    }

    /// Rings made from here win only when they hold `stones` stones of the ring's owner
    /// placed before now. With [`PermanentIn::Ring`] they are counted as Castro counts them,
    /// on a loop through the new stone walked turning at most 60° a step (searched only when
    /// a ring is made, within the ring depth); with [`PermanentIn::Group`] the ring's group's
    /// count stands in (at least the ring's: a ring made of new stones on an old group counts
    /// the old ones), which needs no walk.
    fn ring_permanence(&mut self, stones: u32, counted: PermanentIn) {
        self.ring_permanent = stones.min(u32::from(u8::MAX)) as u8;
        self.ring_counted = counted;
        self.permanent = [0; MAX_CELLS.div_ceil(64)];
        for (cell, &owner) in self.owner.iter().enumerate() {
            if owner == 0 || owner == 1 {
                self.permanent[cell / 64] |= 1 << (cell % 64);
            }
        }
    }

    fn knowledge_term(&self, mv: Cell, k: usize) -> f64 {
        let c = mv.0 as usize;
        if self.outcome.is_some() || !self.on_board(mv) || self.owner[c] != EMPTY {
            return 0.0;
        }
        let me = self.to_move.index() as u8;
        match k {
            0 => f64::from(self.joined_by(c, me).reach()),
            1 => f64::from(u8::from(self.answers_intrusion(c))),
            2 if self.moves_made > 0 => {
                let d = self.cell_distance(c, self.last_move as usize);
                f64::from(4u32.saturating_sub(d))
            }
            3 => f64::from(self.locality(c, me)),
            4 => {
                let j = self.joined_by(c, me);
                let stones: u32 = j.roots[..j.groups]
                    .iter()
                    .map(|&r| u32::from(self.group_size[r as usize]))
                    .sum();
                f64::from(1 + stones)
            }
            5 => self.shape_weight(c, me),
            DISTANCE_TERM => {
                let mut d = [FAR; MAX_CELLS];
                self.win_distances(me, &mut d);
                self.distance_term(d[c])
            }
            SHAPE_CTX_TERM => {
                crate::shapes::move_key(self, mv, true).map_or(0.0, super::shape::context_weight)
            }
            BLOCK_TERM => f64::from(self.joined_by(c, 1 - me).reach()),
            SHAPE_WIDE_TERM => super::shape::wide_weight(self, mv),
            SHAPE_WIDE2_TERM => super::shape::wide2_weight(self, mv),
            _ => 0.0,
        }
    }

    fn knowledge_term_all(&self, moves: &[Cell], k: usize, out: &mut Vec<f64>) -> bool {
        if k != DISTANCE_TERM {
            return false;
        }
        out.clear();
        if self.outcome.is_some() {
            out.resize(moves.len(), 0.0);
            return true;
        }
        let mut d = [FAR; MAX_CELLS];
        self.win_distances(self.to_move.index() as u8, &mut d);
        out.extend(moves.iter().map(|&mv| {
            if self.on_board(mv) {
                self.distance_term(d[mv.0 as usize])
            } else {
                0.0
            }
        }));
        true
    }

    /// The six neighbours of `mv` and the six cells a bridge away, each empty, the mover's,
    /// the opponent's or off the board: two bits a place, the smallest number over the
    /// board's twelve symmetries.
    fn move_shape(&self, mv: Cell) -> Option<u32> {
        let c = mv.0 as usize;
        let open = self.outcome.is_none() && self.on_board(mv) && self.owner[c] == EMPTY;
        open.then(|| self.shape_of(c, self.to_move.index() as u8))
    }

    /// The 18 cells within distance 2 of `mv` (the shape's twelve places and the six two steps
    /// along a line), each empty, the mover's, the opponent's or off the board: two bits a
    /// place, the smallest number over the board's twelve symmetries.
    fn move_wide_shape(&self, mv: Cell) -> Option<u64> {
        let c = mv.0 as usize;
        let open = self.outcome.is_none() && self.on_board(mv) && self.owner[c] == EMPTY;
        open.then(|| self.wide_shape_of(c, self.to_move.index() as u8))
    }

    /// The distance from `mv` to the last stone placed, 3 for 3 and more; 0 before the first.
    fn shape_context(&self, mv: Cell) -> u32 {
        if self.moves_made == 0 || !self.on_board(mv) {
            return 0;
        }
        self.cell_distance(mv.0 as usize, self.last_move as usize)
            .min(3)
    }

    fn shape_context_names(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "the distance to the last stone (1, 2, or 3 for 3 and more)",
            "distance",
        ))
    }

    /// The other cell of a two-cell link the last stone broke into (see `move_knowledge`),
    /// scanning the ring around the last stone from place `start % 6`: Castro's
    /// `rolloutpattern`, the bridge-saving reply of Havannah playouts (Lorentz, "Improving
    /// Monte-Carlo tree search in Havannah", CG 2010).
    fn playout_reply(&self, start: usize) -> Option<Cell> {
        if self.moves_made == 0 || self.outcome.is_some() {
            return None;
        }
        let ring = &self.geometry().neighbours[self.last_move as usize];
        (0..6)
            .map(|j| (start + j) % 6)
            .find(|&k| self.saves_link(k))
            .map(|k| Cell(ring[k]))
    }

    fn grid_side(&self) -> Option<usize> {
        Some(self.geometry().diameter)
    }

    fn grid_planes(&self, out: &mut [f32]) {
        let g = self.geometry();
        let cells = g.diameter * g.diameter;
        let out = &mut out[..crate::GRID_PLANES * cells];
        out.fill(0.0);
        let me = self.to_move.index() as u8;
        for c in 0..cells {
            let plane = match self.owner[c] {
                _ if !g.on_board[c] => continue,
                EMPTY => 2,
                o if o == me => 0,
                _ => 1,
            };
            out[plane * cells + c] = 1.0;
            out[3 * cells + c] = 1.0;
            if g.corner[c] != 0 {
                out[6 * cells + c] = 1.0;
            } else if g.edge[c] != 0 {
                out[5 * cells + c] = 1.0;
            }
        }
        if self.moves_made > 0 {
            out[4 * cells + self.last_move as usize] = 1.0;
        }
    }

    /// The hexagon's eleven symmetries besides the identity: the six turns by 60° about the
    /// centre, `(u, v) → (u − v, u)` in axial coordinates from the centre, each with and
    /// without the mirror `(u, v) → (v, u)`.
    fn grid_symmetries(&self) -> Vec<Vec<usize>> {
        let g = self.geometry();
        let d = g.diameter;
        let c = (d / 2) as i32;
        let mut out = Vec::new();
        for turn in 0..6 {
            for mirror in [false, true] {
                if turn == 0 && !mirror {
                    continue;
                }
                let perm = (0..d * d)
                    .map(|i| {
                        if !g.on_board[i] {
                            return i;
                        }
                        let (mut u, mut v) = ((i % d) as i32 - c, (i / d) as i32 - c);
                        if mirror {
                            (u, v) = (v, u);
                        }
                        for _ in 0..turn {
                            (u, v) = (u - v, u);
                        }
                        (u + c) as usize + d * (v + c) as usize
                    })
                    .collect();
                out.push(perm);
            }
        }
        out
    }

    fn grid_cell(&self, mv: Cell) -> Option<usize> {
        let c = mv.0 as usize;
        (self.on_board(mv) && self.owner[c] == EMPTY).then_some(c)
    }

    /// The empty cells among the last stone's twelve places (its neighbours and the cells a
    /// bridge away), and the empty cells elsewhere. Nothing while the swap is on offer (the
    /// one move onto a stone) or before the first stone.
    fn near_last_move(&self, out: &mut Vec<Cell>) -> usize {
        out.clear();
        if self.moves_made == 0 || self.outcome.is_some() || self.swap_available() {
            return 0;
        }
        out.extend(
            self.empty_places(self.last_move as usize)
                .map(|c| Cell(c as u16)),
        );
        usize::from(self.empty_count) - out.len()
    }
}

/// The net of [`crate::Features::shipped_net`] (size 6).
const NET: &[u8] = include_bytes!("net.rsnet");

/// The names of Havannah's knowledge terms, in the order of `knowledge_term`'s `k`.
const KNOWLEDGE_TERMS: [&str; 11] = [
    "connect",
    "bridge",
    "reply",
    "local",
    "size",
    "shape",
    "distance",
    "shape_ctx",
    "block",
    "shape_wide",
    "shape_wide2",
];

/// The index of the term `distance` in [`KNOWLEDGE_TERMS`].
const DISTANCE_TERM: usize = 6;

/// The index of the term `shape_ctx` in [`KNOWLEDGE_TERMS`].
const SHAPE_CTX_TERM: usize = 7;

/// The index of the term `block` in [`KNOWLEDGE_TERMS`].
const BLOCK_TERM: usize = 8;

/// The index of the term `shape_wide` in [`KNOWLEDGE_TERMS`].
const SHAPE_WIDE_TERM: usize = 9;

/// The index of the term `shape_wide2` in [`KNOWLEDGE_TERMS`].
const SHAPE_WIDE2_TERM: usize = 10;

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): Texel-fitted to
/// alpha-beta self-play, `material` held at 1 (results/tuned/havannah/: the command, the fit and
/// the checks against the default weights).
const TUNED: [f64; 6] = [
    0.0,
    -0.11770017625493877,
    1.1288351420400282,
    0.26602842231273355,
    -0.4789102331359234,
    -0.6012091620694628,
];
