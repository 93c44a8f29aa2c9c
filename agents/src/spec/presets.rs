//! Presets: names that stand for a set of MCTS options (`mcts:preset=strong`), each measured
//! where its doc says. Options given beside a preset win.

/// The options `mcts:preset=strong` stands for (measured in `results/mcts-enhancements/`);
/// options given beside it win.
pub const STRONG_PRESET: &str = strong_preset!();

/// The search every preset shares: UCT's exploration off, RAVE with Castro's hyperbolic `β`
/// and `K` = 500, the solver in the tree, and the tree knowledge on.
macro_rules! search_base {
    () => {
        "c=0,rave=500,rave_form=hyp,decisive=tree,know=1"
    };
}
use search_base;

/// The text of [`STRONG_PRESET`]: the shared search with `K` growing 200 a move played.
macro_rules! strong_preset {
    () => {
        concat!(search_base!(), ",rave_grow=200")
    };
}
use strong_preset;

/// Havannah's playout options `strong3` and `strong4` share: rings in playouts only until 70%
/// of the empty cells are filled and only with 3 stones from before the playout, and five
/// playouts a new leaf.
macro_rules! havannah_playouts {
    () => {
        ",ring_depth=0.7,rollouts=5,ring_perm=3"
    };
}

/// The options `mcts:preset=strong2` stands for: [`STRONG_PRESET`] with Havannah's rings
/// in playouts only until 70% of the empty cells are filled (Ewalds 2012; +74 Elo over
/// `strong` on size 6 at 0.25 s a move, replicated: `results/castro-best/`). A new name, so
/// that records of `preset=strong` keep their meaning.
pub const STRONG2_PRESET: &str = concat!(strong_preset!(), ",ring_depth=0.7");

/// The options `mcts:preset=strong3` stands for: [`STRONG2_PRESET`] with five playouts a new
/// leaf and, in Havannah, rings in playouts only with 3 stones from before the playout
/// (Ewalds 2012's `-O 5` and `-G 3`; against `strong2` at 0.25 s a move: +74.1 and, on a fresh
/// seed, +66.8 Elo on size 8; +66.8 and +41.9 (not shown) on size 6: `results/castro-best/`).
pub const STRONG3_PRESET: &str = concat!(strong_preset!(), havannah_playouts!());

/// The text of [`STRONG4_PRESET`], which the Havannah presets after it extend.
macro_rules! strong4_preset {
    () => {
        concat!(search_base!(), havannah_playouts!(), ",final=wins")
    };
}

/// The options `mcts:preset=strong4` stands for: [`STRONG3_PRESET`] with RAVE's `K` held at
/// 500 (no `rave_grow`, Castro's `-d 0`) and the final move the child with the most won
/// playouts (`final=wins`, Castro's `-F -2`), as Castro's `user` settings search (set so,
/// Ringside and Castro played level at 2,000 iterations a move). Against `strong3` at 0.25 s a
/// move on Havannah 8: +111.4 and, on a fresh seed, +56.1 Elo; level with Castro at its best
/// (51.1% on size 6 and 54.5% on size 8 against Castro `user-d0`, 400 games each; 48.0% against
/// `user-d0-know`, Castro's best on size 8, 200 games; `results/castro-best/`).
pub const STRONG4_PRESET: &str = strong4_preset!();

/// The options `mcts:preset=strong5` stands for: [`STRONG4_PRESET`] with Havannah's shapes
/// fitted to Castro's moves in the context of the last stone as tree knowledge
/// (`know.shape_ctx=0.15`, the built-in fit of `results/castro-best/shapes-ctx/`, so it plays
/// as `know.shape=0.15,shapes=` that file does). The strongest player of
/// `results/castro-best/` on both sizes, against Castro at its best at 0.25 s a move: on size 6
/// 64.2%, +101.8 [+68.2, +137.5] over 400 games (two runs fixed before play, each shown); on
/// size 8 54.9%, +34.2 [+12.9, +55.7] over 1,000 games with one thread (the four runs fixed
/// before play, 800 games: +31.4 [+8.0, +55.0], shown stronger) and, with
/// `threads=2,parallel=tree,batch=8`, 53.8%, +26.1 [+2.5, +50.0] over 800 against Castro with
/// two (the test fixed before play). Havannah's only: another game has no term `shape_ctx`,
/// and is refused.
pub const STRONG5_PRESET: &str = concat!(strong4_preset!(), ",know.shape_ctx=0.15");

