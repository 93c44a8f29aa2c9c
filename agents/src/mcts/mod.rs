//! Monte Carlo tree search: UCT over a flat node arena, random playouts (optionally cut and
//! scored by an evaluation), MCTS-Solver, move-count rewards and tree reuse.
//!
//! Nodes live in one `Vec` and refer to their children by index: a node's children are
//! consecutive, so a node stores only its first child and their count. The move into node `i`
//! is `moves[i - 1]`. Each node records the player who moved into it, and a playout's reward
//! is credited to that player at that node: correct when a player moves twice in a row.
//!
//! # RAVE (`rave=K`)
//! Rapid Action Value Estimation (Gelly and Silver, "Combining Online and Offline Knowledge
//! in UCT", ICML 2007; "Monte-Carlo tree search and rapid action value estimation in computer
//! Go", AIJ 2011). Besides its visits `n` and mean reward `Q`, every node keeps AMAF ("all
//! moves as first") statistics `ñ`, `Q̃`: after an iteration whose line (tree moves, then
//! playout moves) is `m_0 m_1 …`, a child `c` of the path node at depth `d` is credited with
//! the reward of its mover `p` when `p` played `c`'s move anywhere in `m_d m_{d+1} …`. A "same
//! move" is an equal `Game::Move`: for drops (Rin, the Life duel, Havannah) the same cell; for
//! the growth and jump games the same source and target, which is a weaker analogy (the
//! source's owner may change) but the one Hexxagon programs use. Selection then scores a child
//!
//! ```text
//! β = √(K / (3n + K))                   (β = 0 while ñ = 0)
//! value = (1 − β)·Q + β·Q̃ + c·√(ln N / max(n, 1))
//! ```
//!
//! so a child seen in many playouts is judged by them before it is visited often. Two
//! options change the schedule:
//! - `rave_form=hyp`: `β = K / (K + n)`, the hyperbolic form Castro uses (Ewalds, "Playing
//!   and solving Havannah", MSc thesis, University of Alberta, 2012), which trusts AMAF
//!   longer at small `n` and drops it faster at large `n` than the square root.
//! - `rave_form=mse`: `β = ñ / (n + ñ + n·ñ/K)`, Gelly and Silver's minimum-MSE schedule
//!   ("Monte-Carlo tree search and rapid action value estimation in computer Go", Artificial
//!   Intelligence 175, 2011: `β = ñ/(n + ñ + 4b²nñ)`) with its bias `b` read from the same
//!   equivalence, `4b² = 1/K`: as `ñ` grows it becomes the hyperbolic form, but a child seen
//!   in few playouts is trusted by its AMAF mean only as far as those few support.
//! - `rave_grow=D`: `K` becomes `K + D·m`, where `m` is the number of moves at the parent
//!   (in a drop game, the moves left): AMAF is trusted longer early in the game, where a
//!   cell keeps its meaning for many moves. Castro uses `K = 500 + 200·m`.
//! - `amaf_plies=N`: only the tree's moves and a playout's first `N` plies credit AMAF
//!   (Helmbold and Parker-Wood's cutoff-AMAF, "All-moves-as-first heuristics in Monte-Carlo
//!   Go", IC-AI 2009): a stone dropped late in a random playout says little of the move's
//!   worth where the tree is.
//!
//! A child with neither visits nor AMAF statistics is tried first, as in plain UCT (or gets
//! the FPU value, below). The statistics take 8 more bytes a node (a parallel array,
//! allocated only with RAVE on): **32 bytes a node with RAVE on**, plus its move. The line's moves are
//! marked in an array indexed by [`Game::move_index`] and unmarked after the update, so an
//! iteration allocates nothing.
//!
//! # Decisive moves (`decisive=tree|on`)
//! Teytaud and Teytaud, "On the huge benefit of decisive moves in Monte-Carlo tree search
//! algorithms" (IEEE CIG 2010); Lorentz, "Improving Monte-Carlo tree search in Havannah"
//! (CG 2010). A *decisive* move wins at once; an *anti-decisive* move takes the cell of the
//! opponent's decisive move. Both come from [`Game::wins_at_once`] (Havannah answers from its
//! groups without playing; other games answer `None`, and the mover's wins are then found by
//! playing each move on a copy; blocks need the game's answer).
//! - `decisive=tree`: when a node is expanded, a child that wins at once is proven won
//!   (distance 0), which MCTS-Solver turns into a proof of the node. Else, when the opponent
//!   has a decisive move the mover can also play, every other child is proven lost at
//!   distance 1: only the block is searched, as Castro's "minimax 2" expansion does. With
//!   two or more such threats no stone blocks them all, and every child is proven lost at
//!   distance 1. Costs one test per child per expansion.
//! - `decisive=on`: the same in the tree, and at every playout ply: the mover plays a
//!   decisive move if it has one, else the first anti-decisive one, else the policy's move.
//!   Costs a test of every legal move, twice, at every ply.
//! - `decisive_plies=N` (with `decisive=on`): decisive moves in a playout's first `N` plies
//!   only, as Castro's mate-in-one "early in rollouts" (Ewalds 2012, `-w`/`-W`): the tests
//!   are paid where a playout's tactics still say something about the leaf. Added to
//!   `preset=strong2` on Havannah 6 at 0.25 s a move (`decisive_plies=6`): −34.9 Elo
//!   [−86.0, +14.8], no difference shown (`results/castro-best/`).
//! - `mate_at=N` (with `decisive=tree` or `on` and the solver): Stankiewicz, Winands and
//!   Uiterwijk's Havannah-Mate ("Monte-Carlo tree search enhancements for Havannah", ACG
//!   2011) at its shallowest. When a node has `N` visits, and decisive moves proved none of
//!   its children, it is searched once for a mate in three: a child after which the mover
//!   has two moves that win at once, and wins at once after every reply, is proven won at
//!   distance 2, so the solver proves the node. Decisive moves find such a mate only once
//!   the child is visited and expanded (its two threats then prove every reply lost); this
//!   finds it among children the search has not tried. Costs a test of every legal move
//!   after each child, once a node; games whose [`Game::wins_at_once`] answers `None` are
//!   not searched.
//!
//! # First-play urgency (`fpu=F`)
//! Gelly and Wang, "Exploration exploitation in Go: UCT for Monte-Carlo Go" (NIPS workshop
//! 2006). A child never visited (and, with RAVE, never seen in a playout) scores `F` instead
//! of being tried before all its visited siblings; rewards lie in [−1, 1], so `F = 1` is
//! optimistic and `F = 0` neutral.
//!
//! # Progressive bias (`bias=W`)
//! Chaslot, Winands, van den Herik, Uiterwijk and Bouzy, "Progressive strategies for
//! Monte-Carlo tree search" (New Math. and Natural Computation, 2008). When a node is
//! expanded, each child gets a prior `H = tanh(E/4)`, where `E` is the agent's evaluation
//! (`eval=`, `weights=`, `w.NAME=`) of the position after its move from its mover's view (a
//! move that wins at once gets `H = 1`). Selection adds `W · H / (n + 1)`, knowledge that
//! fades as the child's own visits `n` grow. Priors take 4 bytes a node (a parallel array,
//! allocated only with `bias` above 0) and one copy, move and evaluation per child.
//!
//! # Move knowledge (`know=W`)
//! The game's cheap knowledge of each move ([`Features::move_knowledge`], read without
//! playing it; Havannah's is Castro's: the corners and edges the move's group would touch,
//! and the answer to an intrusion into a two-cell link) is stored with each child at
//! expansion. Selection adds
//!
//! ```text
//! W · K(m) / √max(n, 1)          (while n < 1000; nothing after)
//! ```
//!
//! Castro's fading of `know` in `Node::value` (`player.h`). Unlike `bias`, it plays no move
//! and evaluates nothing: one table lookup per child. With `fpu`, a child never seen is
//! valued `F + W·K(m)`, so knowledge orders the first visits. 4 bytes a node (a parallel
//! array, allocated only with `know` above 0). Games without knowledge answer 0.
//!
//! `know.NAME=W` weighs one of the game's named terms ([`Features::knowledge_terms`]:
//! Havannah's are Castro's `connect`, `bridge`, `reply`, `local`, `size` and `distance`, and
//! `shape`, the learned strength `ln γ` of the shape around the move, fitted by `arena tune
//! shapes` to Castro's moves), so a spec can set each as Castro's options do. A term the game
//! reads from the whole position (Havannah's `distance`, a flood from every corner and edge) is
//! read once for all the children ([`Features::knowledge_term_all`]). With any named term,
//! `W·K(m)` above becomes `know·K(m) + Σ W_NAME·T_NAME(m)`, read once at expansion like `K`;
//! a name the game lacks is refused when the agent is built. `shapes=FILE` (a file `arena
//! tune shapes` wrote) replaces the shipped weights the term `shape` reads, wherever it is
//! read (`know.`, `prob.`, `roll.`): the file's `ln γ` of the move's shape
//! ([`Features::move_shape`]), 0 for a shape it lacks; where the file also holds wide shapes
//! (`arena tune shapes --wide`), the move's wide shape's ([`Features::move_wide_shape`]) if
//! the file has it. The shipped file read this way searches exactly as the shipped term does.
//!
//! # Playout policies (`policy=random|mast|ngram|eval`, `epsilon=ε`)
//! - `mast`: Move-Average Sampling Technique (Finnsson and Björnsson, "Simulation-based
//!   approach to general game playing", AAAI 2008), ε-greedy as in Tak, Winands and
//!   Björnsson ("N-grams and the last-good-reply policy applied in general game playing",
//!   IEEE TCIAIG 2012). Every move of every iteration's line (tree and playout) adds its
//!   mover's reward to a table indexed by move and player. A playout ply is uniformly random
//!   with probability ε, else the legal move with the best average `Q_MAST(m, p)` (unseen
//!   moves count 0; ties are broken uniformly). At the start of each search the table is
//!   halved (sums and counts), so the last position weighs most.
//! - `ngram`: N-gram selection (NST; Tak, Winands and Björnsson, as above, with N up to 2;
//!   Stankiewicz, Winands and Uiterwijk, "Monte-Carlo tree search enhancements for
//!   Havannah", ACG 2011, played N-grams in Havannah's playouts). MAST's table, and beside
//!   it each pair's: every move of the line after another adds its mover's reward to the
//!   pair (the move before, the move). The greedy move is the best average of the move's
//!   `Q_MAST(m, p)` (0 unseen) and, when the pair of the last move and `m` has at least 7
//!   visits, the pair's mean (a pair seen less is left out). Both tables are halved at each
//!   search. The pairs' table has 2¹⁶ slots, one a pair for games of up to 256 move indices;
//!   a game with more shares slots between pairs.
//! - `eval`: ε-greedy on the evaluation: with probability 1 − ε the move whose resulting
//!   position the evaluation rates best for the mover (a move that wins at once first).
//!   One copy, move and evaluation per legal move per ply: the dearest policy.
//!
//! # Playout replies (`pattern=on`, `reply=lgr|lgrf`)
//! Before the policy's move (and after a decisive move, with `decisive=on`), a playout ply
//! may answer the move just played:
//! - `pattern=on`: the game's own answer, [`Features::playout_reply`]. Havannah's saves a
//!   two-cell link (a "bridge", or a stone's link to the edge) the last stone broke into,
//!   as Castro's `rolloutpattern` does (Lorentz, "Improving Monte-Carlo tree search in
//!   Havannah", CG 2010, plays the same reply in Wanderer's playouts). The scan around the
//!   last stone starts one place further at each call, so where two links are broken each
//!   is saved in turn. A handful of lookups a ply; games without an answer give none.
//! - `reply=lgr`: last good reply, LGR-1 (Drake, "The last-good-reply policy for Monte-Carlo
//!   Go", ICGA Journal 2009): after each iteration, every move of its line (tree and
//!   playout) made by the winner is stored as its mover's reply to the move before it, in a
//!   table indexed by that move's [`Game::move_index`] and the replying player. A playout
//!   ply plays the stored reply to the last move when it is legal.
//! - `reply=lgrf`: LGRF-1 (Baier and Drake, "The power of forgetting: improving the
//!   last-good-reply policy in Monte Carlo Go", IEEE TCIAIG 2010): also, a move of the loser
//!   that is the stored reply is forgotten. Stankiewicz, Winands and Uiterwijk
//!   ("Monte-Carlo tree search enhancements for Havannah", ACG 2011) measured both on
//!   Havannah.
//!
//! The table takes two moves per move index (allocated once; kept between moves, as the
//! papers do), and a draw or an evaluated cut playout with equal rewards teaches nothing.
//! Nothing is allocated per iteration.
//!
//! # The move played (`final=visits|wins`)
//! Among the root's unproven children, the move played is the most visited one (the "robust
//! child" of Chaslot et al., 2008; ties go to the better mean), or with `final=wins` the one
//! with the most won playouts, `n·(1 + Q)/2` for rewards in [−1, 1] (Castro's default,
//! `msrave=-2`; ties go to more visits). The two differ when a child with fewer visits has
//! enough more wins, as after a late swing of the search. Proven wins and losses come first
//! either way (see the crate docs).
//!
//! # The order of children (`order=random|list`)
//! When a node is expanded its children are stored in a uniformly random order, drawn from
//! the agent's generator (a Fisher–Yates shuffle of the legal moves), as OpenSpiel's
//! `MCTSBot` shuffles them; with `know`, `prob` or `bias` on they are then sorted by the
//! term selection gives an unvisited child, `know·K(m) + bias·H(m) + Σ W·ρ(m)`, highest
//! first, the shuffle breaking ties. That order decides everything the formulas leave open:
//! which unvisited child is tried first (the first stored), which of two children with
//! equal scores selection takes (the first stored: a strict `>`), and which of equal
//! children is played.
//! So at small budgets, where most children have one visit, no move is favoured for its place
//! in the game's move list. `order=list` keeps the move list's order, as every MCTS did before
//! the option existed (records played then say `order=list`): in Havannah 5's skill-curve
//! games it played the first listed cell in 49%, 45% and 23% of its moves at 16, 32 and 64
//! iterations (about 3% with the random order).
//!
//! # Root parallelism (`threads=N`)
//! Cazenave and Jouandeau, "On the parallelization of UCT" (CGW 2007); Chaslot, Winands and
//! van den Herik, "Parallel Monte-Carlo tree search" (CG 2008). `N` trees, each with its own
//! generator (seeded from the agent's), search the same position on `N` threads; the
//! iteration budget `n` is shared (tree `i` runs `⌊n/N⌋`, plus one for `i < n mod N`), a time
//! budget applies to each. The move is chosen as with one tree, over visits and rewards
//! summed across trees (matched by move: each tree orders its children itself); a child
//! proven lost in any tree is lost. Each tree keeps its own
//! subtree between moves. With an iteration budget the result depends only on the seed, never
//! on scheduling: the trees share nothing while they search.
//!
//! # Tree parallelism (`parallel=tree`, `batch=B`)
//! Chaslot, Winands and van den Herik, "Parallel Monte-Carlo tree search" (CG 2008), with
//! virtual loss (Segal, "On the scalability of parallel UCT", CG 2010), its leaves batched
//! as searches that evaluate leaves on an accelerator batch them. One tree; the
//! search runs in rounds. A round descends `B` times from the root, one after another, each
//! descent leaving a *virtual loss* on its path (a visit and a lost reward for each node's
//! mover), so later descents turn to other lines; its `B` leaves are played out, and the
//! results are backed up in descent order, each lifting its virtual loss first. Rounds are
//! pipelined: round `k + 1` is descended before round `k` is backed up. Selection, expansion
//! and backing up write the tree and stay on one thread, which also plays out the first
//! playouts of each round (its home share); the other `N − 1` threads play out the rest (a
//! descent's to one of them, in turn) while it works. The home share grows by one playout a
//! round when that thread waited for the others' playouts and shrinks by one when it did
//! not, so the threads' loads meet whether playouts are cheap beside a descent (one playout
//! a leaf) or dear (`rollouts=5`); counted in playouts, it may split a descent's. A
//! descent's `rollouts=K` playouts are backed up one after another, their AMAF credits
//! summed in one pass as on one tree (below), and the copies of the leaf they start from are
//! made by the thread that plays them (by the searching thread for the other thread's part of
//! a split descent). Each playout's generator is
//! seeded at its descent from the agent's, so with an iteration budget the search is the
//! same tree and the same move at any thread count (`parallel=tree,threads=1` is the batched
//! search on one thread). `policy=mast`, `policy=ngram` and `reply=` are refused with it: their tables learn
//! from each playout before the next. With RAVE a young node's value is mostly its AMAF
//! mean, which a virtual loss on the node's own statistics barely moves, so a round's
//! descents crowd into the same young lines; `vloss=amaf` also lays each virtual loss on the
//! AMAF statistics of the path's moves (a visit and a lost reward, lifted with the rest).
//!
//! # Several playouts a leaf (`rollouts=K`)
//! Each iteration descends the tree once and then plays `K` playouts from the new leaf, each
//! backed up to the root on its own (visits, rewards, AMAF, MAST and replies), as Castro's
//! `rollouts` option does (Ewalds 2012 measured 5 best on Havannah): the descent and the
//! expansion are paid once for `K` results. Their AMAF credits are added in one pass over the
//! path's children after the last playout, each child's summed over the `K` (the same
//! statistics as `K` passes, since nothing reads them in between and sums of wins, losses
//! and draws are exact; with other rewards, such as a cut playout's evaluation, the `K`
//! passes are made in turn). An iteration budget (`iters=N`) counts descents,
//! so the root gets `N·K` visits. The leaf's position is copied once an iteration to restart
//! each playout.
//!
//! # Relaxed playout rules (`ring_depth=F`, `ring_perm=N`, `ring_perm_in=group|ring`)
//! Before each playout the iteration's copy of the position is told
//! [`Features::ring_depth`]: in Havannah a ring made in the playout stops winning once a
//! share `F` of the empty cells at the playout's start is filled (forks and bridges always
//! win); and [`Features::ring_permanence`]: a ring made in the playout wins only when its
//! group holds `N` stones from before the playout (Castro counts the ring's own stones; the
//! group's count is at least that, so this rule is the more lenient). Random play
//! closes small rings that real play blocks, and MCTS takes those playouts at their word
//! (Ewalds 2012: `F = 0.7` scored 68% against plain rollouts on size 6 and 71% on size 7).
//! Positions in the tree keep the rules: only playouts are relaxed. Other games ignore it.
//!
//! With `ring_perm_in=ring` the `N` stones are counted as Castro counts them: some loop
//! through the ring's last stone, walked from it straight on or turning 60° a step back to
//! it, holds them. A depth-first search over such walks, made only when a ring is made
//! within the ring depth, in fixed arrays, giving up (no) after 4,096 steps. Added to
//! `preset=strong3` on Havannah 8 at 0.25 s a move it made no difference (+6.9 Elo
//! [−41.4, +55.5], `results/castro-best/`) and costs about 8% more instructions a search.
//!
//! # Playout pruning (`prune=F`)
//! Duguépéroux, Mazyad, Teytaud and Sopena, "Pruning playouts in Monte-Carlo tree search
//! for the game of Havannah" (CG 2016): moves that earlier iterations found bad are left out
//! of a playout, so the playouts spend themselves on the cells that matter. Ringside's
//! reading: before an iteration's playouts, the deepest node of its path with 100 visits
//! gives its children's AMAF means (RAVE's statistics, so `rave=K` is needed); each child
//! with 20 AMAF samples whose mean is more than `F` below the average of those children's
//! means (rewards in [−1, 1]: `F = 0.1` is five points of score) has its cell pruned, for
//! both players. A random playout move that is pruned is drawn again,
//! up to 8 times, so pruned cells are played only when the draws find nothing else. Decisive
//! moves, replies and the policy's greedy moves are not pruned. Added to `preset=strong2`
//! on Havannah 6 at 0.25 s a move, `prune=0.1` lost 74.1 Elo [−116.0, −34.2]
//! (`results/castro-best/`): off unless asked for.
//!
//! # PoolRave (`pool=K`, `pool_p=P`)
//! Rimmel, Teytaud and Teytaud, "Biasing Monte-Carlo simulations through RAVE values" (CG
//! 2010), measured on Havannah and Go: the tree's AMAF statistics say which cells matter
//! below a node, and the playouts are steered towards them. Before an iteration's playouts,
//! the deepest node of its path with 50 visits gives its children's AMAF means; the moves of
//! the `K` best (for their mover, among children with 20 AMAF samples; ties to the child
//! stored first) make the pool. A playout ply then draws a pool move uniformly with
//! probability `P` (default 0.3) and plays it if it is legal, for either player (a cell that
//! matters to one side matters to the other); else it plays as it would have. Decisive moves
//! and replies come first. The pool is rebuilt each iteration in two vectors kept between
//! iterations (nothing allocated once they hold `K`); `pool=0` (the default) draws nothing,
//! so specs without it play the games they always played. Added to `preset=strong4` on
//! Havannah 8 at 0.25 s a move, `pool=20` lost 147.2 Elo [97.3, 203.6] and
//! `pool=10,pool_p=0.5` 195.5 [147.6, 251.4] (`results/castro-best/`; shown once, not
//! replicated): off unless asked for.
//!
//! # GRAVE (`grave=R`)
//! Cazenave, "Generalized rapid action value estimation" (IJCAI 2015): a node with few
//! playouts has few AMAF samples for its children, and RAVE's schedule trusts them most
//! exactly then. With `grave=R` a node with fewer than `R` visits reads, for each child, the
//! AMAF statistics of the child with the same move at its *reference*: the closest node
//! above it on the descent's path with `R` visits whose children the same player moves
//! into (Ringside's AMAF statistics are kept for each child's mover only, so in an
//! alternating game the reference is an even number of plies up). A child whose move the
//! reference lacks keeps its own; a node with `R` visits reads its own and becomes the
//! reference below it. The reference's statistics are copied by move index once an
//! iteration and mover, into a table kept between iterations (nothing allocated once it
//! is sized). Needs `rave=K`; refused with `parallel=tree`. `grave=0` (the default) is off,
//! so specs without it play the games they always played. Added to `preset=strong4` on
//! Havannah 8 at 2,000 iterations a move, `grave=50` scored −41.9 Elo [−111.0, +24.1] and
//! `grave=200` −27.9 [−90.2, +32.7] (100 games each, exploratory, `results/castro-best/`):
//! off unless asked for.
//!
//! # Progressive widening (`widen=T`)
//! Coulom, "Computing Elo ratings of move patterns in the game of Go" (ICGA Journal 2007,
//! §4.2): a node offers selection only its best few children by prior knowledge and opens
//! one more each time its visits grow 1.4-fold: `2 + ⌊ln(n/T)/ln 1.4⌋` children at `n`
//! visits, 2 below `T` (Aya's `ln(n/40)/ln 1.4 + 2`). Here the order is the stored one,
//! `know·K + bias·H + Σ W·ρ` highest first (so `widen` needs `know`, `know.NAME`,
//! `prob.NAME` or `bias`, and `order=random`); children proven lost are passed over without
//! counting, and a child proven won is taken wherever it stands. Every child still gathers
//! AMAF statistics, so a child opened late starts with RAVE's estimate. `widen=0` (the
//! default) is off, so specs without it play the games they always played.
//!
//! # A prior probability (`prob.NAME=W`)
//! MoHex 2.0's prior term (Huang, Arneson, Hayward, Müller and Pawlewicz, "MoHex 2.0: a
//! pattern-based MCTS Hex player", Computers and Games 2013): each child carries the chance
//! `ρ(m)` that a learned model picks its move among its siblings, and selection adds
//!
//! ```text
//! W · ρ(m) / √(n + 1),      ρ(m) = exp T(m) / Σ_siblings exp T
//! ```
//!
//! where `T` is the game's named knowledge term `NAME` ([`Features::knowledge_terms`]). For a
//! term that is a log-strength, as Havannah's `shape` (`ln γ`, fitted by Bradley–Terry), `ρ`
//! is `γ(m)/Σγ`, the fitted chance that the move is the one played. Unlike `know.NAME`'s
//! `W·T(m)/√n`, the term is a share (it sums to `W` over the children, however many there
//! are, and a move's weight falls as better siblings appear) and fades more slowly than
//! progressive bias's `1/(n + 1)`. Several names add their terms; the children are sorted
//! with it at expansion (`know·K + bias·H + Σ W·ρ`, highest first). 4 bytes a node (a
//! parallel array, allocated only with a prior) and, at each expansion, one read of the term
//! and one exponential per child. Off unless named, so specs without it play the games
//! they always played.
//!
//! # A learned move prior (`movenet=FILE`, `movenet_w=W`, `movenet_at=N`)
//! The same term from a network ([`crate::movenet`], trained by `tools/policy_net.py` to
//! predict a strong player's moves): `ρ(m)` is the softmax share of the network's logit of
//! `m`'s cell among the children's, and `W·ρ(m)` is added to each child's prior term (beside
//! any `prob.NAME`), so selection adds `W·ρ(m)/√(n + 1)`. A network costs far more than a
//! table, so it scores a node's children once, when the node has been descended through with
//! `N` visits (default 32), not at its expansion; until then the children have the
//! game's cheaper terms alone, and the children's order is the one expansion gave them
//! (AlphaGo's arrangement in the small: a fast pattern policy's priors at once, the policy
//! network's once it has answered; Silver et al., Nature 2016). One flag a node marks it
//! scored; both arrays are kept through tree reuse.
//! Off unless named.
//!
//! # Knowledge in the playouts (`roll.NAME=W`, `roll_plies=N`)
//! MoHex 2.0's playouts (Huang et al. 2013) draw each move in proportion to a learned
//! weight of the pattern around every empty cell. In the small: each legal move weighs
//! `exp Σ W·T(m)` for the named knowledge terms `T` (`γ(m)^W` for Havannah's `shape`, `ln γ`);
//! the moves near the last move ([`Features::near_last_move`]; Havannah's empty cells among
//! the last stone's six neighbours and six cells a bridge away) are weighed each, and the
//! `E` moves elsewhere are stood for by one of them drawn uniformly, weighing `E` times its
//! own weight; one draw among these picks the move. It takes the playout policy's place
//! after decisive moves, the game's reply, the last good reply and the pool; with
//! `roll_plies=N` only in a playout's first `N` plies. A term's read and an exponential for
//! each near move at each such ply: far dearer than a uniform draw. Refused with
//! `parallel=tree`. Off unless named.
//!
//! # `preset=strong`
//! [`crate::spec::STRONG_PRESET`]: the configuration measured strongest against Castro at
//! equal time (`results/mcts-enhancements/`): Castro's own schedule and knowledge, with
//! `c = 0`, `K = 500 + 200·m` on the hyperbolic form, decisive moves in the tree and
//! `know=1` (games without move knowledge get none). Options given beside it override it.
//! `preset=strong2` ([`crate::spec::STRONG2_PRESET`]) adds `ring_depth=0.7`, measured
//! stronger on Havannah 6 (`results/castro-best/`), and `preset=strong3`
//! ([`crate::spec::STRONG3_PRESET`]) adds `rollouts=5,ring_perm=3` to that, measured stronger
//! than `strong2` on Havannah 8 (replicated; on size 6 once, its replication not shown) and
//! still weaker than Castro at its best on both sizes. `preset=strong4`
//! ([`crate::spec::STRONG4_PRESET`]) is `strong3` searching as Castro's `user` settings do:
//! `K` held at 500 (no `rave_grow`) and the final move by won playouts (`final=wins`); +111
//! and, replicated, +56 Elo over `strong3` on Havannah 8 at 0.25 s a move, and level with
//! Castro at its best (51.1% on Havannah 6 and 54.5% on Havannah 8 against Castro `user-d0`, 400
//! games each; 48.0% against `user-d0-know`, Castro's best on Havannah 8, 200 games).
//! `preset=strong5` ([`crate::spec::STRONG5_PRESET`], Havannah's only) adds the shapes learned
//! from Castro's moves in the context of the last stone (`know.shape_ctx=0.15`): stronger than
//! Castro at its best on Havannah 6 (64.2% over 400 games, replicated) and, pooled, on
//! Havannah 8 (55.0% over 800 games with one thread, 53.8% over 800 with two, short of issue
//! 46's 60% and 55%).

