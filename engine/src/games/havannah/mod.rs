//! Havannah (Christian Freeling, 1979), as OpenSpiel's `havannah` game plays it. Rules:
//! `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use std::sync::OnceLock;

use rand::{Rng, RngExt};

use crate::PermanentIn;
use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::zobrist::Zobrist;

/// The default base (cells on a side), as in OpenSpiel.
pub const DEFAULT_BASE: usize = 8;
/// The smallest and largest bases.
pub const BASES: std::ops::RangeInclusive<usize> = 4..=10;
/// Cells of the largest grid (diameter 19).
const MAX_CELLS: usize = 19 * 19;
const EMPTY: u8 = 2;
const OFF: u8 = 3;
const NONE: u16 = u16::MAX;

/// The steps [`Havannah::walked_ring_holds`] takes at most before it gives up.
const RING_WALK_STEPS: u32 = 4096;

/// The longest walk [`Havannah::walked_ring_holds`] follows, in stones after the new one.
const RING_WALK_LONGEST: usize = 96;

/// A cell, as OpenSpiel's action number: `x + diameter · y`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

/// Neighbour offsets in OpenSpiel's order (each adjacent to the next).
const OFFSETS: [(i32, i32); 6] = [(-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0)];

/// The fixed tables of one base.
#[derive(Debug)]
struct Geometry {
    diameter: usize,
    valid_cells: u16,
    on_board: Vec<bool>,
    neighbours: Vec<[u16; 6]>,
    corner: Vec<u8>,
    /// The cell of each corner, in the order of the `corner` bits.
    corner_cells: [u16; 6],
    edge: Vec<u8>,
}

fn geometry(base: usize) -> &'static Geometry {
    static TABLES: [OnceLock<Geometry>; 11] = [const { OnceLock::new() }; 11];
    TABLES[base].get_or_init(|| {
        let d = 2 * base - 1;
        let (m, e) = (base as i32 - 1, 2 * base as i32 - 2);
        let on = |x: i32, y: i32| {
            x >= 0
                && y >= 0
                && x < d as i32
                && y < d as i32
                && (y - x) < base as i32
                && (x - y) < base as i32
        };
        let mut g = Geometry {
            diameter: d,
            valid_cells: 0,
            on_board: vec![false; d * d],
            neighbours: vec![[NONE; 6]; d * d],
            corner: vec![0; d * d],
            corner_cells: [NONE; 6],
            edge: vec![0; d * d],
        };
        for y in 0..d as i32 {
            for x in 0..d as i32 {
                let i = x as usize + d * y as usize;
                if !on(x, y) {
                    continue;
                }
                g.on_board[i] = true;
                g.valid_cells += 1;
                for (k, (dx, dy)) in OFFSETS.iter().enumerate() {
                    if on(x + dx, y + dy) {
                        g.neighbours[i][k] = ((x + dx) as usize + d * (y + dy) as usize) as u16;
                    }
                }
                let corners = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)];
                if let Some(k) = corners.iter().position(|&c| c == (x, y)) {
                    g.corner[i] = 1 << k;
                    g.corner_cells[k] = i as u16;
                }
                let edges = [
                    y == 0 && x != 0 && x != m,
                    x - y == m && x != m && x != e,
                    x == e && y != m && y != e,
                    y == e && x != e && x != m,
                    y - x == m && x != m && x != 0,
                    x == 0 && y != m && y != 0,
                ];
                g.edge[i] = edges.iter().position(|&b| b).map_or(0, |k| 1 << k);
            }
        }
        g
    })
}

/// What a stone on a cell would join ([`Havannah::joined_by`]).
#[derive(Debug, Clone, Copy)]
struct Joined {
    /// The corner bits of the group it would make.
    corners: u8,
    /// The edge bits of the group it would make.
    edges: u8,
    /// Whether two separate runs of its own neighbours (in order around it) belong to one
    /// group: a ring.
    rejoins: bool,
    /// Places around it whose own neighbour has own neighbours of the cell on both sides.
    flanked: u8,
    /// The roots of the distinct groups it would join, `groups` of them.
    roots: [u16; 3],
    groups: usize,
}