/// The options `mcts:preset=strong6` stands for: [`STRONG4_PRESET`] with Havannah's wide
/// shapes as tree knowledge (`know.shape_wide=0.15`: the 18 cells within distance 2 fitted to
/// Castro's moves over every 12-cell shape in the context of the last stone, the built-in fit
/// of `results/castro-best/shapes-wide/`, so it plays as `know.shape=0.15,shapes=` that file
/// does). The strongest size-8 player of `results/castro-best/`: against Castro at its best
/// at 0.25 s a move, one thread each, 58.6%, +60.5 [+37.8, +83.8] over 800 games (four runs
/// fixed before play, three shown: three by the throwaway build of
/// `results/castro-best/shapes18/`, whose wide keys were hashed, and 62.5% by this build),
/// where `strong5` scored 54.9%; with `threads=2,parallel=tree,batch=8` against Castro with
/// two, 53.2% over 400 (not supported). Not measured on size 6, where `strong5` is the
/// measured best. Havannah's only.
pub const STRONG6_PRESET: &str = concat!(strong4_preset!(), ",know.shape_wide=0.15");

/// The text of [`STRONG7_PRESET`], which [`STRONG8_PRESET`] extends.
macro_rules! strong7_preset {
    () => {
        concat!(strong4_preset!(), ",know.shape_wide2=0.15")
    };
}

/// The options `mcts:preset=strong7` stands for: [`STRONG6_PRESET`]'s method on twice the
/// games (`know.shape_wide2=0.15`: the built-in fit of `results/castro-best/shapes-wide2/`,
/// fitted on 13,951 games of Castro's moves where `strong6`'s had 6,600, so it plays as
/// `know.shape=0.15,shapes=` that file does). Against Castro at its best at 0.25 s a move on
/// size 8, with `threads=2,parallel=tree,batch=8` against Castro with two, 59.2%, +65.0
/// [+33.1, +98.0] over 400 games (two runs fixed before play, each shown: issue 46's
/// two-thread target); with one thread 57.8%, +54.3 [+20.1, +89.5] over 400, level with
/// `strong6`'s 58.6% as far as those games tell. On size 6, one thread, 63.0%, +92.5 [+59.6,
/// +127.0] over 400 games (two runs fixed before play, each shown), where `strong5` scored
/// 64.2%. The size-8 games were played from the results' file before it was built in.
/// Havannah's only.
pub const STRONG7_PRESET: &str = strong7_preset!();

/// The options `mcts:preset=strong8` stands for: [`STRONG7_PRESET`] searching in tree
/// parallelism's rounds of 8 descents under virtual loss (`parallel=tree,batch=8`), on one
/// thread unless `threads=` says more. The player of issue 46's size-8 targets against Castro
/// at its best at 0.25 s a move: with one thread each 62.5%, +88.7 [+54.7, +124.5] over 400
/// games, and with `threads=2` against Castro with two 59.2%, +65.0 [+33.1, +98.0] over 400
/// (each two runs fixed before play, each run shown; `results/castro-best/`); on size 6, one
/// thread each, 67.8%, +129.0 [+95.2, +165.2] over 400 games (the same). Havannah's only.
pub const STRONG8_PRESET: &str = concat!(strong7_preset!(), ",parallel=tree,batch=8");

/// The presets by name, each the options it stands for.
pub const PRESETS: &[(&str, &str)] = &[
    ("strong", STRONG_PRESET),
    ("strong2", STRONG2_PRESET),
    ("strong3", STRONG3_PRESET),
    ("strong4", STRONG4_PRESET),
    ("strong5", STRONG5_PRESET),
    ("strong6", STRONG6_PRESET),
    ("strong7", STRONG7_PRESET),
    ("strong8", STRONG8_PRESET),
];

/// The presets' names, each before the next, joined by `between` and, before the last, `last`:
/// `strong|strong2|…|strong8`, `strong, strong2, …, strong7 or strong8`.
pub(super) fn preset_names(between: &str, last: &str) -> String {
    let names: Vec<&str> = PRESETS.iter().map(|(name, _)| *name).collect();
    match names.split_last() {
        Some((final_name, [])) => (*final_name).to_string(),
        Some((final_name, rest)) => format!("{}{last}{final_name}", rest.join(between)),
        None => String::new(),
    }
}