//!
//! # The modules
//! - this one: the agent (`Mcts`), its options' docs, the iteration (select, expand, playout,
//!   back up) and the search loop;
//! - `tree`: the node arena, reuse between moves, expansion, MCTS-Solver's proofs, rewards;
//! - `select`: the selection formulas and the final choice;
//! - `playout`: playout policies, AMAF credits, reply tables, pruning and the pool;
//! - `amaf`: RAVE's AMAF credits, a playout's or an iteration's playouts' in one pass;
//! - `grave`: GRAVE's references and the AMAF statistics they lend;
//! - `parallel`: root parallelism.

use std::time::Instant;

use rand::RngExt;
use rand::seq::SliceRandom;
use ringside_engine::{Features, Game, GameRng, Outcome, Player, random_playout, seeded_rng};

use crate::clock::Clock;
use crate::eval::Evaluator;
use crate::spec::{
    ChildOrder, Decisive, FinalChoice, MctsSpec, Parallelism, Policy, RaveForm, Reply, Scoring,
};
use crate::{Agent, Decision, SearchStats};

const UNEXPANDED: u32 = u32::MAX;
/// `mover_into` of the root, which nobody moved into.
const NOBODY: u8 = 2;
/// `proven` values: 0 or 1 is the proven winner; these two are the others.
const DRAW: u8 = 2;
const UNPROVEN: u8 = 3;
/// The longest line an iteration follows, tree and "full game" playout together: past this
/// many plies below the root it is scored by the evaluation, like a cut playout. Games whose
/// rules allow a cycle (Hexxagon and Ikabegamá: one side jumps back and forth while the other
/// must pass) would otherwise hang the search, in the playout or in an ever deeper tree.
pub const FULL_PLAYOUT_PLIES: u32 = 1_000;

