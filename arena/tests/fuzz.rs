//! Property tests (issue 101, point 3): every registry game and every reader of moves, game and
//! agent specs, nets, shapes and GTP lines, driven with random, malformed and boundary inputs
//! (proptest, 192 cases a property, 64 for GTP sessions; a failure prints its
//! shrunk input). None may panic; a move the parser accepts is
//! legal exactly when `try_play` takes it, and a legal one reads back from its own text; a
//! game spec that reads prints as a spec that reads to the same game; a GTP session answers
//! every command with `=` or `?` and goes on to `quit`.

use proptest::prelude::*;
use ringside_agents::gtp::Coords;
use ringside_agents::net::{Net, NetEvaluator, NetShape};
use ringside_agents::{AgentSpec, LabelledSpec};
use ringside_arena::protocols::gtp::serve;
use ringside_engine::registry::{AnyGame, GAMES, GameVisitor};
use ringside_engine::shapes::parse_shape_weights;
use ringside_engine::{Features, Game, seeded_rng};

/// A registry game by index, with its default options.
fn game(i: usize) -> AnyGame {
    AnyGame::parse(GAMES[i % GAMES.len()].name).expect("a registry name reads")
}

/// Text of the kinds a move reader meets: cells, numbers, the words of the notations, and
/// anything printable.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,2}[0-9]{0,3}",
        "[A-Za-z]{1,2}-?[0-9]{1,2}([-x:][a-z][0-9]{1,2})?",
        Just("pass".to_string()),
        Just("swap".to_string()),
        Just(String::new()),
        "[ -~]{0,8}",
        "\\PC{0,6}",
    ]
}

/// Plays `plies` random moves from the start (seeded), then reads `text` as a move there.
struct MoveAt {
    plies: u32,
    seed: u64,
    text: String,
}

impl GameVisitor for MoveAt {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let mut state = start;
        let (mut rng, mut scratch) = (seeded_rng(self.seed, 0), Vec::new());
        for _ in 0..self.plies {
            match state.random_move(&mut rng, &mut scratch) {
                Some(mv) if state.outcome().is_none() => state.play_unchecked(mv),
                _ => break,
            }
        }
        // A legal move's own text, cut or extended, is a boundary case of the notation.
        let own = state.random_move(&mut rng, &mut scratch).map(|mv| {
            let mut text = String::new();
            state.write_move(mv, &mut text);
            text
        });
        let mut texts = vec![self.text.clone()];
        if let Some(own) = own {
            let cut: String = own
                .chars()
                .take(own.chars().count().saturating_sub(1))
                .collect();
            texts.extend([own.clone(), cut, format!("{own}{}", self.text)]);
        }
        for text in texts {
            let Ok(mv) = state.parse_move(&text) else {
                continue;
            };
            let legal = state.is_legal(mv);
            let mut next = state.clone();
            assert_eq!(next.try_play(mv).is_ok(), legal, "{text:?}");
            if legal {
                let mut written = String::new();
                state.write_move(mv, &mut written);
                assert_eq!(state.parse_move(&written).ok(), Some(mv), "{text:?}");
            }
        }
    }
}

/// A game spec of a registry name with options of the shapes specs use.
fn game_spec() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = GAMES.iter().map(|g| g.name).collect();
    (
        proptest::sample::select(names),
        proptest::collection::vec(("[a-z_]{1,9}", "[-0-9a-z.]{0,6}"), 0..3),
    )
        .prop_map(|(name, options)| {
            let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            if options.is_empty() {
                name.to_string()
            } else {
                format!("{name}:{}", options.join(","))
            }
        })
}

/// An agent spec of a kind the registry has, with options of a spec's shape.
fn agent_spec() -> impl Strategy<Value = String> {
    let option = prop_oneof![
        ("(depth|nodes|time_ms|iters|c|playout|threads|tt_bits|near|ties|eval|score|solver|reuse|max_nodes|w\\.material|k|a|final|policy|rollouts)", "[-0-9a-z.e]{0,7}")
            .prop_map(|(k, v)| format!("{k}={v}")),
        "[ -~&&[^,]]{0,8}",
    ];
    (
        "(random|alphabeta|mcts|solver|faulty|human|perfect|[a-z]{1,6})",
        proptest::collection::vec(option, 0..4),
    )
        .prop_map(|(kind, options)| {
            if options.is_empty() {
                kind
            } else {
                format!("{kind}:{}", options.join(","))
            }
        })
}

