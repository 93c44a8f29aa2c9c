#!/usr/bin/env bash
# Castro at its best (issue 46): Castro against itself under the settings of its author's thesis
# (Ewalds 2012, chapter on playing), then Ringside's strongest MCTS against the best found.
#
#   tools/castro-best.sh OUT STEP
#
# Steps (each a games CSV in OUT, resumable: run the same step again to finish it):
#   s6       size 6: the thesis's combination without mate-in-one (`user`, the settings
#            issue 46 tried first) against Castro's defaults, the full thesis combination
#            (mate-in-one on: -w 3 -W -1) and `user` without distance knowledge (-D 0)
#   ring6b   size 6, a fresh seed: ring_depth=0.7 (the one idea ideas6 showed) against the
#            preset again, its replication
#   s6b      size 6, a fresh seed: `user-d0` (the best of s6) against `user` and the defaults
#   s8       size 8: `user` against the defaults and against `user` without distance
#   strong6  size 6: mcts:preset=strong against BEST6 (default `user`), into strong-s6-BEST6
#   strong8  size 8: mcts:preset=strong against BEST8 (default `user`), into strong-s8-BEST8
#   final6   size 6: mcts:preset=strong2 (strong with ring_depth=0.7) against Castro's best
#            (user-d0), into final-s6
#   final6b  size 6: final6 again on a fresh seed (4633, fixed before it was played), its
#            replication
#   final8   size 8: mcts:preset=strong2 against BEST8 (default user-d0), into final-s8-BEST8
#   par8     size 8, two threads a player, one game at a time: preset=strong2 with tree
#            parallelism against it with root parallelism
#   final8t2 size 8, two threads each, one game at a time: preset=strong2 with threads=2
#            (root parallelism: par8 showed tree parallelism no better, 47.0% over 200
#            games) against BEST8 at -t 2, into final-s8t2-BEST8
#   final8t2s3 size 8, two threads each, one game at a time: preset=strong3 with threads=2
#            against BEST8 at -t 2 (seed 4661, fixed before play), into
#            final-s8t2-strong3-BEST8
#   ringwalk8  size 8: preset=strong3 with ring_perm_in=ring (ring_perm's stones counted in
#            the ring, as Castro counts them) against preset=strong3 (seed 4662, fixed before
#            play), into ringwalk-s8
#   ringwalk8b size 8: ringwalk8 again on a fresh seed (4663, fixed before play)
#   castroring8 size 8: Castro user-d0 against user-d0-rings and user-d0-know (a gauntlet,
#            seed 4664, fixed before play), into castro-ring-s8: which of its ring rules and
#            its knowledge makes Castro win a third of its size-8 games with rings
#            (tools/havannah_win_kinds.py reads the file)
#   castroknow8b size 8: user-d0-know against user-d0 again on a fresh seed (4665, fixed
#            before play), the replication of castroring8's second test, into castro-know-s8b
#   castroknow8c size 8: the same a third time (seed 4680, fixed before play; castroring8
#            showed user-d0-know stronger, castroknow8b did not), into castro-know-s8c
#   iters8   size 8: preset=strong3 against Castro user-d0 at equal iterations, 2,000 a move
#            each (Castro's `time -i`: descents of 5 rollouts, as strong3's iterations are),
#            so that speed is taken out and what is left is the search's quality (seed 4666,
#            fixed before play)
#   rave8    size 8: preset=strong3 with RAVE's K constant (rave_grow=0, Castro user-d0's
#            `-d 0`; strong3's K = 500 + 200 m is about 30,000 at the start of size 8, so
#            the search is nearly all AMAF there) against preset=strong3 (seed 4667, fixed
#            before play)
#   rave8b   size 8: rave8 again on a fresh seed (4668, fixed before play), its replication
#   rave8c   size 8: strong3,rave_grow=0 against Castro user-d0 (seed 4669)
#   mirror8  size 8, 2,000 iterations a move each (speed taken out): Ringside against Castro
#            set to the same search, feature for feature, twice: bare (RAVE K 500, no
#            knowledge, one rollout, rings always, -m 2 as decisive=tree, final move by wins)
#            and as strong3 with rave_grow=0 (Castro's knowledge -b 25 -c 20 with know=1, 5
#            rollouts, ring depth 0.7, 3 old stones): where the two searches part (a gauntlet
#            of two matches, seeds 4670 and 4671, fixed before play)
#   castro3  size 8: strong3 as mirror8 set it to match Castro (rave_grow=0, final=wins),
#            0.25 s a move, against preset=strong3 and Castro user-d0 (a gauntlet, seed 4672,
#            fixed before play)
#   castro3b size 8: castro3's first match again on a fresh seed (4673, fixed before play),
#            its replication
#   final6s4 size 6: strong4 (spelled as castro3 played it: strong3,rave_grow=0,final=wins)
#            against Castro user-d0 (seed 4674, fixed before play)
#   final6s4b size 6: final6s4 again on a fresh seed (4675, fixed before play), its
#            replication, with preset=strong4 by name
#   final8s4 size 8: preset=strong4 against Castro user-d0 on a fresh seed (4676, fixed before
#            play), the replication of castro3's second match
#   final8t2s4 size 8, two threads each, one game at a time: preset=strong4 with threads=2
#            against Castro user-d0 at -t 2 (seed 4677, fixed before play)
#   final8t2s4b size 8, two threads each: final8t2s4 again on a fresh seed (4681, fixed
#            before play), its replication
#   final8s4k size 8: preset=strong4 against Castro user-d0-know, Castro's best on size 8
#            after castroknow8c (seed 4682, fixed before play)
#   final8t2s4k size 8, two threads each, one game at a time: preset=strong4,threads=2
#            against Castro user-d0-know at -t 2 (seed 4683, fixed before play)
#   fast8s4k size 8: final8s4k again with the faster search of a4298e9 (rollouts' AMAF
#            credited in one pass: the same trees, 1.25 times the iterations a second), on a
#            fresh seed (4686, fixed before play)
#   know8s4  size 8: preset=strong4 against it with the thesis's knowledge in place of know=1
#            (bridge 100, locality 3, local reply 5, group size 2: Castro user-d0's) and with
#            know=2 (its own knowledge at twice the weight), a gauntlet (seed 4678, fixed
#            before play)
#   reply6s4 size 6: preset=strong4 against it with last good reply with forgetting
#            (reply=lgrf) and with the game's reply to the last move in playouts
#            (pattern=on, Castro's rolloutpattern), re-measured on the new preset (a gauntlet,
#            seed 4679, fixed before play)
#   pool8s4  size 8: preset=strong4 against it with PoolRave (Rimmel, Teytaud and Teytaud
#            2010: a playout move drawn from the pool of the best AMAF moves), pool=20 at
#            pool_p=0.3 (the settings of Teytaud's hex_hav) and pool=10 at pool_p=0.5, a
#            gauntlet (seed 4684, fixed before play)
#   pool6s4  size 6: pool8s4's gauntlet on size 6 (seed 4685, fixed before play)
#   final8b  size 8: final8 again on a fresh seed (4634, fixed before it is played), its
#            replication
#   spsa6    size 6: SPSA (fishtest's) of preset=strong2's options at 0.25 s a move: the
#            knowledge terms one by one (know=0 and the terms that make know=1: connect 0.4,
#            bridge 0.5; local, reply and size from 0.05), RAVE's K and growth, the ring
#            depth; 300 iterations of 2 pairs, then 200 games of the tuned against the start,
#            into OUT/spsa-s6/ (seed 4651). The learning rate r_end is 0.02, ten times
#            fishtest's 0.002: with 1,200 games, a parameter whose move by c_end is worth
#            20 Elo drifts about 3 c_end (at 0.002 it would move 0.3 c_end, too little for the
#            check to see); the signal-to-noise ratio of the walk does not depend on r_end
#   spsa8    size 8: SPSA (fishtest's) of preset=strong4's options at 2,000 iterations a
#            move (a fixed budget: the games are the same whatever else runs, and half the
#            cost of 0.25 s): the two knowledge terms that make know=1 (connect 0.4, bridge
#            0.5), RAVE's K and the ring depth; 300 iterations of 2 pairs, r_end 0.02 as in
#            spsa6, then 200 games of the tuned against the start at 2,000 iterations, into
#            OUT/spsa-s8/ (seed 4687, fixed before play)
#   spsa8b   size 8: spsa8's result (rounded) against preset=strong4 at 0.25 s a move, on a
#            fresh seed (4688, fixed before spsa8 was played)
#   shape8s4 size 8: preset=strong4 with know.shape=0.3 (the learned strength of the shape
#            around each move, engine/src/games/havannah/shapes.txt, fitted by `arena tune
#            shapes` to Castro's moves) against preset=strong4 (seed 4689, fixed before play)
#   shape8s4b size 8: shape8s4 again on a fresh seed (4692, fixed before play), its
#            replication
#   shape8k  size 8: preset=strong4 with know.shape=0.3 against Castro user-d0-know (seed
#            4690, fixed before play); shape8kb the same on seed 4693, its replication
#   shape6   size 6: preset=strong4 with know.shape=0.3 against Castro user-d0 (seed 4691,
#            fixed before play); shape6b the same on seed 4694 (fixed before play), its
#            replication; shape6c the same on seed 4695 (fixed before play), a third run for
#            the size-6 estimate
#   shape6s4 size 6: preset=strong4 with know.shape=0.3 against preset=strong4 (seed 4696,
#            fixed before play); shape6s4b the same on seed 4697, its replication
#   shape8t2k size 8, two threads each, one game at a time: preset=strong4 with
#            know.shape=0.3 and threads=2 against Castro user-d0-know at -t 2 (seed 4698,
#            fixed before play), into shape-s8t2-user-d0-know
#   shape8t2kb size 8, two threads each: shape8t2k's replication on a fresh seed (4701,
#            fixed before play) with the faster AMAF pass and joined_by of b144489 (same play
#            at a fixed number of iterations), into shape-s8t2b-user-d0-know
#   shape8kc size 8: shape8k a third time (seed 4700, fixed before play) with the faster
#            back-up of 24ccb9f (same play at a fixed number of iterations), into
#            shape-s8c-user-d0-know
#   ctx8k    size 8: preset=strong4 with the shapes fitted in the context of the last stone
#            (results/castro-best/shapes-ctx/, know.shape=0.15: the better of two exploratory
#            weights) against Castro user-d0-know (seed 4702, fixed before play; run from the
#            repository's root, as the spec names the file by a relative path), into
#            ctx-s8-user-d0-know; the exploratory run before it scored 56.5% (seed 99030);
#            ctx8kb the same a third time (seed 4703, fixed before play, played by main's
#            Features::shape_context), into ctx-s8b-user-d0-know
#   ctx8t2k  size 8, two threads each, one game at a time: ctx8k's player with threads=2
#            against Castro user-d0-know at -t 2 (seed 4704, fixed before play), into
#            ctx-s8t2-user-d0-know (its replication, seed 4705, was dropped unplayed)
#   ctx8t2kt size 8, two threads each, one game at a time: ctx8t2k's player with tree
#            parallelism (parallel=tree) against Castro user-d0-know at -t 2 (seed 4706, fixed
#            before play), into ctx-s8t2t-user-d0-know; ctx8t2ktb its replication on a
#            fresh seed (4708, fixed before play), into ctx-s8t2tb-user-d0-know;
#            ctx8t2ktc the same player a third time with the faster tree parallelism of
#            7e84a59 and 59cff53 (the searching thread's home share of the playouts,
#            a descent's AMAF credits summed: 1.35x the iterations; seed 4709, fixed before
#            play), into ctx-s8t2tc-user-d0-know
#   ctxpar8  size 8, two threads each, one game at a time: the context player with tree
#            parallelism (the faster of 7e84a59..) against itself with root parallelism
#            (seed 4710, fixed before play), into ctx-par-s8
#   ctx8t2kb8 size 8, two threads each, one game at a time: the context player with tree
#            parallelism at batch=8 (an exploratory screen at 4,000 iterations a move,
#            batch-s8-iters4000, found the default batch=32 lost 63 Elo a search to one thread's
#            order and batch=8 none) against Castro user-d0-know -t 2 (seed 4713, fixed before
#            play), into ctx-s8t2b8-user-d0-know; ctx8t2kb8b its replication on a fresh seed
#            (4714, fixed before play), into ctx-s8t2b8b-user-d0-know; ctx8t2kb8c and
#            ctx8t2kb8d the same player a third and fourth time (seeds 4715 and 4716, fixed
#            before play in the commit that added them) with the 1.08x faster two-thread search
#            of 6e4ed84..5d36042 (same play at equal iterations), into ctx-s8t2b8c-user-d0-know
#            and ctx-s8t2b8d-user-d0-know; the test of the two-thread target, fixed before
#            play, is the four batch=8 runs pooled (800 games)
#   ctx8i    size 8 (exploratory, seed 99054): preset=strong5 against Castro user-d0-know at
#            2,000 iterations a move each (the speed taken out, as iters8 did for strong3),
#            into ctx-s8-iters2000-user-d0-know
#   ctx8k5   size 8: preset=strong5 itself (ctx8k's player as the preset names it) against
#            Castro user-d0-know, a fourth run at the shipped weight on main's build (seed
#            4723, fixed before play), into ctx5-s8-user-d0-know
#   lgrf8k   size 8: preset=strong5 with last good reply with forgetting in its playouts
#            (reply=lgrf: +17.4 and +40.1 at 2,000 iterations, replies5- and lgrf5-s8-iters2000,
#            exploratory) against Castro user-d0-know (seed 4724, fixed before play), into
#            lgrf-s8-user-d0-know; lgrf8kb its replication (seed 4725, fixed before play), into
#            lgrf-s8b-user-d0-know; lgrf8 the same player against preset=strong5 itself at
#            0.25 s (seed 4726, fixed before play), into lgrf-s8. Decided before play:
#            reply=lgrf is kept (as a new preset) only if lgrf8 shows it stronger than strong5
#            (Holm p at most 0.05) and the Castro runs pooled score above strong5's 54.9%.
#            Played: lgrf8k 51.0%, lgrf8 -13.9 (n.s.): not kept, and lgrf8kb not played.
#   resid8k  size 8: strong4 with the shapes of results/castro-best/shapes18/resid (every
#            12-cell shape in context written, and the 18-cell shapes fitted over them; +27.9
#            and +34.9 over strong5 at 8,000 iterations, shape18-s8-iters8000 and
#            shape18b-s8-iters8000, exploratory) against Castro user-d0-know (seed 4728, fixed
#            before play), into resid-s8-user-d0-know. Needs the throwaway build of
#            shapes18/patch.diff (ARENA=its arena). Decided before play: the player is worth a
#            replication and a build in main only if this run scores above strong5's 54.9%.
#            resid8kb its replication on a fresh seed (4729, fixed before play), into
#            resid-s8b-user-d0-know; resid8kc a third run (4730, fixed before play after the
#            two: 56.5% and 59.5%), into resid-s8c-user-d0-know.
#   wide8t2kb8 size 8, two threads each, one game at a time: preset=strong6 (resid8k's player
#            as main builds it: the wide shapes keyed exactly, results/castro-best/shapes-wide)
#            with threads=2,parallel=tree,batch=8 against Castro user-d0-know -t 2 (seed 4731,
#            fixed before play), into wide-s8t2b8-user-d0-know; wide8t2kb8b its replication on a
#            fresh seed (4732, fixed before play), into wide-s8t2b8b-user-d0-know. Decided
#            before play: the two-thread target (55%) is met by strong6 only if the runs played
#            pool to 55% or more with the pooled interval above 50%, and each run played points
#            above 50%. Played: 57.0%, then 49.5%: not met.
#   wide8k   size 8, one thread each: preset=strong6 itself (main's build, exact keys) against
#            Castro user-d0-know (seed 4733, fixed before play), into wide-s8-user-d0-know: a
#            fourth run of resid8k's player, the first on main's build. Decided before play: it
#            is pooled with the three resid8k* runs for the one-thread target (60%).
#   wide2k8  size 8, one thread each: strong6's method refitted on twice the games (every
#            Castro move in the games files here but the three wide* runs, which are held out to
#            score the fits: results/castro-best/shapes-wide2), as know.shape=0.15,shapes=FILE on
#            preset=strong4, against Castro user-d0-know (seed 4734, fixed before play), into
#            wide2-s8-user-d0-know; wide2k8b its replication on a fresh seed (4735, fixed before
#            play), into wide2-s8b-user-d0-know. Decided before play: the one-thread target
#            (60%) is met by this player only if the two runs pool to 60% or more with the
#            pooled interval above 50%, and each run's point is above 50%.
#   wide2t2k8 size 8, two threads each, one game at a time: wide2k8's player with
#            threads=2,parallel=tree,batch=8 (as wide8t2kb8) against Castro user-d0-know -t 2
#            (seed 4736, fixed before play after wide2k8/wide2k8b: 56.0%, 59.5%), into
#            wide2-s8t2b8-user-d0-know; wide2t2k8b its replication on a fresh seed (4737,
#            fixed before play), into wide2-s8t2b8b-user-d0-know. Decided before play: the
#            two-thread target (55%) is met by this player only if the two runs pool to 55% or
#            more with the pooled interval above 50%, and each run's point is above 50%.
#   s7k6     size 6, one thread each: preset=strong7 (wide2k8's player, built in) against
#            Castro user-d0, Castro's best on size 6 (seed 4738, fixed before play), into
#            strong7-s6-user-d0; s7k6b its replication on a fresh seed (4739, fixed before play),
#            into strong7-s6b-user-d0. Decided before play: strong7 meets the size-6 one-thread
#            target (60%) only if the two runs pool to 60% or more with the pooled interval
#            above 50%, and each run's point is above 50%; no test against strong5 (64.2%).
#   s7r8k8   size 8, one thread each: preset=strong7 with tree parallelism's round of 8 on one
#            thread (parallel=tree,batch=8, threads=1 the default: +16.2 [-11.3, +44.0] over 300
#            pairs for the round on strong5 at 4,000 iterations, order-s8-iters4000 with the
#            first screen, at 0.947 of the iterations; exploratory, not shown) against Castro
#            user-d0-know
#            (seed 4740, fixed before play after s7k6/s7k6b), into strong7r8-s8-user-d0-know;
#            s7r8k8b its replication on a fresh seed (4741, fixed before play), into
#            strong7r8-s8b-user-d0-know. Decided before play: the one-thread target (60%) is
#            met by this player only if the two runs pool to 60% or more with the pooled
#            interval above 50%, and each run's point is above 50%.
#   s8k6     size 6, one thread each: preset=strong8 (strong7 with tree parallelism's round of 8
#            on one thread, the player that met the size-8 targets) against Castro user-d0 (seed
#            4742, fixed before play after s7r8k8/s7r8k8b), into strong8-s6-user-d0; s8k6b its
#            replication on a fresh seed (4743, fixed before play), into strong8-s6b-user-d0.
#            Decided before play: strong8 meets the size-6 one-thread target (60%) only if the
#            two runs pool to 60% or more with the pooled interval above 50%, and each run's
#            point is above 50%.
#   ctx8k01  size 8: ctx8k's player at know.shape=0.1 (the better weight of an exploratory
#            screen at 2,000 iterations, ctxweight-s8-iters2000) against Castro user-d0-know
#            (seed 4707, fixed before play), into ctx01-s8-user-d0-know
#   movenet8x size 8 (exploratory, seed 99038): the context player with the move-prior network
#            of results/castro-best/movenet (tools/policy_net.py, fitted to Castro's moves;
#            movenet_at=128, movenet_w=1) against Castro user-d0-know, into
#            movenet-s8x-user-d0-know (stopped after 51 games for the screens at 2,000 iterations)
#   movenet8k size 8: the context player with the network as a prior at the weight and visit
#            threshold the screens chose (movenet_w=0.3, movenet_at=512; movenet-s8-*-iters2000)
#            against Castro user-d0-know (seed 4711, fixed before play), into
#            movenet-s8-user-d0-know; movenet8kb its replication on a fresh seed (4712, fixed
#            before play), into movenet-s8b-user-d0-know
#   dist8    size 8: Castro's distance to a win (the thesis's -D 2: know.distance=0.04, the
#            last of the thesis's ideas built in Ringside) on the context player, against that
#            player without it (seed 4717, fixed before play), into dist-s8
#   dist6    size 6: the same on size 6's best player, strong4 with the shipped shapes
#            (know.shape=0.3), against it without (seed 4718, fixed before play), into dist-s6
#   prob8k   size 8: preset=strong4 with know.shape=0.3 and the shapes also as a prior
#            probability (prob.shape=0.3, MoHex 2.0's W·ρ/√(n+1)) against Castro
#            user-d0-know (seed 4699, fixed before play), into prob-s8-user-d0-know
#   spsa6b   size 6: spsa6's result (rounded) against preset=strong2, its replication on a
#            fresh seed (4652), fixed before play
#   spsa6c   size 6: spsa6's result (rounded) against Castro user-d0 (seed 4653)
#   ideas6c  size 6: the two ideas ideas6 could not try, against mcts:preset=strong2 (a
#            gauntlet, seed 4623): mate-in-one early in playouts (the thesis's -w with
#            -W -1, the first `size` plies: decisive=on,decisive_plies=6) and Duguépéroux
#            et al. 2016's playout pruning by RAVE statistics (prune=0.1: cells 0.1 below
#            their siblings' average AMAF reward left out of random playout moves)
#   combo6   size 6: the two thesis ideas that scored above the preset without showing it
#            (rollouts=5: +10, ring_perm=3: +24, against preset=strong in ideas6) added
#            together to preset=strong2, played against strong2 and against Castro user-d0
#            (a gauntlet of the combination, seed 4625, fixed before play)
#   combo6b  size 6: combo6's combination against strong2 again on a fresh seed (4626, fixed
#            before play), its replication
#   combo8   size 8: the combination against strong2 and against Castro user-d0 (a gauntlet,
#            seed 4627, fixed before play)
#   combo8b  size 8: the combination against strong2 again on a fresh seed (4628, fixed
#            before play), its replication
#   ideas6   size 6: the thesis's ideas Ringside has, one by one, against mcts:preset=strong
#            (a gauntlet): Castro's constant RAVE equivalence (-d 0: rave_grow=0), five
#            playouts a leaf (-O 5: rollouts=5), the thesis's knowledge but distance
#            (-c 20 -b 100 -l 5 -y 3 -S 2: the named terms in Ringside's reward units) and
#            rings in playouts only until 70% of the empty cells are filled (-R -0.7), and
#            rings in playouts only with 3 stones from before the playout (-G 3)
# Every match: 0.25 s a move, one thread an engine, 200 games a pairing in colour-swapped pairs
# after 2 random opening plies, seeds fixed here before any game was played. Two games run at
# a time (--threads 2), each engine thinking only on its own turn, so each has a core.
# Needs Castro (tools/castro-build.sh; CASTRO_BIN=PATH for another) and a release arena
# (cargo build --release; ARENA=PATH for another). `arena summary FILE` prints each table and
# `arena verdicts FILE...` the tests.
set -euo pipefail
# The steps, read from the case arms at the end, so that each is named in one place.
steps=$(sed -n 's/^    \([a-z0-9]*\))\( .*\)\{0,1\}$/\1/p' "$0" | paste -sd '|')
usage="usage: tools/castro-best.sh OUT $steps"
out=${1:?$usage}
step=${2:?$usage}
root=$(cd "$(dirname "$0")/.." && pwd)
arena=${ARENA:-$root/target/release/arena}
bin=${CASTRO_BIN:-/tmp/castro/castro}
[[ -x $bin ]] || bin=$("$root/tools/castro-build.sh")
mkdir -p "$out"