impl Joined {
    /// Whether the group a stone would make wins by a fork (three edges) or a bridge (two
    /// corners): everything but a ring.
    fn forks_or_bridges(&self) -> bool {
        self.edges.count_ones() >= 3 || self.corners.count_ones() >= 2
    }

    /// The corners and edges the group would touch, counted together (Castro's
    /// connectivity knowledge).
    fn reach(&self) -> u32 {
        self.corners.count_ones() + self.edges.count_ones()
    }
}

/// The places (0 to 5 around a cell) whose bits are set in `mask`, in order: one step a set
/// bit, the lowest first.
fn places(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let k = (mask != 0).then(|| mask.trailing_zeros() as usize)?;
        mask &= mask - 1;
        Some(k)
    })
}

/// Stone keys for 361 cells, and phase keys: White to move, Black to move, and Black to move
/// with the swap available.
static KEYS: Zobrist<MAX_CELLS, 3> = Zobrist::new(0x48_41_56);

/// A Havannah position with its groups (a union-find over cells carrying corner and edge
/// bits) and its empty cells (for constant-time random moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Havannah {
    owner: [u8; MAX_CELLS],
    parent: [u16; MAX_CELLS],
    group_size: [u16; MAX_CELLS],
    corners: [u8; MAX_CELLS],
    edges: [u8; MAX_CELLS],
    empties: [u16; MAX_CELLS],
    empty_at: [u16; MAX_CELLS],
    empty_count: u16,
    moves_made: u16,
    last_move: u16,
    ply: u32,
    hash: u64,
    base: u8,
    swap: bool,
    to_move: Player,
    outcome: Option<Outcome>,
    /// In a playout under Castro's ring depth ([`crate::Features::ring_depth`]): the stones
    /// placed after which a ring no longer wins (`NONE`: rings always win, the rules).
    ring_cutoff: u16,
    /// In a playout under Castro's ring permanence ([`crate::Features::ring_permanence`]):
    /// the stones a ring's group must hold from before the playout (0: any ring wins).
    ring_permanent: u8,
    /// Where `ring_permanent`'s stones are counted: in the ring's group, or on a walked loop
    /// (Castro's count).
    ring_counted: PermanentIn,
    /// The cells taken when the playout began, one bit a cell (with `ring_permanent` only).
    permanent: [u64; MAX_CELLS.div_ceil(64)],
}

impl Default for Havannah {
    fn default() -> Self {
        Havannah::new(DEFAULT_BASE, false).expect("the default base is valid")
    }
}

impl Havannah {
    /// The letter of the cell with action number `cell` in the drawn board.
    fn cell_char(&self, cell: usize) -> char {
        match self.owner[cell] {
            0 => 'W',
            1 => 'B',
            _ => '.',
        }
    }

    /// The columns x of row y's cells, left to right.
    fn row_span(&self, y: usize) -> std::ops::Range<usize> {
        let (d, base) = (self.geometry().diameter, self.base as usize);
        if y < base {
            0..base + y
        } else {
            y + 1 - base..d
        }
    }

    /// The empty board of `base` (4 to 10), with or without the swap rule; White moves first.
    pub fn new(base: usize, swap: bool) -> Result<Havannah, GameSpecError> {
        if !BASES.contains(&base) {
            return Err(GameSpecError {
                kind: crate::error::SpecErrorKind::BadValue,
                reason: format!("havannah: size must be from 4 to 10, not {base}"),
            });
        }
        let g = geometry(base);
        let mut h = Havannah {
            owner: [OFF; MAX_CELLS],
            parent: [0; MAX_CELLS],
            group_size: [1; MAX_CELLS],
            corners: [0; MAX_CELLS],
            edges: [0; MAX_CELLS],
            empties: [0; MAX_CELLS],
            empty_at: [NONE; MAX_CELLS],
            empty_count: 0,
            moves_made: 0,
            last_move: NONE,
            ply: 0,
            hash: 0,
            base: base as u8,
            swap,
            to_move: Player::ZERO,
            outcome: None,
            ring_cutoff: NONE,
            ring_permanent: 0,
            ring_counted: PermanentIn::Group,
            permanent: [0; MAX_CELLS.div_ceil(64)],
        };
        for i in 0..g.diameter * g.diameter {
            h.parent[i] = i as u16;
            h.corners[i] = g.corner[i];
            h.edges[i] = g.edge[i];
            if g.on_board[i] {
                h.owner[i] = EMPTY;
                h.empty_at[i] = h.empty_count;
                h.empties[h.empty_count as usize] = i as u16;
                h.empty_count += 1;
            }
        }
        h.hash = h.hash_from_scratch();
        Ok(h)
    }