/// Move knowledge stops counting once a child has this many visits of its own.
const KNOWLEDGE_VISITS: u32 = 1_000;

/// Knowledge term `term` of `mv` for the player to move ([`Features::knowledge_term`]),
/// except the term `shape` (index `shape_term`) when the spec reads a shapes file: then the
/// file's weight of the move's wide shape ([`Features::move_wide_shape`]) where it has one,
/// else of its shape ([`Features::move_shape`]), in its context
/// ([`Features::shape_context`]) when the file was fitted in context.
fn term_value<G: Features>(
    spec: &MctsSpec,
    shape_term: Option<usize>,
    state: &G,
    mv: G::Move,
    term: usize,
) -> f64 {
    match &spec.shapes {
        Some(shapes) if shape_term == Some(term) => shapes.weight(state, mv),
        _ => state.knowledge_term(mv, term),
    }
}

/// How deep below the last chosen move tree reuse looks for the new position.
const REUSE_DEPTH: u32 = 3;

/// Playout pruning: the visits a node needs before its children's AMAF statistics prune.
const PRUNE_VISITS: u32 = 100;

/// Playout pruning: the AMAF samples a child needs before its cell can be pruned.
const PRUNE_SAMPLES: u32 = 20;

/// Playout pruning: how often a random move that is pruned is drawn again.
const PRUNE_TRIES: u32 = 8;

