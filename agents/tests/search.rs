//! The searches against plain references and hand-built positions.

use ringside_agents::alphabeta::{EVAL_LIMIT, EVAL_SCALE, WIN};
use ringside_agents::spec::{AlphaBetaSpec, Scoring};
use ringside_agents::{Agent, AgentSpec, AlphaBeta, Evaluator, Mcts};
use ringside_engine::games::advance::Advance;
use ringside_engine::games::havannah::Havannah;
use ringside_engine::games::hexxagon::Hexxagon;
use ringside_engine::games::ikabegama::Ikabegama;
use ringside_engine::games::life::Life;
use ringside_engine::games::rin::Rin;
use ringside_engine::{Features, Game, Outcome, Player, seeded_rng};

/// Plain minimax: no pruning, no table; the same values as the crate docs define.
fn minimax<G: Game + Features>(
    state: &G,
    depth: u32,
    ply: u32,
    me: Player,
    eval: &Evaluator,
    score: Scoring,
) -> i32 {
    if let Some(outcome) = state.outcome() {
        let win = if score == Scoring::Moves {
            WIN - ply as i32
        } else {
            WIN
        };
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == me => win,
            Outcome::Win(_) => -win,
        };
    }
    if depth == 0 {
        let v = (eval.evaluate(state, me) * EVAL_SCALE).round();
        return v.clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT)) as i32;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let child_me = child.to_move().unwrap_or(me);
            let v = minimax(&child, depth - 1, ply + 1, child_me, eval, score);
            if child_me == me { v } else { -v }
        })
        .max()
        .unwrap()
}

fn alphabeta_spec(text: &str) -> AlphaBetaSpec {
    match AgentSpec::parse(text).unwrap() {
        AgentSpec::AlphaBeta(s) => s,
        other => panic!("{other:?}"),
    }
}

/// Compares alpha-beta's root value with minimax on `positions` seeded positions of `start`.
fn check_against_minimax<G: Game + Features>(start: &G, depth: u32, positions: u64) -> usize {
    let mut checked = 0;
    for index in 0..positions {
        let mut rng = seeded_rng(99, index);
        let mut state = start.clone();
        state.randomize_start(&mut rng);
        let plies = (index % 12) as u32;
        for _ in 0..plies {
            if state.outcome().is_some() {
                break;
            }
            let mv = state.random_move(&mut rng, &mut Vec::new()).unwrap();
            state.play_unchecked(mv);
        }
        if state.outcome().is_some() {
            continue;
        }
        let me = state.to_move().unwrap();
        for text in [
            format!("alphabeta:depth={depth},eval=rich"),
            format!("alphabeta:depth={depth},score=moves"),
        ] {
            let spec = alphabeta_spec(&text);
            let eval = Evaluator::new(&spec.eval, &state).unwrap();
            let expected = minimax(&state, depth, 0, me, &eval, spec.score);
            let mut ab = AlphaBeta::new(spec, eval);
            let (mv, value, reached) = ab.analyse(&state);
            assert_eq!(reached, depth);
            assert_eq!(
                value,
                expected,
                "{} position {index} ({text}):\n{}",
                start.spec(),
                state.board_rows().join("\n")
            );
            assert!(state.is_legal(mv.unwrap()));
        }
        checked += 1;
    }
    checked
}

#[test]
fn alphabeta_equals_plain_minimax_on_every_game() {
    assert!(check_against_minimax(&Rin::new(6).unwrap(), 3, 40) >= 35);
    // Late Rin positions, where rings close and the double move matters most.
    let mut late = Rin::new(6).unwrap();
    let mut rng = seeded_rng(5, 5);
    for _ in 0..24 {
        let mv = late.random_move(&mut rng, &mut Vec::new()).unwrap();
        late.play_unchecked(mv);
    }
    assert!(check_against_minimax(&late, 4, 12) >= 10);
    assert!(check_against_minimax(&Life::default(), 2, 12) >= 10);
    assert!(check_against_minimax(&Advance::with_offset(4, 1).unwrap(), 3, 30) >= 20);
    assert!(check_against_minimax(&Ikabegama::with_distance(3, 2).unwrap(), 3, 40) >= 10);
    assert!(check_against_minimax(&Hexxagon::new(3).unwrap(), 3, 30) >= 25);
    assert!(check_against_minimax(&Havannah::new(4, true).unwrap(), 2, 30) >= 25);
}