    #[inline]
    fn geometry(&self) -> &'static Geometry {
        geometry(self.base as usize)
    }

    /// The base.
    #[must_use]
    pub fn base(&self) -> usize {
        self.base as usize
    }

    /// Whether the next move may take over the first stone (swap rule, second player's first
    /// move).
    #[must_use]
    pub fn swap_available(&self) -> bool {
        self.swap && self.moves_made == 1 && self.to_move == Player::ONE && self.outcome.is_none()
    }

    fn phase(&self) -> u32 {
        if self.swap_available() {
            2
        } else {
            self.to_move.index() as u32
        }
    }

    fn find(&mut self, cell: usize) -> usize {
        let mut root = cell;
        while self.parent[root] as usize != root {
            root = self.parent[root] as usize;
        }
        self.parent[cell] = root as u16;
        root
    }

    /// Joins the groups of `a` and `b`; true if they were one group already.
    fn join(&mut self, a: usize, b: usize) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return true;
        }
        if self.group_size[ra] < self.group_size[rb] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb] = ra as u16;
        self.group_size[ra] += self.group_size[rb];
        self.corners[ra] |= self.corners[rb];
        self.edges[ra] |= self.edges[rb];
        false
    }

    /// The stones of `me` from before the playout ([`Havannah::permanent`]) in the groups a
    /// stone would join: what a ring through it can hold at most.
    fn permanent_stones(&self, me: u8, joined: &Joined) -> u32 {
        if self.ring_permanent == 0 {
            return u32::MAX;
        }
        let roots = &joined.roots[..joined.groups];
        let mut count = 0;
        for (w, &bits) in self.permanent.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let cell = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.owner[cell] == me && roots.contains(&(self.root_of(cell) as u16)) {
                    count += 1;
                }
            }
        }
        count
    }

    /// Whether the ring a stone of `me` on `c` makes (the stone placed, its groups not yet
    /// joined) holds the playout's permanent stones, counted where `ring_counted` says.
    fn ring_holds_permanent(&self, c: usize, me: u8, joined: &Joined) -> bool {
        let needed = u32::from(self.ring_permanent);
        match self.ring_counted {
            PermanentIn::Ring if needed > 0 => self.walked_ring_holds(c, me, needed),
            _ => self.permanent_stones(me, joined) >= needed,
        }
    }

    /// Whether some loop of `me`'s stones through `c`, walked as Castro walks a ring (from
    /// `c` to a neighbour, then each step straight on or turning 60°, never onto a cell
    /// already on the walk, back to `c` after at least 6 stones), holds `needed` stones from
    /// before the playout. A depth-first search over the walks with its path in fixed arrays
    /// (nothing allocated); it gives up, saying no, after [`RING_WALK_STEPS`] steps or on a
    /// walk longer than [`RING_WALK_LONGEST`] stones, so a huge blob of stones cannot stall a
    /// playout.
    fn walked_ring_holds(&self, c: usize, me: u8, needed: u32) -> bool {
        let g = self.geometry();
        let permanent =
            |cell: usize| u32::from((self.permanent[cell / 64] >> (cell % 64)) & 1 == 1);
        // The walk's stones after `c`, the direction each was entered by, the turns tried
        // from it, and the permanent stones up to it.
        let mut cells = [0u16; RING_WALK_LONGEST];
        let mut heading = [0u8; RING_WALK_LONGEST];
        let mut tried = [0u8; RING_WALK_LONGEST];
        let mut held = [0u32; RING_WALK_LONGEST];
        let mut steps = 0;
        for first in 0..6u8 {
            let n = g.neighbours[c][usize::from(first)];
            if n == NONE || self.owner[n as usize] != me {
                continue;
            }
            (cells[0], heading[0], tried[0], held[0]) = (n, first, 0, permanent(n as usize));
            let mut len = 1;
            while len > 0 {
                steps += 1;
                if steps > RING_WALK_STEPS {
                    return false;
                }
                let i = len - 1;
                if tried[i] == 3 {
                    len -= 1;
                    continue;
                }
                // 60° to one side, straight on, 60° to the other (places run round a cell).
                let dir = (heading[i] + 5 + tried[i]) % 6;
                tried[i] += 1;
                let next = g.neighbours[cells[i] as usize][usize::from(dir)];
                if next == NONE {
                    continue;
                }
                if next as usize == c {
                    if len + 1 >= 6 && held[i] >= needed {
                        return true;
                    }
                    continue;
                }
                if self.owner[next as usize] != me
                    || cells[..len].contains(&next)
                    || len == RING_WALK_LONGEST
                {
                    continue;
                }
                (cells[len], heading[len], tried[len]) = (next, dir, 0);
                held[len] = held[i] + permanent(next as usize);
                len += 1;
            }
        }
        false
    }

    /// The root of `cell`'s group, without shortening the path (for `&self` queries).
    fn root_of(&self, cell: usize) -> usize {
        let mut root = cell;
        while self.parent[root] as usize != root {
            root = self.parent[root] as usize;
        }
        root
    }

    /// What a stone of `me` on `c` would join (see [`Joined`]). The own neighbours of `c`, in
    /// order around it, fall into runs, each run inside one group; one root lookup a run.
    fn joined_by(&self, c: usize, me: u8) -> Joined {
        let g = self.geometry();
        let around = &g.neighbours[c];
        let mut own = 0u8;
        for (k, &n) in around.iter().enumerate() {
            if n != NONE && self.owner[n as usize] == me {
                own |= 1 << k;
            }
        }
        // Bit k of `before` (`after`): place k - 1 (k + 1) around `c` is own.
        let before = ((own << 1) | (own >> 5)) & 0x3f;
        let after = ((own >> 1) | (own << 5)) & 0x3f;
        let (mut corners, mut edges) = (g.corner[c], g.edge[c]);
        let mut rejoins = false;
        // The distinct roots, in locals rather than an indexed array (kept in registers:
        // this runs at every playout move and several times a new child).
        let (mut first, mut second, mut third) = (NONE, NONE, NONE);
        let mut seen = 0;
        // Each run's first place; a full circle of own stones is one run. At most three
        // runs, so a root is new unless it is the first or the second.
        let heads = if own == 0x3f { 1 } else { own & !before };
        for k in places(heads) {
            let r = self.root_of(around[k] as usize) as u16;
            if r == first || r == second {
                rejoins = true;
                continue;
            }
            match seen {
                0 => first = r,
                1 => second = r,
                _ => third = r,
            }
            seen += 1;
            corners |= self.corners[r as usize];
            edges |= self.edges[r as usize];
        }
        Joined {
            corners,
            edges,
            rejoins,
            flanked: own & before & after,
            roots: [first, second, third],
            groups: seen,
        }
    }

    /// Whether a stone of `me` on `c` (empty, or the swappable first stone) would win: a
    /// fork, a bridge or a ring through it. `play_unchecked` and `wins_at_once` both decide
    /// with it, in constant time.
    ///
    /// A ring through `c` (in a game not yet won, so with no ring before it) is one of:
    /// - `c` joins one group from two separate runs of its neighbours. A path in the group
    ///   between the two runs and `c` close a loop, and each side of `c` between the runs
    ///   holds a cell that is not `me`'s: the loop parts them, so one is inside.
    /// - Otherwise the loop enters and leaves `c` through one run, and going round the cells
    ///   of that run instead of through `c` would be a loop that was there already; so what
    ///   the new loop holds inside can only be cells of that run, next to `c` with own
    ///   stones on both sides in the ring around `c`. Such a cell is ringed when all six of
    ///   its neighbours are `me`'s stones or `c`.
    ///
    /// The tests check this against a plain definition of a ring, for every empty cell, both
    /// players, along random games.
    fn wins_on(&self, c: usize, me: u8) -> bool {
        self.wins_with(c, me, &self.joined_by(c, me))
    }

    /// [`Havannah::wins_on`], from what the stone would join.
    fn wins_with(&self, c: usize, me: u8, j: &Joined) -> bool {
        j.forks_or_bridges()
            || j.rejoins
            || (j.flanked != 0 && self.rings_a_neighbour(c, me, j.flanked))
    }

    /// Whether one of `c`'s neighbours at the places `flanked` has only `me`'s stones and `c`
    /// around it.
    fn rings_a_neighbour(&self, c: usize, me: u8, flanked: u8) -> bool {
        let g = self.geometry();
        places(flanked).any(|k| {
            let n = g.neighbours[c][k] as usize;
            g.neighbours[n]
                .iter()
                .all(|&m| m != NONE && (m as usize == c || self.owner[m as usize] == me))
        })
    }

    fn remove_empty(&mut self, c: usize) {
        let at = self.empty_at[c] as usize;
        let last = self.empties[self.empty_count as usize - 1];
        self.empties[at] = last;
        self.empty_at[last as usize] = at as u16;
        self.empty_at[c] = NONE;
        self.empty_count -= 1;
    }

    fn cell_text(&self, cell: Cell) -> String {
        let d = self.geometry().diameter;
        let (x, y) = (cell.0 as usize % d, cell.0 as usize / d);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    fn on_board(&self, cell: Cell) -> bool {
        let g = self.geometry();
        (cell.0 as usize) < g.on_board.len() && g.on_board[cell.0 as usize]
    }
}

