//! Agents of the embedding program (`host:name=NAME`): registered, built, told the game,
//! refused when unknown, and faulted when they answer nonsense.

use std::any::Any;
use std::sync::{Arc, Mutex};

use ringside_agents::host::{self, HostAgent};
use ringside_agents::{Agent, AgentFault, AgentSpec, FaultKind, SpecErrorKind};
use ringside_engine::games::rin::Rin;
use ringside_engine::{Game, seeded_rng};

/// Plays the legal move with the highest number, after checking that `start` then `moves`
/// is `state`; records what it was told.
struct Highest {
    told: Arc<Mutex<Vec<(usize, u64)>>>,
    seed: u64,
}

impl HostAgent for Highest {
    fn choose(
        &mut self,
        start: &dyn Any,
        moves: &[usize],
        state: &dyn Any,
    ) -> Result<usize, AgentFault> {
        let start = start.downcast_ref::<Rin>().expect("a Rin start");
        let state = state.downcast_ref::<Rin>().expect("a Rin state");
        let mut replayed = *start;
        for &action in moves {
            let mut legal = Vec::new();
            replayed.legal_moves(&mut legal);
            let mv = legal
                .into_iter()
                .find(|&m| replayed.move_index(m) == action)
                .expect("every move told is legal in turn");
            replayed.play(mv);
        }
        assert_eq!(replayed.spec(), state.spec());
        assert_eq!(replayed.hash(), state.hash());
        self.told.lock().unwrap().push((moves.len(), self.seed));
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        Ok(legal.iter().map(|&m| state.move_index(m)).max().unwrap())
    }
}

/// Answers a number no move has.
struct Nonsense;

impl HostAgent for Nonsense {
    fn choose(&mut self, _: &dyn Any, _: &[usize], _: &dyn Any) -> Result<usize, AgentFault> {
        Ok(usize::MAX)
    }
}

#[test]
fn a_registered_host_agent_is_told_the_game_and_its_move_is_played() {
    let told = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&told);
    host::register(
        "highest-test",
        Arc::new(move |seed| {
            Box::new(Highest {
                told: Arc::clone(&sink),
                seed,
            }) as Box<dyn HostAgent>
        }),
    )
    .unwrap();
    let spec = AgentSpec::parse("host:name=highest-test").unwrap();
    assert_eq!(spec.to_string(), "host:name=highest-test");
    assert!(!spec.chooses_listed_moves() && spec.uses_time());
    let start = Rin::new(6).unwrap();
    let mut agent = spec.build(&start, 77).unwrap();
    // A play loop tells it every move; the random player has nothing to hear.
    assert!(agent.observes());
    assert!(!AgentSpec::Random.build(&start, 77).unwrap().observes());
    // Three opening moves heard, then a decision: the move with the highest number.
    let mut state = start;
    let mut rng = seeded_rng(5, 0);
    let mut scratch = Vec::new();
    for _ in 0..3 {
        let mv = state.random_move(&mut rng, &mut scratch).unwrap();
        agent.observe(&state, mv);
        state.play(mv);
    }
    let d = agent.try_choose(&state).unwrap();
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let highest = legal.iter().map(|&m| state.move_index(m)).max().unwrap();
    assert_eq!(state.move_index(d.mv), highest);
    assert_eq!(*told.lock().unwrap(), vec![(3, 77)]);
    host::unregister("highest-test");
    let err = AgentSpec::parse("host:name=highest-test")
        .unwrap()
        .build(&start, 1)
        .unwrap_err();
    assert_eq!(err.kind, SpecErrorKind::UnknownAgent);
    assert!(
        err.reason.contains("no agent named 'highest-test'"),
        "{err}"
    );
}

#[test]
fn a_host_agent_that_names_no_legal_move_loses_by_an_illegal_move() {
    host::register(
        "nonsense-test",
        Arc::new(|_| Box::new(Nonsense) as Box<dyn HostAgent>),
    )
    .unwrap();
    let start = Rin::new(6).unwrap();
    let mut agent = AgentSpec::parse("host:name=nonsense-test")
        .unwrap()
        .build(&start, 1)
        .unwrap();
    let fault = agent.try_choose(&start).unwrap_err();
    assert_eq!(fault.kind, FaultKind::IllegalMove);
    host::unregister("nonsense-test");
}

#[test]
fn names_are_plain_words_and_unique() {
    let factory = || Arc::new(|_| Box::new(Nonsense) as Box<dyn HostAgent>);
    let err = host::register("a,b", factory()).unwrap_err();
    assert_eq!(err, host::RegisterError::NotAName("a,b".into()));
    assert!(err.to_string().contains("not a name"));
    assert!(host::register("", factory()).is_err());
    host::register("twice-test", factory()).unwrap();
    let err = host::register("twice-test", factory()).unwrap_err();
    assert_eq!(err, host::RegisterError::Taken("twice-test".into()));
    assert!(err.to_string().contains("registered already"));
    host::unregister("twice-test");
    host::register("twice-test", factory()).unwrap();
    host::unregister("twice-test");
    let err = AgentSpec::parse("host:who=x").unwrap_err();
    assert!(err.to_string().contains("name=NAME is required"), "{err}");
}