# SPSA's result (spsa6, seed 4651), rounded: strong2 with these knowledge weights, RAVE K and
# growth, and ring depth.
spsa_tuned="preset=strong2,know=0,know.connect=0.12,know.bridge=0.6,know.local=0.023,know.reply=0.021,know.size=0.005,rave=582,rave_grow=41,ring_depth=0.45"
# spsa8's result (seed 4687), rounded (results/castro-best/spsa-s8/summary.md).
# strong4 with the learned shapes as tree knowledge (know.shape=0.3: the best of 0.05, 0.15,
# 0.3 and 0.6 in exploratory matches at 2,000 iterations a move, results/castro-best/README.md).
shape="preset=strong4,know.shape=0.3"
# strong4 with the shapes fitted in the context of the last stone, at the better of two
# exploratory weights (results/castro-best/shapes-ctx/; a path from the repository's root).
ctx="preset=strong4,know.shape=0.15,shapes=results/castro-best/shapes-ctx/shapes.txt"
# strong4 with the 18-cell shapes fitted over every 12-cell shape in context (results/castro-best/
# shapes18/resid; played only by the throwaway build of shapes18/patch.diff, ARENA=its arena).
resid="preset=strong4,know.shape=0.15,shapes=results/castro-best/shapes18/resid/shapes.txt"
# strong6's method (the wide shapes over every 12-cell shape in context, the same weight) refitted
# on twice the games (results/castro-best/shapes-wide2/README.md).
wide2="mcts:time_ms=250,preset=strong4,know.shape=0.15,shapes=results/castro-best/shapes-wide2/shapes.txt"
movenet="movenet=results/castro-best/movenet/net.rspol"
spsa8_tuned="preset=strong4,know=0,know.connect=0.34,know.bridge=0.46,rave=436,ring_depth=0.72"

