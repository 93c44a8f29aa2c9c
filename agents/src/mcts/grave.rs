//! GRAVE (`grave=R`, Cazenave 2015): a node with fewer than `R` visits ranks its children by
//! the AMAF statistics of a better-sampled node above it, the closest on the descent's path
//! with `R` visits whose children have the same mover, read by move.

use super::*;

/// No node: the descent has not passed a reference for that mover yet.
const NO_NODE: u32 = u32::MAX;

/// GRAVE's state for the descent under way: the reference node of each mover, and the
/// AMAF statistics the node being selected from reads for its children.
#[derive(Debug)]
pub(super) struct Grave {
    /// Each mover's reference: the last node of the path with `R` visits whose children
    /// that player moves into.
    reference: [u32; 2],
    /// For each move index and mover, the reference's child's AMAF statistics and the fill
    /// they belong to (an entry of an older fill is stale).
    table: Vec<[(Amaf, u32); 2]>,
    /// The fill number of each mover's table entries, and the node they were read from in
    /// this descent (`NO_NODE`: not yet).
    fill: u32,
    filled: [u32; 2],
    filled_from: [u32; 2],
    /// The node whose children `amaf` serves (`NO_NODE`: none), and their statistics in the
    /// order the children are stored.
    pub(super) node: u32,
    pub(super) amaf: Vec<Amaf>,
}

impl Default for Grave {
    fn default() -> Self {
        Grave {
            reference: [NO_NODE; 2],
            table: Vec::new(),
            fill: 0,
            filled: [0; 2],
            filled_from: [NO_NODE; 2],
            node: NO_NODE,
            amaf: Vec::new(),
        }
    }
}

impl Grave {
    /// Forgets the last descent's references (their statistics have moved on since).
    pub(super) fn start_descent(&mut self) {
        self.reference = [NO_NODE; 2];
        self.filled_from = [NO_NODE; 2];
        self.node = NO_NODE;
    }
}

impl<G: Game + Features> Mcts<G> {
    /// GRAVE: before selecting among expanded `node`'s children (in `state`, the node's
    /// position), makes `node` its mover's reference when it has `R` visits; else, when
    /// that mover has a reference higher on the path, fills [`Grave::amaf`] with the
    /// reference's AMAF statistics of each child's move (a child whose move the reference
    /// lacks keeps its own), for [`Mcts::ucb`] to read in place of the children's own.
    pub(super) fn grave_prepare(&mut self, node: usize, state: &G) {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let mover = usize::from(self.nodes[first].mover_into);
        let g = &mut self.grave;
        g.node = NO_NODE;
        if n.visits >= self.spec.grave {
            g.reference[mover] = node as u32;
            return;
        }
        let reference = g.reference[mover];
        if reference == NO_NODE {
            return;
        }
        amaf::size_once(
            &mut g.table,
            state.move_index_count(),
            [(Amaf::default(), 0); 2],
        );
        if g.filled_from[mover] != reference {
            g.fill += 1;
            g.filled[mover] = g.fill;
            g.filled_from[mover] = reference;
            let r = self.nodes[reference as usize];
            let r_first = r.first_child as usize;
            for i in r_first..r_first + usize::from(r.children) {
                let index = state.move_index(self.moves[i - 1]);
                g.table[index][mover] = (self.amaf[i], g.fill);
            }
        }
        g.amaf.clear();
        for i in first..first + usize::from(n.children) {
            let (amaf, fill) = g.table[state.move_index(self.moves[i - 1])][mover];
            g.amaf.push(if fill == g.filled[mover] {
                amaf
            } else {
                self.amaf[i]
            });
        }
        g.node = node as u32;
    }
}
