//! Network evaluations (issue 45): `arena tune net` trains a net from recorded games that the
//! agents play with `eval=net,net=FILE`; a run records the net by content and refuses a file
//! that changed; a net that starts as the linear evaluation plays as it; bad input is one line
//! and exit code 2.

use crate::common;

use common::{ok, path, refused, scratch, text};
use ringside_agents::{AgentSpec, Evaluator};
use ringside_engine::Game;
use ringside_engine::games::rin::Rin;

/// Self-play of alpha-beta with the rich weights on Rin 6, `games` games, into `dir/g.csv`.
fn self_play(dir: &std::path::Path, games: u32) -> std::path::PathBuf {
    let file = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "alphabeta:depth=1,eval=rich",
        "alphabeta:depth=1,eval=rich",
        "--games",
        &games.to_string(),
        "--opening-plies",
        "4",
        "--out",
        path(&file),
    ]);
    file
}

#[test]
fn a_trained_net_is_written_with_its_record_and_plays_in_a_match_named_by_content() {
    let dir = scratch("net-train");
    let games = self_play(&dir, 30);
    let out = dir.join("net");
    let run = ok(&[
        "tune",
        "net",
        path(&games),
        "--out",
        path(&out),
        "--hidden",
        "8",
        "--epochs",
        "3",
        "--children",
        "2",
        // Thirty games may teach three epochs nothing the held-out games show; the record is
        // what is tested here.
        "--write-anyway",
        "--quiet",
    ]);
    let stdout = text(&run.stdout);
    assert!(stdout.contains("positions=") && stdout.contains("linear_validation_loss="));
    for file in ["net.rsnet", "tune.csv", "summary.md", "losses.svg"] {
        assert!(out.join(file).exists(), "{file}");
    }
    let csv = std::fs::read_to_string(out.join("tune.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        1 + 1 + 3,
        "header, the start and 3 epochs"
    );
    let bytes = std::fs::read(out.join("net.rsnet")).unwrap();
    let id = format!("{:016x}", ringside_agents::net::content_id(&bytes));
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains(&id),
        "the summary names the net by content"
    );
    // By default games are held out by distinct game, and a tenth for a test scored once.
    assert!(
        summary.contains("distinct games (every copy of a game on one side)"),
        "{summary}"
    );
    assert!(summary.contains("10% for the test"), "{summary}");
    assert!(summary.contains("**The test**"), "{summary}");

    let spec = format!(
        "alphabeta:depth=1,eval=net,net={}",
        path(&out.join("net.rsnet"))
    );
    let played = dir.join("m.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        &spec,
        "random",
        "--games",
        "2",
        "--out",
        path(&played),
    ]);
    let rows = std::fs::read_to_string(&played).unwrap();
    assert!(rows.contains(&format!("net_id={id}")), "{rows}");

    // The same file with other content is refused when the run is summarised again.
    let mut changed = bytes.clone();
    let last = changed.len() - 1;
    changed[last] ^= 1;
    std::fs::write(out.join("net.rsnet"), &changed).unwrap();
    refused(&["summary", path(&played)], "the file changed since");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_net_started_as_the_linear_evaluation_evaluates_as_it() {
    let dir = scratch("net-linear");
    let games = self_play(&dir, 8);
    let out = dir.join("net");
    ok(&[
        "tune",
        "net",
        path(&games),
        "--out",
        path(&out),
        "--features",
        "--epochs",
        "0",
        "--split",
        "id",
        "--test",
        "0",
        "--quiet",
    ]);
    let file = out.join("net.rsnet");
    let net = AgentSpec::parse(&format!("alphabeta:eval=net,net={}", path(&file))).unwrap();
    let tuned = AgentSpec::parse("alphabeta:eval=tuned").unwrap();
    let (AgentSpec::AlphaBeta(net), AgentSpec::AlphaBeta(tuned)) = (net, tuned) else {
        panic!("alpha-beta")
    };
    let rin = Rin::new(6).unwrap();
    let (net, tuned) = (
        Evaluator::new(&net.eval, &rin).unwrap(),
        Evaluator::new(&tuned.eval, &rin).unwrap(),
    );
    let (mut state, mut rng, mut scratch) = (rin, ringside_engine::seeded_rng(2, 0), Vec::new());
    let mut checked = 0;
    while let Some(mover) = state.to_move() {
        let (a, b) = (net.evaluate(&state, mover), tuned.evaluate(&state, mover));
        assert!((a - b).abs() < 1e-4 * (1.0 + b.abs()), "{a} against {b}");
        checked += 1;
        let mv = state.random_move(&mut rng, &mut scratch).unwrap();
        state.play(mv);
    }
    assert!(checked > 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_net_without_a_shipped_net_or_with_a_broken_file_is_one_line_and_exit_2() {
    let dir = scratch("net-bad");
    let bad = dir.join("bad.rsnet");
    std::fs::write(&bad, b"not a net").unwrap();
    let spec = format!("alphabeta:eval=net,net={}", path(&bad));
    let out = path(&dir.join("m.csv")).to_string();
    refused(
        &[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            &spec,
            "random",
            "--out",
            &out,
        ],
        "not a Ringside net",
    );
    refused(
        &[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "alphabeta:eval=net",
            "random",
            "--out",
            &out,
        ],
        "has no shipped net",
    );
    refused(
        &[
            "match",
            "--game",
            "rin:size=6",
            "--agents",
            "alphabeta:eval=net,w.material=2",
            "random",
            "--out",
            &out,
        ],
        "a net has no feature weights",
    );
    let games = self_play(&dir, 4);
    refused(
        &[
            "tune",
            "net",
            path(&games),
            "--out",
            path(&dir.join("n")),
            "--loss",
            "cubic",
        ],
        "--loss must be chance or logit",
    );
    // The library names each setting in words; the binary names the flag the user typed.
    let out_dir = path(&dir.join("n")).to_string();
    for (flags, expected) in [
        (&["--hidden", "0"][..], "--hidden must be from 1 to"),
        (
            &["--rate", "0"][..],
            "--rate must be a positive number, not 0",
        ),
        (&["--batch", "0"][..], "--batch must be at least 1"),
        (
            &["--eval", "net"][..],
            "--eval must be material, rich or tuned",
        ),
        (
            &["--leaf-depth", "0", "--children", "4"][..],
            "--leaf-depth: searching children",
        ),
        (
            &["--validation", "0"][..],
            "no validation positions (--validation 0",
        ),
    ] {
        let mut args = vec!["tune", "net", path(&games), "--out", &out_dir];
        args.extend_from_slice(flags);
        refused(&args, expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_net_training_that_learned_nothing_exits_2_and_writes_nothing_unless_asked() {
    let dir = scratch("net-nothing");
    let games = self_play(&dir, 6);
    let out = dir.join("n");
    // Six games of Rin with material: nothing the validation loss can show (split by id:
    // the deterministic self-play repeats its games, which a split by distinct game would
    // keep all on one side).
    let args = [
        "tune",
        "net",
        path(&games),
        "--out",
        path(&out),
        "--eval",
        "material",
        "--split",
        "id",
        "--test",
        "0",
    ];
    let line = refused(&args, "nothing to learn: ");
    assert!(line.contains("--write-anyway"), "{line}");
    assert!(!out.exists(), "nothing written");
    let mut anyway = args.to_vec();
    anyway.extend(["--write-anyway", "--epochs", "1", "--quiet"]);
    ok(&anyway);
    assert!(out.join("net.rsnet").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shipped_nets_spec_without_an_id_reads_back_and_other_specs_are_unchanged() {
    let spec = AgentSpec::parse("mcts:iters=10,eval=net").unwrap();
    assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
    let rin = Rin::new(6).unwrap();
    // Rin ships no net: nothing to name, and the spec is left as it is.
    assert_eq!(spec.spell_out_weights(&rin), spec);
    assert!(rin.spec().starts_with("rin"));
}

#[test]
fn a_recorded_net_whose_file_is_missing_is_found_by_content_among_the_shipped_nets() {
    use ringside_engine::Features;
    use ringside_engine::games::hexxagon::Hexxagon;
    let game = Hexxagon::new(5).unwrap();
    let id = ringside_agents::net::content_id(game.shipped_net().unwrap());
    let spec = format!("alphabeta:eval=net,net=no/such/file.rsnet,net_id={id:016x}");
    let parsed = AgentSpec::parse(&spec).unwrap();
    assert_eq!(
        parsed.to_string(),
        format!(
            "alphabeta:depth=3,eval=net,net=no/such/file.rsnet,net_id={id:016x},score=win,tt_bits=16"
        )
    );
    let AgentSpec::AlphaBeta(ab) = &parsed else {
        panic!("alpha-beta")
    };
    assert!(
        Evaluator::new(&ab.eval, &game).is_ok(),
        "the shipped net has that content"
    );
    let other =
        AgentSpec::parse("alphabeta:eval=net,net=no/such/file.rsnet,net_id=0000000000000001")
            .unwrap();
    let AgentSpec::AlphaBeta(ab) = &other else {
        panic!("alpha-beta")
    };
    let err = Evaluator::new(&ab.eval, &game).unwrap_err().reason;
    assert!(
        err.contains("no/such/file.rsnet") && err.contains("cannot be read here"),
        "{err}"
    );
    // Without a recorded id a missing file is refused at once.
    assert!(AgentSpec::parse("alphabeta:eval=net,net=no/such/file.rsnet").is_err());
}

#[test]
fn a_net_or_weights_file_that_is_a_fifo_is_refused_at_once_not_waited_on() {
    let dir = scratch("net-fifo");
    let fifo = dir.join("net.rsnet");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo makes the FIFO");
    for agent in [
        format!("alphabeta:depth=1,eval=net,net={}", path(&fifo)),
        format!("alphabeta:depth=1,weights={}", path(&fifo)),
    ] {
        refused(
            &["think", "--game", "rin:size=6", "--agent", &agent],
            "not a regular file",
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