impl Game for Havannah {
    type Move = Cell;

    fn name(&self) -> &'static str {
        "havannah"
    }

    fn notations(&self) -> &'static [&'static str] {
        &["castro"]
    }

    fn translate_move(&self, notation: &str, text: &str, _into: bool) -> Option<String> {
        // Castro's letter is the row and its number the column: the transpose of ours, its
        // own inverse.
        (notation == "castro").then(|| castro_transpose(text).unwrap_or_else(|| text.to_string()))
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "size",
            value: self.base(),
        })
    }

    fn spec(&self) -> String {
        let mut options = Vec::new();
        if self.base() != DEFAULT_BASE {
            options.push(format!("size={}", self.base));
        }
        if self.swap {
            options.push("swap=on".to_string());
        }
        if options.is_empty() {
            "havannah".into()
        } else {
            format!("havannah:{}", options.join(","))
        }
    }

    fn stone(&self, player: Player) -> Option<crate::Stone> {
        use crate::Stone;
        Some([Stone::White, Stone::Black][player.index()])
    }

    fn cell_shape(&self) -> crate::CellShape {
        crate::CellShape::Hex
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["white", "black"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then_some(self.to_move)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// Empty cells in action order, with the first stone's cell among them when the swap is
    /// available.
    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let swap = self.swap_available().then_some(self.last_move);
        // Branch-free: every cell is written, and the length moves on only past a legal
        // one (whether a cell is empty is a coin toss a branch predictor cannot learn).
        let owners = &self.owner[..self.geometry().on_board.len()];
        moves.resize(owners.len(), Cell(0));
        let mut k = 0;
        for (i, &owner) in owners.iter().enumerate() {
            moves[k] = Cell(i as u16);
            k += usize::from(owner == EMPTY || swap == Some(i as u16));
        }
        moves.truncate(k);
    }

    #[inline]
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _scratch: &mut Vec<Cell>) -> Option<Cell> {
        if self.outcome.is_some() {
            return None;
        }
        let n = u32::from(self.empty_count) + u32::from(self.swap_available());
        let k = rng.random_range(0..n) as usize;
        Some(Cell(if k == self.empty_count as usize {
            self.last_move
        } else {
            self.empties[k]
        }))
    }

    fn is_legal(&self, mv: Cell) -> bool {
        self.outcome.is_none()
            && self.on_board(mv)
            && (self.owner[mv.0 as usize] == EMPTY
                || (self.swap_available() && mv.0 == self.last_move))
    }

    fn play_unchecked(&mut self, mv: Cell) {
        let c = mv.0 as usize;
        let me = self.to_move.index() as u8;
        self.hash ^= KEYS.phase(self.phase());
        if self.owner[c] == EMPTY {
            self.remove_empty(c);
            self.moves_made += 1;
            self.last_move = mv.0;
        } else {
            // The swap: the first stone changes hands.
            self.hash ^= KEYS.piece(self.owner[c] as usize, c);
        }
        self.owner[c] = me;
        self.hash ^= KEYS.piece(me as usize, c);

        let joined = self.joined_by(c, me);
        let mut won = self.wins_with(c, me, &joined);
        if won && (self.moves_made > self.ring_cutoff || self.ring_permanent > 0) {
            // A playout under relaxed ring rules: a fork or a bridge wins; a ring only before
            // the ring depth, and only when its group holds enough permanent stones.
            won = joined.forks_or_bridges()
                || (self.moves_made <= self.ring_cutoff
                    && self.ring_holds_permanent(c, me, &joined));
        }
        // Join the mover's neighbouring groups, each once, by its root.
        for &r in &joined.roots[..joined.groups] {
            self.join(c, r as usize);
        }
        if won {
            self.outcome = Some(Outcome::Win(self.to_move));
        } else if self.moves_made == self.geometry().valid_cells {
            self.outcome = Some(Outcome::Draw);
        }
        self.to_move = self.to_move.other();
        self.ply += 1;
        self.hash ^= KEYS.phase(self.phase());
    }

    fn move_index(&self, mv: Cell) -> usize {
        mv.0 as usize
    }

    fn move_index_count(&self) -> usize {
        self.geometry().on_board.len()
    }

    /// The swap rule's offer: the second player's first move, with the swap on.
    fn rule_decision(&self) -> bool {
        self.swap_available()
    }

    /// Exact for both players: a fork, bridge or ring through `mv`, from the groups around it
    /// (no move played). Stones never leave, so a win of the player not to move stays a win.
    fn wins_at_once(&self, player: Player, mv: Cell) -> Option<bool> {
        let c = mv.0 as usize;
        if self.outcome.is_some() || !self.on_board(mv) {
            return Some(false);
        }
        // The swap (the only move onto a stone) comes after a single stone: never a win.
        Some(self.owner[c] == EMPTY && self.wins_on(c, player.index() as u8))
    }

    fn why_illegal(&self, mv: Cell) -> String {
        if !self.on_board(mv) {
            format!("cell {} is off the board", mv.0)
        } else {
            format!("cell {} is occupied", self.cell_text(mv))
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[f64; 2]> {
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase(self.phase());
        for (i, &o) in self.owner[..self.geometry().on_board.len()]
            .iter()
            .enumerate()
        {
            if o < 2 {
                h ^= KEYS.piece(o as usize, i);
            }
        }
        h
    }

    /// Letter for x (`a` = 0), number for y (from 1), as OpenSpiel prints actions.
    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        let d = self.geometry().diameter;
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: format!(
                "a cell: letter a..{} then number 1..{d}, on the board",
                (b'a' + d as u8 - 1) as char
            ),
        };
        let mut chars = text.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_lowercase)
            .ok_or_else(err)?;
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err());
        }
        let x = (letter as u8 - b'a') as usize;
        let y: usize = digits.parse::<usize>().map_err(|_| err())?;
        if x >= d || y == 0 || y > d {
            return Err(err());
        }
        let cell = Cell((x + d * (y - 1)) as u16);
        if self.on_board(cell) {
            Ok(cell)
        } else {
            Err(err())
        }
    }

    fn move_text(&self, mv: Cell) -> String {
        self.cell_text(mv)
    }

    /// Letter = column, number = row from the top (OpenSpiel's notation).
    fn cell_names(&self) -> Vec<Vec<String>> {
        (0..self.geometry().diameter)
            .map(|y| {
                self.row_span(y)
                    .map(|x| format!("{}{}", char::from(b'a' + x as u8), y + 1))
                    .collect()
            })
            .collect()
    }

    /// One text row per y (top first), indented to draw the hexagon: `W` white (moves first),
    /// `B` black, `.` empty.
    fn board_rows(&self) -> Vec<String> {
        let (d, base) = (self.geometry().diameter, self.base as usize);
        (0..d)
            .map(|y| {
                let cells: Vec<String> = self
                    .row_span(y)
                    .map(|x| self.cell_char(x + d * y).to_string())
                    .collect();
                format!(
                    "{}{}",
                    " ".repeat((base as i32 - 1 - y as i32).unsigned_abs() as usize),
                    cells.join(" ")
                )
            })
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        let d = self.geometry().diameter;
        out.clear();
        for y in 0..d {
            out.extend(self.row_span(y).map(|x| self.cell_char(x + d * y) as u8));
        }
    }

    /// The rows of [`Game::board_rows`] (spaces ignored) and an optional line
    /// `to_move white|black` (default: White if the stone counts are equal, else Black).
    /// Positions that are already won are refused.
    fn set_up(&self, text: &str) -> Result<Havannah, PositionError> {
        let err = |reason: String| PositionError { reason };
        let mut fresh = Havannah::new(self.base(), self.swap).map_err(|e| err(e.reason))?;
        let (d, base) = (self.geometry().diameter, self.base());
        let mut to_move = None;
        let mut rows = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.strip_prefix("to_move") {
                Some(p) => {
                    to_move = Some(match p.trim() {
                        "white" => Player::ZERO,
                        "black" => Player::ONE,
                        o => return Err(err(format!("to_move must be white or black, not '{o}'"))),
                    })
                }
                None => rows.push(
                    line.chars()
                        .filter(|c| !c.is_whitespace())
                        .collect::<Vec<char>>(),
                ),
            }
        }
        if rows.len() != d {
            return Err(err(format!("expected {d} rows, found {}", rows.len())));
        }
        let mut stones = [0u32; 2];
        for (y, row) in rows.iter().enumerate() {
            let start = if y < base { 0 } else { y + 1 - base };
            let want = if y < base { base + y } else { d } - start;
            if row.len() != want {
                return Err(err(format!(
                    "row {} has {} cells, expected {want}",
                    y + 1,
                    row.len()
                )));
            }
            for (k, &ch) in row.iter().enumerate() {
                let player = match ch {
                    '.' => continue,
                    'W' => Player::ZERO,
                    'B' => Player::ONE,
                    other => return Err(err(format!("unknown cell character '{other}'"))),
                };
                stones[player.index()] += 1;
                fresh.to_move = player;
                fresh.play_unchecked(Cell((start + k + d * y) as u16));
                if fresh.outcome.is_some() {
                    return Err(err("the position is already won".into()));
                }
            }
        }
        fresh.to_move = to_move.unwrap_or(if stones[0] == stones[1] {
            Player::ZERO
        } else {
            Player::ONE
        });
        fresh.ply = 0;
        fresh.hash = fresh.hash_from_scratch();
        Ok(fresh)
    }
}

mod features;
mod shape;

impl crate::options::Registered for Havannah {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "havannah",
        about: "Havannah: ring, bridge or fork; cross-checked against OpenSpiel",
        options: &[
            crate::options::GameOption {
                name: "size",
                kind: crate::options::OptionKind::Int { min: 4, max: 10 },
                default: Some("8"),
                help: "cells on a side (OpenSpiel's board_size)",
            },
            crate::options::SWAP,
        ],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Havannah, GameSpecError> {
        let size = options.int("size")?;
        let swap = options.choice("swap")? == "on";
        Havannah::new(size, swap)
    }
}

#[cfg(test)]
mod tests;

/// `e3` ↔ `c5`: HavannahGui's notation, which Castro uses, names a cell by its row letter and
/// column number, the transpose of ours; `None` for text that is not a letter and a number.
fn castro_transpose(text: &str) -> Option<String> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    let number: u32 = chars.as_str().parse().ok()?;
    if !letter.is_ascii_lowercase() || !(1..=26).contains(&number) {
        return None;
    }
    let new_letter = char::from(b'a' + u8::try_from(number - 1).ok()?);
    Some(format!(
        "{new_letter}{}",
        u32::from(letter) - u32::from('a') + 1
    ))
}