/// A 6x6 Rin endgame, White to move (second stone of its pair) with six empty points: only
/// b3 wins, as exhaustive minimax confirms below.
const RIN_ENDGAME: &str = "BBWBWW
                           BW.BWW
                           WBW..W
                           B..BBW
                           WBBWWB
                           WBBBW.
                           ply 30";

#[test]
fn mcts_solver_proves_a_forced_win_and_plays_it() {
    let state = Rin::new(6).unwrap().set_up(RIN_ENDGAME).unwrap();
    let white = Player::ONE;
    assert_eq!(state.to_move(), Some(white));
    // The reference: exhaustive minimax says White wins, and b3 is the only winning move.
    let spec = alphabeta_spec("alphabeta:depth=6");
    let eval = Evaluator::new(&spec.eval, &state).unwrap();
    assert!(minimax(&state, 6, 0, white, &eval, Scoring::Win) >= WIN - 6);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let winning: Vec<String> = moves
        .iter()
        .filter(|&&m| {
            let mut c = state;
            c.play_unchecked(m);
            let me = c.to_move().unwrap_or(white);
            let v = minimax(&c, 5, 1, me, &eval, Scoring::Win);
            (if me == white { v } else { -v }) >= WIN - 6
        })
        .map(|&m| state.move_text(m))
        .collect();
    assert_eq!(winning, ["b3"]);

    for text in [
        "mcts:iters=20000",
        "mcts:iters=20000,rave=500",
        "mcts:iters=20000,rave=500,decisive=tree,fpu=0.5,bias=0.5,policy=mast",
        "mcts:iters=20000,decisive=on,policy=eval,eval=rich,threads=2",
        "mcts:iters=20000,rave=500,decisive=tree,policy=ngram,epsilon=0.4",
        "mcts:iters=20000,rave=500,rave_form=hyp,rave_grow=200,know=1,fpu=1",
        "mcts:iters=20000,preset=strong,pattern=on,reply=lgrf",
        "mcts:iters=20000,reply=lgr,final=wins",
    ] {
        let AgentSpec::Mcts(spec) = AgentSpec::parse(text).unwrap() else {
            unreachable!()
        };
        let eval = Evaluator::new(&spec.eval, &state).unwrap();
        let mut mcts = Mcts::new(spec, eval, seeded_rng(1, 1));
        let decision = mcts.choose(&state);
        assert_eq!(state.move_text(decision.mv), "b3", "{text}");
        let (winner, distance) = mcts.root_proof().expect("the solver proves the root");
        assert_eq!(winner, Some(white), "{text}");
        assert!(
            distance <= 6,
            "{text}: the game ends within the six empty points: {distance}"
        );
        assert!(
            decision.stats.iterations < 20000,
            "{text}: a proof ends the search early"
        );
    }
}

/// Ikabegamá, side 3, Light nest c1 (empty), Dark nest c5 (empty), Dark to move. Dark wins at
/// once with b4-d3 (flipping Light's last token) and can also force a win in three plies.
const IKABEGAMA_WIN_IN_1_OR_3: &str = "  . . D
                                        . . . D
                                       l . . . d
                                        . . . .
                                         . L .
                                       to_move dark";