# Castro's player_params for each configuration (`player_params` with no arguments lists them).
declare -A params=(
    [default]=""
    [thesis]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 100 -c 20 -y 3 -l 5 -S 2 -D 2 -R -0.7 -G 3 -w 3 -W -1"
    [user]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 100 -c 20 -y 3 -l 5 -S 2 -D 2 -R -0.7 -G 3 -w 0"
    [user-d0]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 100 -c 20 -y 3 -l 5 -S 2 -D 0 -R -0.7 -G 3 -w 0"
    # user-d0 with Castro's default ring rules (rings count throughout a rollout, no
    # permanent stones), and with its default knowledge (bridge 25, no locality, local reply
    # or group size): castroring8 asks which makes it win with rings.
    [user-d0-rings]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 100 -c 20 -y 3 -l 5 -S 2 -D 0 -R 1000 -G 0 -w 0"
    # Castro set as Ringside's searches (mirror8): bare RAVE with -m 2, and preset=strong3
    # with rave_grow=0 (user-d0-know is that already).
    [bare]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 0 -O 1 -R 1000 -G 0 -w 0 -D 0"
    [user-d0-know]="-e 0 -f 500 -d 0 -k 1 -m 2 -a 1 -O 5 -b 25 -c 20 -y 0 -l 0 -S 0 -D 0 -R -0.7 -G 3 -w 0"
)

