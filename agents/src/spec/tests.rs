use super::*;

#[test]
fn specs_print_in_full_and_parse_back() {
    for text in [
        "random",
        "alphabeta:depth=3,eval=material",
        "mcts:iters=2000,c=1.4,score=moves",
        "alphabeta:nodes=5000,depth=9,score=moves",
        "mcts:time_ms=50,playout=20,eval=rich,solver=off,reuse=off",
        "mcts:iters=500,rave=1000,c=0.3",
        "mcts:iters=500,rave=500,rave_form=hyp,rave_grow=200,know=1,fpu=1",
        "mcts:iters=500,rave=1000,rave_form=mse,know=1,know_fade=0.3,amaf_plies=40",
        "mcts:iters=500,solver=on,decisive=tree,mate_at=64",
        "mcts:iters=500,rave=500,pattern=on,reply=lgrf",
        "mcts:iters=500,reply=lgr,final=wins",
        "mcts:iters=500,decisive=on,fpu=0.5,bias=2,policy=mast,epsilon=0.3,threads=2",
        "mcts:time_ms=100,decisive=tree,policy=eval,eval=rich",
        "mcts:iters=500,rave=500,policy=ngram,epsilon=0.4,threads=2",
        "mcts:preset=strong,time_ms=250",
        "faulty:panic_at=3",
        "faulty:illegal_at=2",
        "alphabeta:depth=2,eval=rich,w.immune=0.75,w.territory=-1.5",
        "gtp:cmd=/tmp/castro/castro,coords=castro,time_ms=250,setup=time -m 0.25 -g 0",
        r#"gtp:cmd="/bin/engine --set=a,b 'x y'",name="my, engine""#,
    ] {
        let spec = AgentSpec::parse(text).unwrap();
        let printed = spec.to_string();
        assert_eq!(
            AgentSpec::parse(&printed).unwrap(),
            spec,
            "{text} -> {printed}"
        );
    }
    assert_eq!(
        AgentSpec::parse("alphabeta").unwrap().to_string(),
        "alphabeta:depth=3,eval=material,score=win,tt_bits=16"
    );
}

#[test]
fn bad_specs_are_told_apart_by_kind() {
    let kind = |t: &str| AgentSpec::parse(t).unwrap_err().kind;
    assert_eq!(kind("minimax"), SpecErrorKind::UnknownAgent);
    assert_eq!(kind("mcts:iters"), SpecErrorKind::Malformed);
    assert_eq!(kind("gtp:cmd=\"x"), SpecErrorKind::Malformed);
    assert_eq!(kind("mcts:iters=1,iters=2"), SpecErrorKind::Repeated);
    assert_eq!(kind("mcts:depth=3"), SpecErrorKind::UnknownKey);
    assert_eq!(kind("alphabeta:depth=0"), SpecErrorKind::BadValue);
    assert_eq!(kind("mcts:c=nan"), SpecErrorKind::BadValue);
    assert_eq!(kind("mcts:rave_form=hyp"), SpecErrorKind::BadValue);
    assert_eq!(kind("gtp"), SpecErrorKind::Missing);
    assert_eq!(
        kind("alphabeta:weights=/nonexistent/w.json"),
        SpecErrorKind::Weights
    );
    let rin = ringside_engine::games::rin::Rin::new(6).unwrap();
    let wrong = AgentSpec::parse("gtp:cmd=x,coords=castro").unwrap();
    assert_eq!(
        wrong.build(&rin, 0).err().map(|e| e.kind),
        Some(SpecErrorKind::WrongGame)
    );
    let weights = AgentSpec::parse("alphabeta:w.nonsense=1").unwrap();
    assert_eq!(
        weights.build(&rin, 0).err().map(|e| e.kind),
        Some(SpecErrorKind::Weights)
    );
}