/// The most moves near the last move a knowledge-weighed playout draw weighs
/// (`roll.NAME=W`; Havannah names at most 12).
const NEAR_MOVES: usize = 16;

/// PoolRave: the visits a node needs before its children's AMAF statistics fill the pool
/// (Rimmel, Teytaud and Teytaud 2010's 50 simulations).
const POOL_VISITS: u32 = 50;

/// PoolRave: the AMAF samples a child needs before its move can join the pool.
const POOL_SAMPLES: u32 = 20;

/// NST: the slots of the table of pairs of move indices, enough for every pair of a game of
/// up to 256 move indices (Havannah to size 9); a game with more shares slots between pairs.
const NGRAM_SLOTS: usize = 1 << 16;

/// NST: the visits a pair needs before its average joins the move's (Tak, Winands and
/// Björnsson 2012's threshold).
const NGRAM_SEEN: u32 = 7;

/// NST: the slot of the pair (the move of index `before`, then the move of index `index`)
/// in a game of `count` move indices: `before · count + index`, folded into
/// [`NGRAM_SLOTS`].
fn ngram_slot(count: usize, before: u32, index: u32) -> usize {
    (before as usize * count + index as usize) % NGRAM_SLOTS
}

/// What a scan for decisive moves found, by position in the scanned moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threat {
    /// The first move that wins at once.
    Win(usize),
    /// The one move on which the opponent would win at once: the block.
    Block(usize),
    /// The first of two or more such moves: one stone cannot block them all.
    Double(usize),
}