/// A GTP line: a known command with arguments of any kind, or any printable text (never
/// `quit`, which ends the session).
fn gtp_line() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            "([0-9]{1,3} )?",
            "(play|genmove|boardsize|komi|undo|clear_board|showboard|final_score|known_command|list_commands|name|version|protocol_version|ringside-game)",
            "( [ -~]{0,10}){0,2}",
        )
            .prop_map(|(id, cmd, args)| format!("{id}{cmd}{args}")),
        // A switch to another game, which the session's notation may not write.
        game_spec().prop_map(|g| format!("ringside-game {g}")),
        "[ -~\t]{0,24}",
        "# [ -~]{0,10}",
    ]
    .prop_filter("not quit", |l| {
        !l.split_whitespace().any(|w| w.eq_ignore_ascii_case("quit"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn no_move_text_panics_and_an_accepted_move_is_legal_as_try_play_says(
        which in 0..GAMES.len(),
        plies in 0u32..40,
        seed in any::<u64>(),
        text in move_text(),
    ) {
        game(which).visit(MoveAt { plies, seed, text });
    }

    #[test]
    fn a_game_spec_that_reads_prints_as_one_that_reads_the_same(text in game_spec()) {
        if let Ok(g) = AnyGame::parse(&text) {
            let again = AnyGame::parse(&g.to_string()).expect("a printed spec reads");
            prop_assert_eq!(again.to_string(), g.to_string());
        }
    }

    #[test]
    fn no_agent_spec_text_panics_and_one_that_reads_builds_or_says_why(
        text in agent_spec(),
        which in 0..GAMES.len(),
    ) {
        if let Ok(spec) = AgentSpec::parse(&text) {
            // Building checks the options against the game; it must not panic.
            struct Build(AgentSpec);
            impl GameVisitor for Build {
                type Output = ();
                fn visit<G: Game + Features>(self, start: G) {
                    let _ = self.0.build(&start, 1);
                }
            }
            game(which).visit(Build(spec));
        }
    }

    #[test]
    fn no_shapes_text_panics(text in "([0-9]{1,16} [-0-9.e]{0,8}( [0-9x]{0,4}){0,2}\n|# [ -~]{0,10}\n|[ -~]{0,12}){0,6}") {
        if let Ok(weights) = parse_shape_weights(&text) {
            prop_assert!(!weights.is_empty());
            prop_assert!(weights.iter().all(|(_, w)| w.is_finite()));
        }
    }

    #[test]
    fn no_net_file_cut_or_changed_panics(
        which in 0..GAMES.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        cutting in any::<bool>(),
    ) {
        struct NetOf { edits: Vec<(prop::sample::Index, u8)>, cut: prop::sample::Index, cutting: bool }
        impl GameVisitor for NetOf {
            type Output = ();
            fn visit<G: Game + Features>(self, start: G) {
                let net = Net::random(NetShape::of(&start, 4, false), 0.5, &mut seeded_rng(1, 0));
                let mut bytes = net.to_bytes();
                for (at, b) in &self.edits {
                    let i = at.index(bytes.len());
                    bytes[i] = *b;
                }
                if self.cutting {
                    bytes.truncate(self.cut.index(bytes.len()));
                }
                if let Ok(read) = Net::from_bytes(&bytes) {
                    // A net that reads is evaluated or refused for this game, never a panic.
                    let _ = NetEvaluator::new(&read, &start);
                }
            }
        }
        game(which).visit(NetOf { edits, cut, cutting });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_gtp_session_answers_every_command_and_goes_on_to_quit(
        which in 0..GAMES.len(),
        coords in prop_oneof![Just(Coords::Ringside), Just(Coords::Castro), Just(Coords::HexGui)],
        lines in proptest::collection::vec(gtp_line(), 0..10),
    ) {
        let start = game(which);
        let agent = LabelledSpec {
            label: "random".into(),
            spec: AgentSpec::Random,
        };
        let input = lines.join("\n") + "\nquit\n";
        let mut output = Vec::new();
        let served = serve(&start, &agent, 1, coords, &mut input.as_bytes(), &mut output);
        if let Err(e) = &served {
            // A notation that cannot write the starting game is refused before the session.
            prop_assume!(!(output.is_empty() && e.message.contains("is not written in the")));
        }
        prop_assert!(served.is_ok(), "{:?}", served);
        let text = String::from_utf8_lossy(&output);
        let answers: Vec<&str> = text.split("\n\n").filter(|a| !a.is_empty()).collect();
        let commands = lines
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count();
        prop_assert_eq!(answers.len(), commands + 1, "{}", text);
        prop_assert!(answers.iter().all(|a| a.starts_with('=') || a.starts_with('?')), "{}", text);
    }
}
