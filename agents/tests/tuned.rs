//! `eval=tuned` (issue 24): every game of the registry ships one tuned weight a feature; the
//! name loads them, and a spec written out for a game carries them in full, so it reads back
//! as the same weights whatever a later retuning ships. `eval=net` (issue 45) likewise: a
//! shipped net loads by name and a written-out spec names it by content.

use ringside_agents::{AgentSpec, EvalKind, EvalSpec, Evaluator};
use ringside_engine::registry::{GAMES, GameVisitor, with_game};
use ringside_engine::{Features, Game};

/// The evaluation of an alpha-beta spec.
fn eval_of(spec: &AgentSpec) -> &EvalSpec {
    let AgentSpec::AlphaBeta(ab) = spec else {
        panic!("alpha-beta: {spec}")
    };
    &ab.eval
}

struct Check;

impl GameVisitor for Check {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let name = start.name();
        let tuned: Vec<f64> = (0..start.feature_set().len())
            .map(|i| start.tuned_weight(i))
            .collect();
        if let Some(fit) = start.tuned_fit() {
            assert_eq!(fit, tuned, "{name}: the fit's weights");
        } else {
            let rich: Vec<f64> = start
                .feature_set()
                .iter()
                .map(|f| f.default_weight)
                .collect();
            assert_eq!(rich, tuned, "{name}: no fit plays rich");
        }
        assert!(tuned.iter().all(|w| w.is_finite()), "{name}");
        let spec = AgentSpec::parse("alphabeta:depth=2,eval=tuned").unwrap();
        assert_eq!(eval_of(&spec).kind, EvalKind::Tuned);
        let by_name = Evaluator::new(eval_of(&spec), &start).unwrap();
        assert_eq!(
            by_name.weights(),
            tuned,
            "{name}: eval=tuned loads the tuned weights"
        );

        let full = spec.spell_out_weights(&start);
        let text = full.to_string();
        for (f, w) in start.feature_set().iter().zip(&tuned) {
            assert!(
                text.contains(&format!("w.{}={w}", f.name)),
                "{name}: {text} spells out {}",
                f.name
            );
        }
        let again = AgentSpec::parse(&text).unwrap();
        assert_eq!(again, full, "{name}: the written spec reads back");
        assert_eq!(again.to_string(), text);
        // The written-out weights alone (without the table behind the name) are the weights.
        let mut rich = eval_of(&again).clone();
        rich.kind = EvalKind::Rich;
        assert_eq!(
            Evaluator::new(&rich, &start).unwrap().weights(),
            tuned,
            "{name}"
        );
        // A weight given in the spec wins over the table's.
        let own = AgentSpec::parse("mcts:eval=tuned,w.material=7")
            .unwrap()
            .spell_out_weights(&start)
            .to_string();
        assert!(own.contains("w.material=7"), "{own}");
        // A shipped net reads this game's board; a game without one refuses eval=net.
        let net = AgentSpec::parse("alphabeta:eval=net").unwrap();
        let built = Evaluator::new(eval_of(&net), &start);
        assert_eq!(
            built.is_ok(),
            start.shipped_net().is_some(),
            "{name}: {:?}",
            built.err()
        );
    }
}

#[test]
fn every_games_tuned_weights_load_by_name_and_print_in_full() {
    for game in GAMES {
        with_game(game.name, Check).unwrap();
    }
}

#[test]
fn other_evaluations_are_not_spelled_out() {
    let rin = ringside_engine::games::rin::Rin::new(8).unwrap();
    for text in ["alphabeta:depth=2,eval=rich", "random", "mcts:iters=10"] {
        let spec = AgentSpec::parse(text).unwrap();
        assert_eq!(spec.spell_out_weights(&rin), spec, "{text}");
    }
}

#[test]
fn a_shipped_net_loads_by_name_and_is_recorded_by_its_content() {
    use ringside_agents::net::content_id;
    use ringside_engine::games::hexxagon::Hexxagon;
    let game = Hexxagon::new(5).unwrap();
    let bytes = game.shipped_net().expect("Hexxagon 5 ships a net");
    let spec = AgentSpec::parse("alphabeta:depth=1,eval=net").unwrap();
    let full = spec.spell_out_weights(&game);
    let text = full.to_string();
    assert!(
        text.contains(&format!("net_id={:016x}", content_id(bytes))),
        "{text}"
    );
    assert_eq!(AgentSpec::parse(&text).unwrap().to_string(), text);
    assert!(Evaluator::new(eval_of(&full), &game).is_ok());
    // A spec naming another net's content is refused rather than played with this one.
    let other = AgentSpec::parse("alphabeta:eval=net,net_id=0123456789abcdef").unwrap();
    let err = Evaluator::new(eval_of(&other), &game).unwrap_err();
    assert!(err.reason.contains("0123456789abcdef"), "{}", err.reason);
    // Other sides have no net.
    assert!(Hexxagon::new(4).unwrap().shipped_net().is_none());
}

/// Loads the shipped net of the game it visits and compares it with the file the results
/// document (`results/nets/DIR/net.rsnet`).
struct Shipped(&'static str);

impl GameVisitor for Shipped {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let spec = start.spec();
        let bytes = start
            .shipped_net()
            .unwrap_or_else(|| panic!("{spec} ships a net"));
        let path = format!(
            "{}/../results/nets/{}/net.rsnet",
            env!("CARGO_MANIFEST_DIR"),
            self.0
        );
        let checked = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(checked == bytes, "{spec}: the shipped net is not {path}");
        let net = AgentSpec::parse("alphabeta:eval=net").unwrap();
        assert!(Evaluator::new(eval_of(&net), &start).is_ok(), "{spec}");
    }
}

#[test]
fn each_shipped_net_is_the_checked_one_and_loads_on_the_game_it_was_trained_on() {
    for (spec, dir) in [
        ("hexxagon", "hexxagon"),
        ("rin:size=10", "rin"),
        ("advance", "advance"),
        ("life", "life"),
        ("ikabegama:side=9,distance=6", "ikabegama-mixed"),
        ("othello", "othello"),
        ("havannah:size=6", "havannah-mixed"),
    ] {
        with_game(spec, Shipped(dir)).unwrap();
    }
}