/// One tree node: 24 bytes ([`Mcts::BYTES_PER_NODE`]), plus its incoming move in a parallel
/// array.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// Sum of the rewards of the player who moved into this node.
    reward: f64,
    visits: u32,
    first_child: u32,
    children: u16,
    /// Plies from this node to the proven end.
    proven_distance: u16,
    mover_into: u8,
    proven: u8,
    /// Whether `mate_at` has searched this node for a mate in three.
    mate_searched: bool,
    /// Whether `movenet=FILE` has added the network's prior to this node's children.
    netted: bool,
}

// The issue's target: a node takes at most 32 bytes besides its children's edges.
const _: () = assert!(std::mem::size_of::<Node>() <= 32);
// The size the docs give (`Mcts::BYTES_PER_NODE`): the two marks sit in what was padding.
const _: () = assert!(std::mem::size_of::<Node>() == 24);

impl Node {
    fn new(mover_into: u8) -> Node {
        Node {
            reward: 0.0,
            visits: 0,
            first_child: UNEXPANDED,
            children: 0,
            proven_distance: 0,
            mover_into,
            proven: UNPROVEN,
            mate_searched: false,
            netted: false,
        }
    }
}

/// AMAF statistics of one node (RAVE): 8 bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Amaf {
    reward: f32,
    visits: u32,
}

impl Amaf {
    fn add(&mut self, reward: f64) {
        self.visits += 1;
        self.reward += reward as f32;
    }

    fn mean(self) -> Option<f64> {
        (self.visits > 0).then(|| f64::from(self.reward) / f64::from(self.visits))
    }
}

/// A child of a node being expanded, before it is stored.
#[derive(Debug, Clone, Copy)]
struct Child<M> {
    mv: M,
    /// Its progressive-bias prior (0 without `bias`).
    prior: f32,
    /// Its move knowledge (0 without `know`).
    know: f32,
    /// Its prior term's weight `Σ W·ρ(m)` (0 without `prob.NAME`).
    prob: f32,
    /// Its place in the (shuffled) move list, which breaks ties of the ranking.
    place: u32,
}

/// How an iteration's line ended.
#[derive(Debug, Clone, Copy)]
enum Leaf {
    /// Won (or drawn: `None`) `length` plies below the root, at a proven node or at the end
    /// of a playout.
    Ended { winner: Option<Player>, length: u32 },
    /// Cut by the playout cap: the evaluation's reward for player 0.
    Cut(f64),
}