# The thesis's knowledge weights (Castro's hundredths of a reward in [0, 1], doubled for
# Ringside's rewards in [-1, 1]), as MCTS's named knowledge terms.
thesis_know="know.connect=0.4,know.bridge=2,know.reply=0.1,know.local=0.06,know.size=0.04"

# PoolRave's two settings on strong4 (pool8s4, pool6s4): Teytaud's hex_hav's, and a larger share.
pool_agents=(mcts:time_ms=250,preset=strong4,pool=20 mcts:time_ms=250,preset=strong4,pool=10,pool_p=0.5)

castro() { # NAME [THREADS]: the gtp agent spec of that configuration (one thread unless given)
    local threads=${2:-1} label=castro-$1
    ((threads > 1)) && label=$label-t$threads
    echo "gtp:cmd=$bin,name=$label,coords=castro,time_ms=250,setup=time -m 0.25 -g 0 -f 0;player_params -t $threads ${params[$1]}"
}

castro_iters() { # NAME ITERS: that configuration at ITERS descents a move, one thread
    echo "gtp:cmd=$bin,name=castro-$1-i$2,coords=castro,time_ms=20000,setup=time -m 20 -g 0 -f 0 -i $2;player_params -t 1 ${params[$1]}"
}

match() { # NAME SIZE SEED AGENT... (two agents: a match; more: a gauntlet of the first)
    local name=$1 size=$2 seed=$3
    shift 3
    local extra=()
    (($# > 2)) && extra=(--gauntlet)
    "$arena" match --game "havannah:size=$size" --agents "$@" "${extra[@]}" --games 200 \
        --threads "${GAMES_AT_ONCE:-2}" --seed "$seed" --opening-plies 2 --out "$out/$name.csv"
}

case $step in
    s6) match castro-s6 6 4601 "$(castro user)" "$(castro default)" "$(castro thesis)" \
        "$(castro user-d0)" ;;
    ring6b) match ring-s6b 6 4622 mcts:time_ms=250,preset=strong \
        mcts:time_ms=250,preset=strong,ring_depth=0.7 ;;
    s6b) match castro-s6b 6 4603 "$(castro user-d0)" "$(castro user)" "$(castro default)" ;;
    s8) match castro-s8 8 4602 "$(castro user)" "$(castro default)" "$(castro user-d0)" ;;
    strong6) match "strong-s6-${BEST6:-user}" 6 4611 mcts:time_ms=250,preset=strong \
        "$(castro "${BEST6:-user}")" ;;
    strong8) match "strong-s8-${BEST8:-user}" 8 4612 mcts:time_ms=250,preset=strong \
        "$(castro "${BEST8:-user}")" ;;
    ideas6) match ideas-s6 6 4621 mcts:time_ms=250,preset=strong \
        mcts:time_ms=250,preset=strong,rave_grow=0 mcts:time_ms=250,preset=strong,rollouts=5 \
        "mcts:time_ms=250,preset=strong,know=0,$thesis_know" \
        mcts:time_ms=250,preset=strong,ring_depth=0.7 mcts:time_ms=250,preset=strong,ring_perm=3 ;;
    final6) match final-s6 6 4631 mcts:time_ms=250,preset=strong2 "$(castro user-d0)" ;;
    final6b) match final-s6b 6 4633 mcts:time_ms=250,preset=strong2 "$(castro user-d0)" ;;
    final8) match "final-s8-${BEST8:-user-d0}" 8 4632 mcts:time_ms=250,preset=strong2 \
        "$(castro "${BEST8:-user-d0}")" ;;
    # Two threads a player: one game at a time, so each player has both cores on its turn.
    par8) GAMES_AT_ONCE=1 match par-s8 8 4641 \
        mcts:time_ms=250,preset=strong2,threads=2,parallel=tree \
        mcts:time_ms=250,preset=strong2,threads=2 ;;
    final8t2) GAMES_AT_ONCE=1 match "final-s8t2-${BEST8:-user-d0}" 8 4642 \
        mcts:time_ms=250,preset=strong2,threads=2 "$(castro "${BEST8:-user-d0}" 2)" ;;
    final8t2s3) GAMES_AT_ONCE=1 match "final-s8t2-strong3-${BEST8:-user-d0}" 8 4661 \
        mcts:time_ms=250,preset=strong3,threads=2 "$(castro "${BEST8:-user-d0}" 2)" ;;
    ringwalk8) match ringwalk-s8 8 4662 mcts:time_ms=250,preset=strong3,ring_perm_in=ring \
        mcts:time_ms=250,preset=strong3 ;;
    ringwalk8b) match ringwalk-s8b 8 4663 mcts:time_ms=250,preset=strong3,ring_perm_in=ring \
        mcts:time_ms=250,preset=strong3 ;;
    castroring8) match castro-ring-s8 8 4664 "$(castro user-d0)" "$(castro user-d0-rings)" \
        "$(castro user-d0-know)" ;;
    castroknow8b) match castro-know-s8b 8 4665 "$(castro user-d0-know)" "$(castro user-d0)" ;;
    castroknow8c) match castro-know-s8c 8 4680 "$(castro user-d0-know)" "$(castro user-d0)" ;;
    iters8) match iters-s8-user-d0 8 4666 mcts:iters=2000,preset=strong3 \
        "$(castro_iters user-d0 2000)" ;;
    rave8) match rave-s8 8 4667 mcts:time_ms=250,preset=strong3,rave_grow=0 \
        mcts:time_ms=250,preset=strong3 ;;
    rave8b) match rave-s8b 8 4668 mcts:time_ms=250,preset=strong3,rave_grow=0 \
        mcts:time_ms=250,preset=strong3 ;;
    rave8c) match rave-s8c-user-d0 8 4669 mcts:time_ms=250,preset=strong3,rave_grow=0 \
        "$(castro user-d0)" ;;
    mirror8)
        match mirror-s8-bare 8 4670 \
            mcts:iters=2000,c=0,rave=500,rave_form=hyp,decisive=tree,final=wins \
            "$(castro_iters bare 2000)"
        match mirror-s8-strong3 8 4671 \
            mcts:iters=2000,preset=strong3,rave_grow=0,final=wins \
            "$(castro_iters user-d0-know 2000)" ;;
    castro3) match castro3-s8 8 4672 mcts:time_ms=250,preset=strong3,rave_grow=0,final=wins \
        mcts:time_ms=250,preset=strong3 "$(castro user-d0)" ;;
    castro3b) match castro3-s8b 8 4673 mcts:time_ms=250,preset=strong3,rave_grow=0,final=wins \
        mcts:time_ms=250,preset=strong3 ;;
    final6s4) match final-s6-strong4-user-d0 6 4674 \
        mcts:time_ms=250,preset=strong3,rave_grow=0,final=wins "$(castro user-d0)" ;;
    final6s4b) match final-s6b-strong4-user-d0 6 4675 mcts:time_ms=250,preset=strong4 \
        "$(castro user-d0)" ;;
    final8s4) match final-s8-strong4-user-d0 8 4676 mcts:time_ms=250,preset=strong4 \
        "$(castro user-d0)" ;;
    final8t2s4) GAMES_AT_ONCE=1 match final-s8t2-strong4-user-d0 8 4677 \
        mcts:time_ms=250,preset=strong4,threads=2 "$(castro user-d0 2)" ;;
    final8t2s4b) GAMES_AT_ONCE=1 match final-s8t2b-strong4-user-d0 8 4681 \
        mcts:time_ms=250,preset=strong4,threads=2 "$(castro user-d0 2)" ;;
    final8s4k) match final-s8-strong4-user-d0-know 8 4682 mcts:time_ms=250,preset=strong4 \
        "$(castro user-d0-know)" ;;
    fast8s4k) match fast-s8-strong4-user-d0-know 8 4686 mcts:time_ms=250,preset=strong4 \
        "$(castro user-d0-know)" ;;
    final8t2s4k) GAMES_AT_ONCE=1 match final-s8t2-strong4-user-d0-know 8 4683 \
        mcts:time_ms=250,preset=strong4,threads=2 "$(castro user-d0-know 2)" ;;
    know8s4) match know-s8-strong4 8 4678 mcts:time_ms=250,preset=strong4 \
        "mcts:time_ms=250,preset=strong4,know=0,$thesis_know" \
        mcts:time_ms=250,preset=strong4,know=2 ;;
    reply6s4) match reply-s6-strong4 6 4679 mcts:time_ms=250,preset=strong4 \
        mcts:time_ms=250,preset=strong4,reply=lgrf mcts:time_ms=250,preset=strong4,pattern=on ;;
    pool8s4) match pool-s8-strong4 8 4684 mcts:time_ms=250,preset=strong4 "${pool_agents[@]}" ;;
    pool6s4) match pool-s6-strong4 6 4685 mcts:time_ms=250,preset=strong4 "${pool_agents[@]}" ;;
    final8b) match "final-s8b-${BEST8:-user-d0}" 8 4634 mcts:time_ms=250,preset=strong2 \
        "$(castro "${BEST8:-user-d0}")" ;;
    spsa6) "$arena" tune spsa --game havannah:size=6 \
        --agent mcts:time_ms=250,preset=strong2,know=0,know.connect=0.4,know.bridge=0.5,know.local=0.05,know.reply=0.05,know.size=0.05 \
        --param know.connect,0.4,0,2,0.1,0.02 --param know.bridge,0.5,0,3,0.15,0.02 \
        --param know.local,0.05,0,1,0.03,0.02 --param know.reply,0.05,0,1,0.03,0.02 \
        --param know.size,0.05,0,1,0.03,0.02 --param rave,500,100,3000,100,0.02 \
        --param rave_grow,200,0,800,50,0.02 --param ring_depth,0.7,0.3,1,0.08,0.02 \
        --iterations 300 --pairs 2 --seed 4651 --opening-plies 2 --threads 2 \
        --out "$out/spsa-s6" ;;
    spsa8) "$arena" tune spsa --game havannah:size=8 \
        --agent mcts:iters=2000,preset=strong4,know=0,know.connect=0.4,know.bridge=0.5 \
        --param know.connect,0.4,0,2,0.1,0.02 --param know.bridge,0.5,0,3,0.15,0.02 \
        --param rave,500,100,3000,100,0.02 --param ring_depth,0.7,0.3,1,0.08,0.02 \
        --iterations 300 --pairs 2 --seed 4687 --opening-plies 2 --threads 2 \
        --out "$out/spsa-s8" ;;
    spsa8b) match spsa-s8b 8 4688 "mcts:time_ms=250,$spsa8_tuned" mcts:time_ms=250,preset=strong4 ;;
    shape8s4) match shape-s8-strong4 8 4689 "mcts:time_ms=250,$shape" \
        mcts:time_ms=250,preset=strong4 ;;
    shape8s4b) match shape-s8b-strong4 8 4692 "mcts:time_ms=250,$shape" \
        mcts:time_ms=250,preset=strong4 ;;
    shape8k) match shape-s8-user-d0-know 8 4690 "mcts:time_ms=250,$shape" \
        "$(castro user-d0-know)" ;;
    shape8kb) match shape-s8b-user-d0-know 8 4693 "mcts:time_ms=250,$shape" \
        "$(castro user-d0-know)" ;;
    shape8kc) match shape-s8c-user-d0-know 8 4700 "mcts:time_ms=250,$shape" \
        "$(castro user-d0-know)" ;;
    shape6) match shape-s6-user-d0 6 4691 "mcts:time_ms=250,$shape" "$(castro user-d0)" ;;
    shape6b) match shape-s6b-user-d0 6 4694 "mcts:time_ms=250,$shape" "$(castro user-d0)" ;;
    shape6c) match shape-s6c-user-d0 6 4695 "mcts:time_ms=250,$shape" "$(castro user-d0)" ;;
    shape6s4) match shape-s6-strong4 6 4696 "mcts:time_ms=250,$shape" mcts:time_ms=250,preset=strong4 ;;
    shape6s4b) match shape-s6b-strong4 6 4697 "mcts:time_ms=250,$shape" mcts:time_ms=250,preset=strong4 ;;
    ctx8k) match ctx-s8-user-d0-know 8 4702 \
        "mcts:time_ms=250,$ctx" \
        "$(castro user-d0-know)" ;;
    ctx8kb) match ctx-s8b-user-d0-know 8 4703 \
        "mcts:time_ms=250,$ctx" \
        "$(castro user-d0-know)" ;;
    ctx8t2k) GAMES_AT_ONCE=1 match ctx-s8t2-user-d0-know 8 4704 \
        "mcts:time_ms=250,$ctx,threads=2" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2kt) GAMES_AT_ONCE=1 match ctx-s8t2t-user-d0-know 8 4706 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2ktb) GAMES_AT_ONCE=1 match ctx-s8t2tb-user-d0-know 8 4708 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2ktc) GAMES_AT_ONCE=1 match ctx-s8t2tc-user-d0-know 8 4709 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2kb8) GAMES_AT_ONCE=1 match ctx-s8t2b8-user-d0-know 8 4713 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree,batch=8" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2kb8b) GAMES_AT_ONCE=1 match ctx-s8t2b8b-user-d0-know 8 4714 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree,batch=8" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2kb8c) GAMES_AT_ONCE=1 match ctx-s8t2b8c-user-d0-know 8 4715 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree,batch=8" \
        "$(castro user-d0-know 2)" ;;
    ctx8t2kb8d) GAMES_AT_ONCE=1 match ctx-s8t2b8d-user-d0-know 8 4716 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree,batch=8" \
        "$(castro user-d0-know 2)" ;;
    ctxpar8) GAMES_AT_ONCE=1 match ctx-par-s8 8 4710 \
        "mcts:time_ms=250,$ctx,threads=2,parallel=tree" "mcts:time_ms=250,$ctx,threads=2" ;;
    movenet8x) match movenet-s8x-user-d0-know 8 99038 \
        "mcts:time_ms=250,$ctx,$movenet,movenet_at=128" "$(castro user-d0-know)" ;;
    movenet8k) match movenet-s8-user-d0-know 8 4711 \
        "mcts:time_ms=250,$ctx,$movenet,movenet_w=0.3,movenet_at=512" "$(castro user-d0-know)" ;;
    movenet8kb) match movenet-s8b-user-d0-know 8 4712 \
        "mcts:time_ms=250,$ctx,$movenet,movenet_w=0.3,movenet_at=512" "$(castro user-d0-know)" ;;
    ctx8k5) match ctx5-s8-user-d0-know 8 4723 mcts:time_ms=250,preset=strong5 \
        "$(castro user-d0-know)" ;;
    lgrf8k) match lgrf-s8-user-d0-know 8 4724 mcts:time_ms=250,preset=strong5,reply=lgrf \
        "$(castro user-d0-know)" ;;
    lgrf8kb) match lgrf-s8b-user-d0-know 8 4725 mcts:time_ms=250,preset=strong5,reply=lgrf \
        "$(castro user-d0-know)" ;;
    lgrf8) match lgrf-s8 8 4726 mcts:time_ms=250,preset=strong5,reply=lgrf \
        mcts:time_ms=250,preset=strong5 ;;
    resid8k) match resid-s8-user-d0-know 8 4728 \
        "mcts:time_ms=250,$resid" \
        "$(castro user-d0-know)" ;;
    resid8kb) match resid-s8b-user-d0-know 8 4729 \
        "mcts:time_ms=250,$resid" \
        "$(castro user-d0-know)" ;;
    resid8kc) match resid-s8c-user-d0-know 8 4730 \
        "mcts:time_ms=250,$resid" \
        "$(castro user-d0-know)" ;;
    wide8k) match wide-s8-user-d0-know 8 4733 mcts:time_ms=250,preset=strong6 \
        "$(castro user-d0-know)" ;;
    wide2k8) match wide2-s8-user-d0-know 8 4734 "$wide2" "$(castro user-d0-know)" ;;
    wide2k8b) match wide2-s8b-user-d0-know 8 4735 "$wide2" "$(castro user-d0-know)" ;;
    s7k6) match strong7-s6-user-d0 6 4738 mcts:time_ms=250,preset=strong7 "$(castro user-d0)" ;;
    s7k6b) match strong7-s6b-user-d0 6 4739 mcts:time_ms=250,preset=strong7 "$(castro user-d0)" ;;
    s7r8k8) match strong7r8-s8-user-d0-know 8 4740 \
        mcts:time_ms=250,preset=strong7,parallel=tree,batch=8 "$(castro user-d0-know)" ;;
    s7r8k8b) match strong7r8-s8b-user-d0-know 8 4741 \
        mcts:time_ms=250,preset=strong7,parallel=tree,batch=8 "$(castro user-d0-know)" ;;
    s8k6) match strong8-s6-user-d0 6 4742 mcts:time_ms=250,preset=strong8 "$(castro user-d0)" ;;
    s8k6b) match strong8-s6b-user-d0 6 4743 mcts:time_ms=250,preset=strong8 "$(castro user-d0)" ;;
    wide2t2k8) GAMES_AT_ONCE=1 match wide2-s8t2b8-user-d0-know 8 4736 \
        "$wide2,threads=2,parallel=tree,batch=8" "$(castro user-d0-know 2)" ;;
    wide2t2k8b) GAMES_AT_ONCE=1 match wide2-s8t2b8b-user-d0-know 8 4737 \
        "$wide2,threads=2,parallel=tree,batch=8" "$(castro user-d0-know 2)" ;;
    wide8t2kb8) GAMES_AT_ONCE=1 match wide-s8t2b8-user-d0-know 8 4731 \
        mcts:time_ms=250,preset=strong6,threads=2,parallel=tree,batch=8 \
        "$(castro user-d0-know 2)" ;;
    wide8t2kb8b) GAMES_AT_ONCE=1 match wide-s8t2b8b-user-d0-know 8 4732 \
        mcts:time_ms=250,preset=strong6,threads=2,parallel=tree,batch=8 \
        "$(castro user-d0-know 2)" ;;
    ctx8k01) match ctx01-s8-user-d0-know 8 4707 \
        "mcts:time_ms=250,preset=strong4,know.shape=0.1,shapes=results/castro-best/shapes-ctx/shapes.txt" \
        "$(castro user-d0-know)" ;;
    dist8) match dist-s8 8 4717 "mcts:time_ms=250,$ctx,know.distance=0.04" \
        "mcts:time_ms=250,$ctx" ;;
    # strong5 at the shipped shapes' weight (0.3 for 0.15): strong5 takes it only if the two
    # runs pooled score above the 0.15 runs' 55.0% with the pooled interval above 50%.
    ctx8k03) match ctx03-s8-user-d0-know 8 4721 "mcts:time_ms=250,preset=strong5,know.shape_ctx=0.3" \
        "$(castro user-d0-know)" ;;
    ctx8k03b) match ctx03-s8b-user-d0-know 8 4722 "mcts:time_ms=250,preset=strong5,know.shape_ctx=0.3" \
        "$(castro user-d0-know)" ;;
    ctx8i) match ctx-s8-iters2000-user-d0-know 8 99054 mcts:iters=2000,preset=strong5 \
        "$(castro_iters user-d0-know 2000)" ;;
    ctx6k) match ctx-s6-user-d0 6 4719 "mcts:time_ms=250,$ctx" "$(castro user-d0)" ;;
    ctx6kb) match ctx-s6b-user-d0 6 4720 "mcts:time_ms=250,$ctx" "$(castro user-d0)" ;;
    dist6) match dist-s6 6 4718 "mcts:time_ms=250,$shape,know.distance=0.04" \
        "mcts:time_ms=250,$shape" ;;
    prob8k) match prob-s8-user-d0-know 8 4699 "mcts:time_ms=250,$shape,prob.shape=0.3" \
        "$(castro user-d0-know)" ;;
    shape8t2k) GAMES_AT_ONCE=1 match shape-s8t2-user-d0-know 8 4698 \
        "mcts:time_ms=250,$shape,threads=2" "$(castro user-d0-know 2)" ;;
    shape8t2kb) GAMES_AT_ONCE=1 match shape-s8t2b-user-d0-know 8 4701 \
        "mcts:time_ms=250,$shape,threads=2" "$(castro user-d0-know 2)" ;;
    spsa6b) match spsa-s6b 6 4652 "mcts:time_ms=250,$spsa_tuned" mcts:time_ms=250,preset=strong2 ;;
    spsa6c) match spsa-s6c-user-d0 6 4653 "mcts:time_ms=250,$spsa_tuned" "$(castro user-d0)" ;;
    ideas6c) match ideas-s6c 6 4623 mcts:time_ms=250,preset=strong2 \
        mcts:time_ms=250,preset=strong2,decisive=on,decisive_plies=6 \
        mcts:time_ms=250,preset=strong2,prune=0.1 ;;
    combo6) match combo-s6 6 4625 mcts:time_ms=250,preset=strong2,rollouts=5,ring_perm=3 \
        mcts:time_ms=250,preset=strong2 "$(castro user-d0)" ;;
    combo6b) match combo-s6b 6 4626 mcts:time_ms=250,preset=strong2,rollouts=5,ring_perm=3 \
        mcts:time_ms=250,preset=strong2 ;;
    combo8) match combo-s8 8 4627 mcts:time_ms=250,preset=strong2,rollouts=5,ring_perm=3 \
        mcts:time_ms=250,preset=strong2 "$(castro user-d0)" ;;
    combo8b) match combo-s8b 8 4628 mcts:time_ms=250,preset=strong2,rollouts=5,ring_perm=3 \
        mcts:time_ms=250,preset=strong2 ;;
    *) echo "tools/castro-best.sh: unknown step '$step' ($usage)" >&2; exit 2 ;;
esac