#[test]
fn move_count_scoring_takes_the_win_in_one_over_the_win_in_three() {
    let state = Ikabegama::with_nest_cells(3, "c1", "c5")
        .unwrap()
        .set_up(IKABEGAMA_WIN_IN_1_OR_3)
        .unwrap();
    let dark = Player::ONE;
    let spec = alphabeta_spec("alphabeta:depth=3");
    let eval = Evaluator::new(&spec.eval, &state).unwrap();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let wins_in = |plies: u32| {
        moves
            .iter()
            .filter(|&&m| {
                let mut c = state;
                c.play_unchecked(m);
                let me = c.to_move().unwrap_or(dark);
                let v = minimax(&c, plies - 1, 1, me, &eval, Scoring::Moves);
                (if me == dark { v } else { -v }) == WIN - plies as i32
            })
            .count()
    };
    assert_eq!(wins_in(1), 1, "one immediate win");
    assert!(
        wins_in(3) >= 1,
        "and at least one other move that forces a win in three"
    );

    for text in [
        "alphabeta:depth=3,score=moves",
        "alphabeta:depth=5,score=moves",
        "mcts:iters=3000,score=moves",
        "mcts:iters=3000,score=moves,solver=off",
        "mcts:iters=3000,score=moves,rave=500",
        "mcts:iters=3000,score=moves,decisive=on,policy=mast",
        "mcts:iters=3000,score=moves,bias=0.5,fpu=0.5,policy=eval,threads=2",
        "mcts:iters=3000,score=moves,preset=strong",
        "mcts:iters=3000,score=moves,rave=500,rave_form=hyp,rave_grow=200,know=1,fpu=1",
        "mcts:iters=3000,score=moves,preset=strong,pattern=on,reply=lgrf",
        "mcts:iters=3000,score=moves,reply=lgr,final=wins",
    ] {
        let mut agent = AgentSpec::parse(text).unwrap().build(&state, 3).unwrap();
        let mv = agent.choose(&state).mv;
        assert_eq!(state.move_text(mv), "b4-d3", "{text}");
    }
}

#[test]
fn seeded_agents_repeat_their_games() {
    let specs = [
        "random",
        "alphabeta:depth=2",
        "mcts:iters=100",
        "mcts:iters=60,score=moves,playout=30,eval=rich",
        "mcts:iters=100,rave=300,c=0.4",
        "mcts:iters=100,decisive=on,policy=mast,epsilon=0.3",
        "mcts:iters=60,policy=eval,bias=1,fpu=0.3,eval=rich",
        "mcts:iters=100,threads=3,rave=300",
        "mcts:preset=strong,iters=100",
        "mcts:iters=100,rave=500,rave_form=hyp,rave_grow=200,know=1,fpu=1",
        "mcts:iters=100,rave=300,pattern=on,reply=lgrf",
        "mcts:iters=100,reply=lgr,final=wins",
    ];
    let play = |seed: u64| -> Vec<String> {
        let start = Rin::new(8).unwrap();
        let mut agents: Vec<_> = specs
            .iter()
            .map(|s| AgentSpec::parse(s).unwrap().build(&start, seed).unwrap())
            .collect();
        let mut state = start;
        let mut moves = Vec::new();
        let mut turn = 0;
        while state.outcome().is_none() {
            let agent = &mut agents[turn % specs.len()];
            let mv = agent.choose(&state).mv;
            moves.push(state.move_text(mv));
            state.play(mv);
            turn += 1;
        }
        moves
    };
    let first = play(11);
    assert_eq!(first, play(11));
    assert_ne!(first, play(12), "another seed gives another game");
}

#[test]
fn alphabeta_asked_twice_about_one_position_answers_the_same() {
    // The second search starts with the first one's table, which holds the root at every
    // depth: the root must still be searched, not read from the table.
    for (start, seed) in [(Rin::new(6).unwrap(), 1), (Rin::new(8).unwrap(), 2)] {
        let mut state = start;
        let mut rng = seeded_rng(seed, 0);
        for _ in 0..5 {
            let mv = state.random_move(&mut rng, &mut Vec::new()).unwrap();
            state.play_unchecked(mv);
        }
        for text in ["alphabeta:depth=3", "alphabeta:depth=3,score=moves"] {
            let spec = alphabeta_spec(text);
            let eval = Evaluator::new(&spec.eval, &state).unwrap();
            let mut ab = AlphaBeta::new(spec, eval);
            let first = ab.analyse(&state);
            let again = ab.analyse(&state);
            assert!(first.0.is_some());
            assert_eq!(first, again, "{text}");
        }
    }
}