/// One move of an iteration's line (tree moves, then playout moves).
#[derive(Debug, Clone, Copy)]
struct Step<M> {
    /// The move's [`Game::move_index`].
    index: u32,
    /// The player who made it.
    mover: u8,
    mv: M,
}

/// Empties a parallel array of the nodes and, when its option is on, gives the root its entry;
/// an array whose option is off stays empty.
fn restart<T: Copy + Default>(array: &mut Vec<T>, on: bool) {
    array.clear();
    if on {
        array.push(T::default());
    }
}

/// Copies entry `i` of a parallel array of the nodes, unless the array is off (empty).
fn carry<T: Copy>(to: &mut Vec<T>, from: &[T], i: u32) {
    if !from.is_empty() {
        to.push(from[i as usize]);
    }
}

/// Running mean and variance (Welford) of the lengths of one player's wins.
#[derive(Debug, Clone, Copy, Default)]
struct LengthStats {
    n: f64,
    mean: f64,
    m2: f64,
}

impl LengthStats {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn std_dev(&self) -> f64 {
        if self.n < 2.0 {
            0.0
        } else {
            (self.m2 / (self.n - 1.0)).sqrt()
        }
    }
}

/// The MCTS agent.
#[derive(Debug)]
pub struct Mcts<G: Game> {
    spec: MctsSpec,
    eval: Evaluator,
    rng: GameRng,
    nodes: Vec<Node>,
    moves: Vec<G::Move>,
    spare_nodes: Vec<Node>,
    spare_moves: Vec<G::Move>,
    queue: Vec<u32>,
    root: Option<G>,
    last_choice: Option<u32>,
    path: Vec<u32>,
    legal: Vec<G::Move>,
    /// The children of the node being expanded, in the order they are stored.
    ranked: Vec<Child<G::Move>>,
    scratch: Vec<G::Move>,
    wins: [LengthStats; 2],
    deepest: u32,
    /// RAVE: AMAF statistics parallel to `nodes` (empty when RAVE is off).
    amaf: Vec<Amaf>,
    spare_amaf: Vec<Amaf>,
    /// RAVE, MAST and last good reply: the iteration's line of moves.
    line: Vec<Step<G::Move>>,
    /// RAVE: for each move index, one past the last place in the line where each player
    /// played it (0: never); cleared after each iteration.
    last_played: Vec<[u32; 2]>,
    /// RAVE with `rollouts=K`: the iteration's playouts kept for one AMAF pass, as their
    /// moves after the tree's (end to end), where each ends, and their rewards.
    rollout_steps: Vec<Step<G::Move>>,
    rollout_ends: Vec<usize>,
    rollout_rewards: Vec<[f64; 2]>,
    /// RAVE with `rollouts=K`: each move index's credit for each player, summed over the
    /// kept playouts; cleared after each iteration.
    credits: Vec<[amaf::Credit; 2]>,
    /// MAST and NST: the average reward of each move index for each player.
    mast: Vec<[Amaf; 2]>,
    /// NST: the average reward of each pair of move indices (the move before, the move) for
    /// the second's mover, [`NGRAM_SLOTS`] slots by [`ngram_slot`].
    ngram: Vec<[Amaf; 2]>,
    /// Last good reply: by the previous move's index, each player's reply that last won.
    replies: Vec<[Option<G::Move>; 2]>,
    /// `pattern`: where the game's scan for a playout reply starts, turned at each call.
    pattern_turn: usize,
    /// `prune`: the move indices left out of this iteration's playouts, a bit each (empty:
    /// none).
    pruned: Vec<u64>,
    /// `pool`: this iteration's pool of moves (empty: none), and the children ranked into it
    /// as (AMAF mean, child), best first.
    pool: Vec<G::Move>,
    pool_ranked: Vec<(f64, u32)>,
    /// `grave`: the descent's references and the AMAF statistics they lend.
    grave: grave::Grave,
    /// Progressive bias: the prior of each node, parallel to `nodes` (empty when off).
    prior: Vec<f32>,
    spare_prior: Vec<f32>,
    /// Move knowledge: each node's [`Features::move_knowledge`], parallel to `nodes` (empty
    /// when off).
    know: Vec<f32>,
    spare_know: Vec<f32>,
    /// What knowledge is divided by at each visit count `n` it still weighs: `max(n, 1)^F`
    /// for `know_fade=F`; Castro's ½ as correctly rounded square roots, the bits `powf`
    /// may not give.
    know_fades: Vec<f64>,
    /// `know.NAME=W`: each named term's index in the game's list and its weight, found at
    /// the first expansion.
    know_terms: Vec<(usize, f64)>,
    /// For each of `know_terms`, whether the game read it for all the children being
    /// expanded at once ([`Features::knowledge_term_all`]) and, if so, their values.
    term_tables: Vec<(bool, Vec<f64>)>,
    terms_found: bool,
    /// `prob.NAME=W`: each child's prior term `Σ W·ρ(m)`, parallel to `nodes` (empty when
    /// off), each named term's index and weight (found with `know_terms`), and one term's
    /// values over the children being expanded.
    prob: Vec<f32>,
    spare_prob: Vec<f32>,
    prob_terms: Vec<(usize, f64)>,
    prob_values: Vec<f64>,
    /// `movenet=FILE`: the network's buffers (a node marks itself once the network's prior is
    /// added to its children: `Node::netted`).
    movenet_eval: crate::movenet::MoveNetEval,
    /// `pv=FILE`: the network's buffers, and the value (for player 0) of the leaf the
    /// descent just expanded, backed up in place of a playout.
    pv_eval: crate::pvnet::PvEval,
    pv_leaf: Option<f64>,
    /// `pv_noise=E`: the root's Gamma draws, reused.
    noise_draws: Vec<f64>,
    /// `roll.NAME=W`: each named term's index and weight (found with `know_terms`).
    roll_terms: Vec<(usize, f64)>,
    /// With `shapes=FILE`: the index of the game's term `shape`, which the file's weights
    /// replace (found with `know_terms`).
    shape_term: Option<usize>,
    /// A copy of a position for testing moves (decisive moves, priors, the eval policy).
    probe: Option<G>,
    /// `mate_at=N`: a second copy (the position after a candidate and a reply) and the move
    /// lists of the mate search.
    mate_probe: Option<G>,
    mate_replies: Vec<G::Move>,
    mate_moves: Vec<G::Move>,
    /// Root parallelism: the other trees (`threads - 1`).
    helpers: Vec<Mcts<G>>,
    /// Tree parallelism: the playout workers of the two rounds in flight, `threads` a
    /// round (the first played on the searching thread; a roller is at home between its
    /// round's playouts).
    rollers: Vec<Option<parallel::Roller<G>>>,
    /// Tree parallelism: each of the two rounds' slots, as (roller, slot), in descent order.
    round: [Vec<(usize, usize)>; 2],
    /// Tree parallelism: the search's root position, the start of every descent.
    round_root: Option<G>,
    /// Tree parallelism: the playouts of a round this thread plays out itself, as the last
    /// search left it (scheduling only: it never changes what is searched).
    home_share: Option<u64>,
}

impl<G: Game + Features> Mcts<G> {
    /// The size of one node; its incoming move adds `size_of::<G::Move>()`.
    pub const BYTES_PER_NODE: usize = std::mem::size_of::<Node>();

