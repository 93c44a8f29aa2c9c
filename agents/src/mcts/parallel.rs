//! Root parallelism: independent trees searching the same position, their statistics summed.

use super::*;

impl<G: Game + Features> Mcts<G> {
    /// Root parallelism: this tree and `threads - 1` helpers search the same position at
    /// once, sharing the iteration budget (tree `i` of `t` runs `⌊n/t⌋`, one more for the
    /// first `n mod t`); returns the iterations of all trees.
    pub(super) fn search_in_parallel(
        &mut self,
        state: &G,
        total: Option<u64>,
        deadline: Option<Instant>,
    ) -> u64 {
        let threads = self.spec.threads as usize;
        while self.helpers.len() + 1 < threads {
            let mut spec = self.spec.clone();
            spec.threads = 1;
            let seed = self.rng.random::<u64>();
            let rng = seeded_rng(seed, self.helpers.len() as u64);
            self.helpers.push(Mcts::new(spec, self.eval.clone(), rng));
        }
        let share = |i: usize| {
            total.map(|n| {
                let t = threads as u64;
                (n / t + u64::from((i as u64) < n % t)).max(1)
            })
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let iterations = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let budget = share(i + 1);
                    scope.spawn(move || h.search(state, budget, deadline))
                })
                .collect();
            let mine = self.search(state, share(0), deadline);
            mine + running
                .into_iter()
                .map(|r| r.join().expect("a search thread does not panic"))
                .sum::<u64>()
        });
        self.helpers = helpers;
        iterations
    }
}