#[test]
fn bad_specs_name_the_key_and_the_allowed_values() {
    let err = |t: &str| AgentSpec::parse(t).unwrap_err().reason;
    assert_eq!(
        err("minimax"),
        "unknown agent 'minimax'; agents: random, human, alphabeta, faulty, gtp, host, mcts, solver"
    );
    assert!(err("faulty").contains("panic_at=N or illegal_at=N"));
    assert!(err("faulty:panic_at=1").contains("panic_at must be from 2"));
    assert!(
        err("alphabeta:eval=fancy")
            .contains("eval must be one of material|rich|tuned|net, not 'fancy'")
    );
    assert!(err("mcts:score=fast").contains("score must be one of win|moves"));
    assert!(err("mcts:depth=3").contains("unknown key 'depth'; allowed: iters=N"));
    assert!(err("alphabeta:depth=0").contains("depth must be from 1 to 64"));
    assert!(err("alphabeta:depth=x").contains("depth takes a whole number"));
    assert!(err("mcts:c=-1").contains("c must be a finite number from 0 up"));
    assert!(err("mcts:c=nan").contains("c must be a finite number"));
    assert!(err("mcts:a=nan").contains("a must be a finite number"));
    assert!(err("mcts:k=inf").contains("k must be a finite number"));
    assert!(err("mcts:rave=0").contains("rave must be a finite number above 0"));
    assert!(err("mcts:decisive=yes").contains("decisive"));
    assert!(err("mcts:policy=greedy").contains("policy"));
    assert!(err("mcts:reply=lgr2").contains("reply"));
    assert!(err("mcts:pattern=yes").contains("pattern"));
    assert!(err("mcts:final=value").contains("final"));
    assert!(err("mcts:epsilon=1.5").contains("epsilon must be from 0 to 1"));
    assert!(err("mcts:threads=0").contains("threads must be from 1 to 64"));
    assert!(err("mcts:bias=-1").contains("bias must be a finite number"));
    assert!(err("mcts:know=-0.5").contains("know must be a finite number"));
    assert!(err("mcts:rave=9,rave_grow=-1").contains("rave_grow must be a finite number"));
    assert!(err("mcts:rave=9,rave_form=log").contains("rave_form must be one of sqrt|hyp"));
    assert!(err("mcts:rave_form=hyp").contains("rave_form and rave_grow need rave=K"));
    assert!(err("mcts:rave_grow=5").contains("rave_form and rave_grow need rave=K"));
    assert!(err("mcts:preset=weak").contains(
        "preset must be strong, strong2, strong3, strong4, strong5, strong6, strong7 or strong8"
    ));
    let kinds = agent_kinds();
    let (_, mcts_keys) = kinds.iter().find(|(kind, _)| *kind == "mcts").unwrap();
    assert!(
        mcts_keys
            .ends_with(", preset=strong|strong2|strong3|strong4|strong5|strong6|strong7|strong8"),
        "{mcts_keys}"
    );
    assert!(err("mcts:fpu=inf").contains("fpu must be a finite number"));
    assert!(err("random:depth=2").contains("unknown key 'depth'"));
    assert!(err("mcts:iters").contains("key=value"));
    assert!(err("mcts:iters=1,iters=2").contains("twice"));
    assert!(err("gtp").contains("cmd=PROGRAM is required"));
    assert!(err("gtp:cmd=\"x").contains("unclosed double quote"));
    assert!(err("gtp:cmd=x,coords=gnugo").contains("coords must be one of ringside|castro"));
    assert!(err("gtp:cmd=x,time_ms=0").contains("time_ms must be at least 1"));
    assert!(
        err("alphabeta:weights=/nonexistent/w.json").contains("weights file /nonexistent/w.json")
    );
}

#[test]
fn the_strong_preset_expands_and_options_beside_it_win() {
    let AgentSpec::Mcts(strong) = AgentSpec::parse("mcts:preset=strong").unwrap() else {
        panic!("mcts")
    };
    let AgentSpec::Mcts(spelled) = AgentSpec::parse(&format!("mcts:{STRONG_PRESET}")).unwrap()
    else {
        panic!("mcts")
    };
    assert_eq!(strong, spelled);
    assert_eq!(
        (strong.c, strong.rave, strong.rave_form, strong.rave_grow),
        (0.0, Some(500.0), RaveForm::Hyperbolic, 200.0)
    );
    assert_eq!((strong.decisive, strong.know), (Decisive::Tree, 1.0));
    let AgentSpec::Mcts(mine) = AgentSpec::parse("mcts:preset=strong,c=0.7").unwrap() else {
        panic!("mcts")
    };
    assert_eq!((mine.c, mine.rave), (0.7, strong.rave));
    let AgentSpec::Mcts(second) = AgentSpec::parse("mcts:preset=strong2").unwrap() else {
        panic!("mcts")
    };
    assert_eq!(second.ring_depth, Some(0.7));
    assert_eq!(
        MctsSpec {
            ring_depth: None,
            ..second.clone()
        },
        strong
    );
    let AgentSpec::Mcts(third) = AgentSpec::parse("mcts:preset=strong3").unwrap() else {
        panic!("mcts")
    };
    assert_eq!((third.rollouts, third.ring_perm), (5, 3));
    assert_eq!(
        MctsSpec {
            rollouts: second.rollouts,
            ring_perm: second.ring_perm,
            ..third.clone()
        },
        second
    );
    let AgentSpec::Mcts(fourth) = AgentSpec::parse("mcts:preset=strong4").unwrap() else {
        panic!("mcts")
    };
    assert_eq!(
        (fourth.rave_grow, fourth.final_choice),
        (0.0, FinalChoice::Wins)
    );
    assert_eq!(
        MctsSpec {
            rave_grow: third.rave_grow,
            final_choice: third.final_choice,
            ..fourth
        },
        third
    );
}