    /// An MCTS agent with these settings, evaluation (for cut playouts) and generator.
    #[must_use]
    pub fn new(spec: MctsSpec, eval: Evaluator, rng: GameRng) -> Self {
        let fade = |n: u32| match spec.know_fade {
            0.5 => f64::from(n.max(1)).sqrt(),
            f => f64::from(n.max(1)).powf(f),
        };
        let know_fades = (0..KNOWLEDGE_VISITS).map(fade).collect();
        Mcts {
            know_fades,
            spec,
            eval,
            rng,
            nodes: Vec::new(),
            moves: Vec::new(),
            spare_nodes: Vec::new(),
            spare_moves: Vec::new(),
            queue: Vec::new(),
            root: None,
            last_choice: None,
            path: Vec::new(),
            legal: Vec::new(),
            ranked: Vec::new(),
            scratch: Vec::new(),
            wins: [LengthStats::default(); 2],
            deepest: 0,
            amaf: Vec::new(),
            spare_amaf: Vec::new(),
            line: Vec::new(),
            replies: Vec::new(),
            pattern_turn: 0,
            pruned: Vec::new(),
            pool: Vec::new(),
            pool_ranked: Vec::new(),
            grave: grave::Grave::default(),
            last_played: Vec::new(),
            rollout_steps: Vec::new(),
            rollout_ends: Vec::new(),
            rollout_rewards: Vec::new(),
            credits: Vec::new(),
            mast: Vec::new(),
            ngram: Vec::new(),
            prior: Vec::new(),
            spare_prior: Vec::new(),
            know: Vec::new(),
            spare_know: Vec::new(),
            know_terms: Vec::new(),
            term_tables: Vec::new(),
            terms_found: false,
            prob: Vec::new(),
            spare_prob: Vec::new(),
            prob_terms: Vec::new(),
            prob_values: Vec::new(),
            movenet_eval: crate::movenet::MoveNetEval::default(),
            pv_eval: crate::pvnet::PvEval::default(),
            pv_leaf: None,
            noise_draws: Vec::new(),
            roll_terms: Vec::new(),
            shape_term: None,
            probe: None,
            mate_probe: None,
            mate_replies: Vec::new(),
            mate_moves: Vec::new(),
            helpers: Vec::new(),
            rollers: Vec::new(),
            round: [Vec::new(), Vec::new()],
            round_root: None,
            home_share: None,
        }
    }

    /// What a child's stored knowledge is multiplied by: `know`'s weight, or 1 when named
    /// terms are weighed (the stored value is then the whole weighted sum).
    fn know_scale(&self) -> f64 {
        if !self.spec.weighs_knowledge() {
            self.spec.know
        } else {
            1.0
        }
    }

    /// Nodes in the tree now.
    #[must_use]
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the root's result is proven, and if so its winner (`None` for a draw) and
    /// distance in plies.
    #[must_use]
    pub fn root_proof(&self) -> Option<(Option<Player>, u16)> {
        let root = self.nodes.first()?;
        match root.proven {
            UNPROVEN => None,
            DRAW => Some((None, root.proven_distance)),
            p => Some((Some(Player::new(p as usize)), root.proven_distance)),
        }
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self) {
        let Some((state, depth)) = self.descend_to_playout() else {
            return;
        };
        if self.spec.pv.is_some() {
            // The network's value in place of a playout: the leaf's, found as the descent
            // expanded it, or the position's where the descent stopped short of a new node.
            let value = match self.pv_leaf.take() {
                Some(v) => v,
                None => self.pv_value(&state),
            };
            self.back_up([value, -value]);
            return;
        }
        // With `rollouts=K`, K playouts from the same leaf, each backed up on its own; the
        // line keeps the tree's moves for each. Their AMAF credits wait for one pass at the
        // end (nothing reads AMAF between them).
        let tree_line = self.line.len();
        if self.spec.prune.is_some() {
            self.mark_pruned();
        }
        if self.spec.pool > 0 {
            self.fill_pool();
        }
        let credit_later = self.spec.rave.is_some() && self.spec.rollouts > 1;
        self.play_rollouts(state, depth, tree_line, credit_later);
        if credit_later {
            self.credit_rollouts(tree_line);
        }
    }

    /// An iteration's descent from the root: a proven leaf is backed up at once (`None`);
    /// else the leaf's position and its depth below the root, to be played out.
    fn descend_to_playout(&mut self) -> Option<(G, u32)> {
        let mut state = self.root.clone().expect("a search has a root");
        let root_ply = state.ply();
        let node = self.descend(&mut state);
        let depth = state.ply() - root_ply;
        if let Some(leaf) = self.proven_leaf(node, depth) {
            let rewards = self.leaf_rewards(leaf);
            self.back_up(rewards);
            return None;
        }
        Some((state, depth))
    }

    /// The `rollouts` playouts of an iteration from the leaf `state`, `depth` plies below the
    /// root and `tree_line` moves into the line, each backed up; with `credit_later` their
    /// AMAF credits are kept for [`Mcts::credit_rollouts`] instead of made.
    fn play_rollouts(&mut self, mut state: G, depth: u32, tree_line: usize, credit_later: bool) {
        let leaf_state = (self.spec.rollouts > 1).then(|| state.clone());
        for k in 0..self.spec.rollouts {
            if k > 0 {
                state.clone_from(leaf_state.as_ref().expect("kept for rollouts"));
                self.line.truncate(tree_line);
            }
            let (mut roll, line) = self.roll();
            let leaf = roll.play_leaf(&mut state, depth, line);
            let rewards = self.leaf_rewards(leaf);
            if credit_later {
                self.keep_rollout(tree_line, rewards);
                self.back_up_but_amaf(rewards);
            } else {
                self.back_up(rewards);
            }
        }
    }

    /// Selection and expansion from the root, playing the tree's moves on `state` (the
    /// root's position): fills the path and the line's tree moves; returns the leaf's node.
    fn descend(&mut self, state: &mut G) -> usize {
        let root_ply = state.ply();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let record = self.records_line();
        self.line.clear();
        let grave = self.spec.grave > 0;
        if grave {
            self.grave.start_descent();
        }
        loop {
            if self.nodes[node].proven != UNPROVEN {
                break;
            }
            if state.ply() - root_ply >= FULL_PLAYOUT_PLIES {
                // A line this deep only grows in a cycle: score it by the evaluation.
                break;
            }
            if self.nodes[node].first_child == UNEXPANDED {
                if !self.expand(node, state) {
                    break;
                }
                if self.spec.pv.is_some() {
                    self.add_pv(node, state);
                }
            }
            if self.spec.movenet.is_some()
                && !self.nodes[node].netted
                && self.nodes[node].visits >= self.spec.movenet_at
            {
                self.add_movenet(node, state);
            }
            if self
                .spec
                .mate_at
                .is_some_and(|at| self.nodes[node].visits >= at)
                && !self.nodes[node].mate_searched
            {
                self.nodes[node].mate_searched = true;
                self.prove_mate(node, state);
            }
            if grave {
                self.grave_prepare(node, state);
            }
            let child = self.select(node);
            if record {
                let mv = self.moves[child - 1];
                self.line.push(Step {
                    index: state.move_index(mv) as u32,
                    mover: self.nodes[child].mover_into,
                    mv,
                });
            }
            state.play_unchecked(self.moves[child - 1]);
            node = child;
            self.path.push(child as u32);
            if self.nodes[child].visits == 0 {
                if let Some(outcome) = state.outcome() {
                    self.prove(child, outcome, 0);
                } else if self.spec.pv.is_some() {
                    // A new leaf is expanded at once: one evaluation gives its children's
                    // prior and its value (a full tree keeps it a leaf, valued alone).
                    self.pv_leaf = Some(if self.expand(child, state) {
                        self.add_pv(child, state)
                    } else {
                        self.pv_value(state)
                    });
                }
                break;
            }
        }
        self.deepest = self.deepest.max(self.path.len() as u32 - 1);
        node
    }