/// Checks that `preset` (strong4 and the built-in term `term` at 0.15, the fit of
/// `results/castro-best/FOLDER/`) searches exactly as `know.shape=0.15,shapes=` that file,
/// that the built-in file is the results' byte for byte, that the shapes change strong4's
/// searches, and that Hex, which has no such term, is refused by name.
fn a_preset_plays_as_strong4_with_its_fit_read_from_its_file(
    preset: &str,
    term: &str,
    folder: &str,
    built_in: &str,
) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = format!("{root}/results/castro-best/{folder}/shapes.txt");
    let built_in = format!("{root}/engine/src/games/havannah/{built_in}");
    assert_eq!(
        std::fs::read(built_in).unwrap(),
        std::fs::read(&file).unwrap(),
        "the built-in fit is the results' file, byte for byte"
    );
    let from_file = format!("mcts:iters=1500,preset=strong4,know.shape=0.15,shapes={file}");
    let searches = |text: &str, state: &Havannah| {
        let mut agent = AgentSpec::parse(text).unwrap().build(state, 7).unwrap();
        let mut at = state.clone();
        let mut out = Vec::new();
        for _ in 0..2 {
            let d = agent.choose(&at);
            out.push((d.mv, d.stats.value, d.stats.nodes, d.stats.depth));
            at.play_unchecked(d.mv);
            let mut moves = Vec::new();
            at.legal_moves(&mut moves);
            at.play_unchecked(moves[moves.len() / 2]);
        }
        out
    };
    let mut state = Havannah::new(8, false).unwrap();
    let mut rng = seeded_rng(11, 0);
    let mut moves = Vec::new();
    let mut differs = false;
    let spec = format!("mcts:iters=1500,preset={preset}");
    for _ in 0..3 {
        let built = searches(&spec, &state);
        assert_eq!(built, searches(&from_file, &state), "{}", state.ply());
        differs |= built != searches("mcts:iters=1500,preset=strong4", &state);
        for _ in 0..12 {
            let mv = state.random_move(&mut rng, &mut moves).unwrap();
            state.play_unchecked(mv);
        }
    }
    assert!(differs, "the shapes change strong4's searches");
    // Another game has no such term: refused, by name.
    let hex = ringside_engine::games::hex::Hex::new(5, false).unwrap();
    let Err(err) = AgentSpec::parse(&format!("mcts:preset={preset}"))
        .unwrap()
        .build(&hex, 1)
    else {
        panic!("Hex has no term {term}")
    };
    let err = err.to_string();
    assert!(err.contains(term), "{err}");
}

#[test]
fn preset_strong5_plays_as_strong4_with_the_context_fit_read_from_its_file() {
    a_preset_plays_as_strong4_with_its_fit_read_from_its_file(
        "strong5",
        "shape_ctx",
        "shapes-ctx",
        "shapes-ctx.txt",
    );
}

#[test]
fn preset_strong6_plays_as_strong4_with_the_wide_fit_read_from_its_file() {
    a_preset_plays_as_strong4_with_its_fit_read_from_its_file(
        "strong6",
        "shape_wide",
        "shapes-wide",
        "shapes-wide.txt",
    );
}

#[test]
fn preset_strong8_searches_as_strong7_in_rounds_of_eight_on_one_thread_or_two() {
    // The spec played against Castro (results/castro-best: strong7r8-*, and with threads=2
    // wide2-s8t2b8-* from the file strong7 is built from) and the preset: the same searches.
    let mut state = Havannah::new(8, false).unwrap();
    let mut rng = seeded_rng(13, 0);
    let mut moves = Vec::new();
    let decide = |text: &str, state: &Havannah| {
        let mut agent = AgentSpec::parse(text).unwrap().build(state, 5).unwrap();
        let d = agent.choose(state);
        (d.mv, d.stats.value, d.stats.nodes, d.stats.depth)
    };
    let mut differs = false;
    for _ in 0..3 {
        for threads in [1, 2] {
            let preset = decide(
                &format!("mcts:iters=1200,preset=strong8,threads={threads}"),
                &state,
            );
            let spelled =
                format!("mcts:iters=1200,preset=strong7,parallel=tree,batch=8,threads={threads}");
            assert_eq!(
                preset,
                decide(&spelled, &state),
                "{threads} threads, ply {}",
                state.ply()
            );
            differs |= preset != decide("mcts:iters=1200,preset=strong7", &state);
        }
        for _ in 0..12 {
            let mv = state.random_move(&mut rng, &mut moves).unwrap();
            state.play_unchecked(mv);
        }
    }
    assert!(differs, "the rounds change strong7's searches");
}

#[test]
fn preset_strong7_plays_as_strong4_with_the_refitted_wide_fit_read_from_its_file() {
    a_preset_plays_as_strong4_with_its_fit_read_from_its_file(
        "strong7",
        "shape_wide2",
        "shapes-wide2",
        "shapes-wide2.txt",
    );
}