#[test]
fn the_typed_setter_agrees_with_editing_the_spec_text() {
    for text in [
        "alphabeta:depth=3,nodes=500,eval=rich",
        "mcts:iters=300,rave=500,policy=mast",
        "mcts:preset=strong,iters=100",
    ] {
        let spec = AgentSpec::parse(text).unwrap();
        let keys: Vec<(&str, bool)> = match &spec {
            AgentSpec::AlphaBeta(_) => alphabeta::OPTIONS
                .iter()
                .map(|d| (d.key, d.is_whole()))
                .collect(),
            _ => mcts::OPTIONS
                .iter()
                .map(|d| (d.key, d.is_whole()))
                .collect(),
        };
        for (key, whole) in keys {
            for value in [0.0, 0.4, 1.0, 2.6, 17.0, 1e9, -1.0] {
                let typed = spec.set(key, value);
                let text_value = if whole {
                    format!("{}", value.round())
                } else {
                    format!("{value}")
                };
                let printed = spec.to_string();
                let (kind, rest) = printed.split_once(':').unwrap();
                let kept: Vec<&str> = rest
                    .split(',')
                    .filter(|i| i.split_once('=').map(|(k, _)| k) != Some(key))
                    .collect();
                let edited =
                    AgentSpec::parse(&format!("{kind}:{},{key}={text_value}", kept.join(",")));
                match (typed, edited) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{text} {key}={value}"),
                    (Err(_), Err(_)) => {}
                    (a, b) => {
                        // Words (eval=, score=, …) are not numbers: the setter refuses them.
                        let is_word = matches!(
                            (key, &a),
                            (
                                "eval"
                                    | "score"
                                    | "solver"
                                    | "reuse"
                                    | "rave_form"
                                    | "decisive"
                                    | "policy"
                                    | "pattern"
                                    | "reply"
                                    | "final",
                                Err(_)
                            )
                        );
                        assert!(is_word, "{text} {key}={value}: {a:?} vs {b:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_committed_spec_prints_as_it_was_recorded() {
    let results = concat!(env!("CARGO_MANIFEST_DIR"), "/../results");
    let mut seen = 0;
    let mut stack = vec![std::path::PathBuf::from(results)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if !path.to_string_lossy().ends_with(".settings.json") {
                continue;
            }
            let sidecar: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            // A games file's sidecar; other settings files (SPSA's) hold no agent list.
            let Some(agents) = sidecar["settings"]["agents"].as_array() else {
                continue;
            };
            for agent in agents {
                let spec = agent["spec"].as_str().unwrap();
                let weights: BTreeMap<String, f64> = agent
                    .get("weights")
                    .map(|w| serde_json::from_value(w.clone()).unwrap())
                    .unwrap_or_default();
                let parsed = AgentSpec::parse_with_weights(spec, &|_| Ok(weights.clone())).unwrap();
                assert_eq!(parsed.to_string(), spec, "{}", path.display());
                seen += 1;
            }
        }
    }
    assert!(seen > 50, "only {seen} specs found under results/");
}

#[test]
fn the_evaluations_options_are_table_rows_that_must_go_together() {
    // Help for both kinds lists them from the table, once each (as whole keys, so
    // mcts's movenet=FILE is not net=FILE).
    for (kind, help) in agent_kinds() {
        if kind == "alphabeta" || kind == "mcts" {
            for key in ["eval=", "weights=FILE.json", "net=FILE", "net_id=HEX"] {
                let whole = format!(" {key}");
                assert_eq!(help.matches(&whole).count(), 1, "{kind}: {key} in {help}");
            }
        }
    }
    let kind = |text: &str| AgentSpec::parse(text).map_err(|e| e.kind);
    // net=FILE alone means eval=net; beside another evaluation it is refused, as is
    // net_id=; weights go with weighted evaluations only.
    let with_weights = |text: &str| {
        AgentSpec::parse_with_weights(text, &|_| Ok(BTreeMap::from([("material".into(), 2.0)])))
    };
    let AgentSpec::AlphaBeta(ab) = with_weights("alphabeta:eval=rich,weights=w.json").unwrap()
    else {
        panic!("alpha-beta")
    };
    assert_eq!(ab.eval.kind, EvalKind::Rich);
    assert_eq!(ab.eval.weights.get("material"), Some(&2.0));
    assert_eq!(ab.eval.weights_file.as_deref(), Some("w.json"));
    let AgentSpec::Mcts(m) = AgentSpec::parse("mcts:net_id=00000000000000ff").unwrap() else {
        panic!("mcts")
    };
    assert_eq!(
        m.eval.kind,
        EvalKind::Net,
        "a net named alone means eval=net"
    );
    assert_eq!(m.eval.net.as_ref().and_then(|n| n.id), Some(0xff));
    assert_eq!(
        kind("mcts:eval=rich,net=x.rsnet"),
        Err(SpecErrorKind::BadValue)
    );
    assert_eq!(
        kind("alphabeta:eval=tuned,net_id=ff"),
        Err(SpecErrorKind::BadValue)
    );
    assert_eq!(kind("alphabeta:net_id=zz"), Err(SpecErrorKind::BadValue));
    assert!(with_weights("alphabeta:eval=net,weights=w.json").is_err());
    assert_eq!(
        kind("alphabeta:weights=no/such/file.json"),
        Err(SpecErrorKind::Weights)
    );
    // The record's weights source says when it has none, in words.
    let none = AgentSpec::parse_with_weights("alphabeta:weights=w.json", &|_| {
        Err(WeightsError::NotRecorded)
    })
    .unwrap_err();
    assert!(
        none.reason
            .ends_with("weights file w.json: no weights recorded for it"),
        "{}",
        none.reason
    );
}

#[test]
fn with_number_sets_options_and_weights_and_checks_them() {
    let base = AgentSpec::parse("mcts:iters=100,c=1.4").unwrap();
    let AgentSpec::Mcts(m) = base.with_number("c", 0.7).unwrap() else {
        panic!("still mcts")
    };
    assert_eq!(m.c, 0.7);
    let AgentSpec::Mcts(m) = base.with_number("playout", 19.6).unwrap() else {
        panic!("still mcts")
    };
    assert_eq!(m.playout_cap, Some(20), "whole-number options are rounded");
    let AgentSpec::Mcts(m) = base.with_number("w.material", 2.5).unwrap() else {
        panic!("still mcts")
    };
    assert_eq!(m.eval.overrides.get("material"), Some(&2.5));
    assert_eq!(
        base.with_number("cc", 1.0).unwrap_err().kind,
        SpecErrorKind::UnknownKey
    );
    assert_eq!(
        base.with_number("policy", 1.0).unwrap_err().kind,
        SpecErrorKind::UnknownKey
    );
    assert!(
        base.with_number("rave_grow", 5.0).is_err(),
        "rave_grow needs rave"
    );
    assert!(base.with_number("c", -1.0).is_err());
    let ab = AgentSpec::parse("alphabeta:depth=3").unwrap();
    let AgentSpec::AlphaBeta(a) = ab.with_number("depth", 1.8).unwrap() else {
        panic!("still alphabeta")
    };
    assert_eq!(a.depth, 2);
}

#[test]
fn setting_a_named_term_refuses_what_parsing_refuses_in_the_same_words() {
    let base = AgentSpec::parse("mcts:know.shape=0.3").unwrap();
    for (key, value) in [
        ("know.shape", f64::INFINITY),
        ("know.", 1.0),
        ("roll.shape", f64::NAN),
        ("prob.shape", 0.0),
        ("prob.shape", f64::INFINITY),
    ] {
        let set = base.set(key, value).unwrap_err();
        let parsed = AgentSpec::parse(&format!("mcts:{key}={value}"));
        assert_eq!(set.reason, parsed.unwrap_err().reason, "{key}={value}");
    }
    let AgentSpec::Mcts(s) = base.set("know.bridge", -0.5).unwrap() else {
        panic!("still mcts")
    };
    assert_eq!(s.know_terms.get("bridge"), Some(&-0.5));
    assert_eq!(s.know_terms.get("shape"), Some(&0.3));
    // A set term is checked with the rest of the spec, as a parsed one is.
    let tree = AgentSpec::parse("mcts:threads=2,parallel=tree").unwrap();
    assert!(tree.set("roll.shape", 1.0).is_err());
    assert!(AgentSpec::parse("mcts:threads=2,parallel=tree,roll.shape=1").is_err());
}