    /// The end of an iteration whose leaf `node`, `depth` plies below the root, is proven:
    /// its winner at its proven distance; `None` when it is to be played out.
    fn proven_leaf(&self, node: usize, depth: u32) -> Option<Leaf> {
        let leaf = self.nodes[node];
        (leaf.proven != UNPROVEN).then(|| Leaf::Ended {
            winner: (leaf.proven < DRAW).then(|| Player::new(leaf.proven as usize)),
            length: depth + u32::from(leaf.proven_distance),
        })
    }

    /// Each player's reward for an iteration's end.
    fn leaf_rewards(&mut self, leaf: Leaf) -> [f64; 2] {
        match leaf {
            Leaf::Ended { winner, length } => self.rewards(winner, length),
            Leaf::Cut(r) => [r, -r],
        }
    }

    /// Credits one playout's `rewards` (each player's) to the iteration's path, its AMAF
    /// statistics, MAST and the reply tables.
    fn back_up(&mut self, rewards: [f64; 2]) {
        if self.spec.rave.is_some() {
            self.credit_amaf(rewards);
        }
        self.back_up_but_amaf(rewards);
    }

    /// [`Mcts::back_up`] but the AMAF statistics: the path, MAST and the reply tables.
    fn back_up_but_amaf(&mut self, rewards: [f64; 2]) {
        if self.spec.policy.learns() {
            for step in &self.line {
                self.mast[step.index as usize][step.mover as usize]
                    .add(rewards[step.mover as usize]);
            }
        }
        if self.spec.policy == Policy::Ngram {
            let count = self.mast.len();
            for pair in self.line.windows(2) {
                let (before, step) = (pair[0], pair[1]);
                self.ngram[ngram_slot(count, before.index, step.index)][step.mover as usize]
                    .add(rewards[step.mover as usize]);
            }
        }
        if self.spec.reply != Reply::Off {
            self.learn_replies(rewards);
        }
        let len = self.path.len();
        for k in (0..len).rev() {
            let i = self.path[k] as usize;
            if self.spec.solver && k + 1 < len && self.may_prove(k) {
                self.try_prove(i);
            }
            let n = &mut self.nodes[i];
            n.visits += 1;
            if n.mover_into != NOBODY {
                n.reward += rewards[n.mover_into as usize];
            }
        }
    }

    /// Whether the path's node `k` (not the last) may have become provable in this
    /// iteration, so [`Mcts::try_prove`] is worth its pass over the children. Only the
    /// iteration's path changes proofs: the leaf (proven when it ends the game) and the
    /// children of the leaf's parent (proven at expansion by decisive moves), then each node
    /// of the path as the back-up proves it. So a node above the leaf's parent can have
    /// gained a proven child only when its child on the path is proven; every other node is
    /// as its last try left it. Trying only these proves exactly what trying every node of
    /// the path would (tested), without a pass over every child of the path's nodes in
    /// every playout's back-up.
    fn may_prove(&self, k: usize) -> bool {
        k + 2 >= self.path.len() || self.nodes[self.path[k + 1] as usize].proven != UNPROVEN
    }

    /// Searches `state` until `budget` iterations (if any) or the clock's deadline (if any),
    /// or until the root is proven; returns the iterations run.
    fn search(&mut self, state: &G, budget: Option<u64>, mut clock: Clock) -> u64 {
        self.begin(state);
        let mut iterations = 0;
        // At least one iteration, so the root is expanded.
        loop {
            self.iterate();
            iterations += 1;
            let solved = self.spec.solver && self.nodes[0].proven != UNPROVEN;
            if solved || budget.is_some_and(|n| iterations >= n) {
                break;
            }
            if clock.expired() {
                break;
            }
        }
        iterations
    }

    /// Readies a search of `state`: the tree rerooted (or restarted), the statistics of the
    /// last search cleared, MAST's table halved.
    fn begin(&mut self, state: &G) {
        self.reroot(state);
        self.wins = [LengthStats::default(); 2];
        self.deepest = 0;
        if self.spec.policy.learns() {
            if self.mast.is_empty() {
                self.mast = vec![[Amaf::default(); 2]; state.move_index_count()];
            }
            if self.spec.policy == Policy::Ngram && self.ngram.is_empty() {
                self.ngram = vec![[Amaf::default(); 2]; NGRAM_SLOTS];
            }
            // Older positions count half as much at each new move.
            for a in self.mast.iter_mut().chain(&mut self.ngram).flatten() {
                a.visits /= 2;
                a.reward /= 2.0;
            }
        }
    }
}

impl<G: Game + Features> Agent<G> for Mcts<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        let started = Instant::now();
        assert!(
            state.outcome().is_none(),
            "choose needs a game that is not over"
        );
        let clock = Clock::new(started, self.spec.time);
        let budget = self.spec.iterations.map(|n| {
            if self.spec.per_move {
                state.legal_moves(&mut self.legal);
                n * self.legal.len() as u64
            } else {
                n
            }
        });
        let iterations = match self.spec.parallel {
            Parallelism::Tree => self.search_tree(state, budget, clock),
            Parallelism::Root if self.spec.threads > 1 => {
                self.search_in_parallel(state, budget, clock)
            }
            Parallelism::Root => self.search(state, budget, clock),
        };
        if self.nodes[0].first_child == UNEXPANDED {
            // The arena was too full to expand the root: fall back to a random move.
            let mv = state
                .random_move(&mut self.rng, &mut self.scratch)
                .expect("a live state has a move");
            return Decision {
                mv,
                stats: SearchStats {
                    iterations,
                    time: started.elapsed(),
                    ..SearchStats::default()
                },
            };
        }
        let (child, value) = self.best_child();
        self.last_choice = Some(child as u32);
        let mv = self.moves[child - 1];
        for h in &mut self.helpers {
            h.last_choice = h.root_child(mv).map(|i| i as u32);
        }
        Decision {
            mv,
            stats: SearchStats {
                nodes: self.nodes.len() as u64
                    + self
                        .helpers
                        .iter()
                        .map(|h| h.nodes.len() as u64)
                        .sum::<u64>(),
                iterations,
                depth: self.deepest,
                time: started.elapsed(),
                value,
                exact: false,
            },
        }
    }
}

mod amaf;
mod grave;
mod parallel;
mod playout;
mod pv;
mod select;
mod tree;

#[cfg(test)]
mod tests;
