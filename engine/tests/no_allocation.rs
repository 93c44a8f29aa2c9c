//! Random playouts must not touch the heap once their scratch buffer exists.
//!
//! This test binary installs a global allocator that counts allocations, so it needs the one
//! `unsafe` block of the workspace (forwarding to the system allocator).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ringside_engine::registry::{GAMES, GameVisitor, with_game};
use ringside_engine::{Game, random_playout, seeded_rng};

struct Counting;

thread_local! {
    /// Allocations made by this thread: tests run in parallel, each counts only its own.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn count_one() {
    // `try_with` because the allocator also runs while thread-locals are torn down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by 50 random playouts after one warm-up playout.
struct PlayoutAllocations;

impl GameVisitor for PlayoutAllocations {
    type Output = u64;
    fn visit<G: Game + ringside_engine::Features>(self, start: G) -> u64 {
        let mut scratch = Vec::new();
        let mut rng = seeded_rng(5, 0);
        let cap = 2_000;
        // Warm up: the scratch buffer grows to the largest move list it meets.
        start.legal_moves(&mut scratch);
        scratch.reserve(4096);
        let mut state = start.clone();
        random_playout(&mut state, &mut rng, &mut scratch, cap);
        let before = allocations();
        for _ in 0..50 {
            let mut state = start.clone();
            random_playout(&mut state, &mut rng, &mut scratch, cap);
            std::hint::black_box(&state);
        }
        allocations() - before
    }
}

#[test]
fn random_playouts_of_every_game_do_not_allocate() {
    for info in GAMES {
        let allocations = with_game(info.name, PlayoutAllocations).unwrap();
        assert_eq!(
            allocations, 0,
            "{} playouts allocated {allocations} times",
            info.name
        );
    }
}

#[test]
fn the_counter_sees_allocations() {
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    assert!(allocations() > before);
    drop(v);
}

/// Allocations made by measuring the features of every position of a few random games, all
/// together and each alone; checks on the feature set itself, and that each feature read alone
/// ([`ringside_engine::Features::features_wanted`]) is the one read with the rest.
struct FeatureAllocations;

impl GameVisitor for FeatureAllocations {
    type Output = u64;
    fn visit<G: Game + ringside_engine::Features>(self, start: G) -> u64 {
        use ringside_engine::{MAX_FEATURES, Player};
        let set = start.feature_set();
        assert!(
            !set.is_empty() && set.len() <= MAX_FEATURES,
            "{}",
            start.name()
        );
        assert_eq!(set[0].name, "material", "{}: material first", start.name());
        let mut names: Vec<&str> = set.iter().map(|f| f.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            set.len(),
            "{}: feature names repeat",
            start.name()
        );
        let mut rng = seeded_rng(6, 0);
        let mut out = [0.0; MAX_FEATURES];
        let mut total = 0;
        let mut scratch = Vec::with_capacity(4096);
        for _ in 0..3 {
            let mut state = start.clone();
            let before = allocations();
            while state.outcome().is_none() && state.ply() < 300 {
                for p in [Player::ZERO, Player::ONE] {
                    state.features(p, &mut out);
                    assert!(out.iter().all(|v| v.is_finite()), "{}", start.name());
                    // Each feature read alone is the one read with the rest.
                    for i in 0..set.len() {
                        let mut alone = [f64::NAN; MAX_FEATURES];
                        state.features_wanted(p, 1 << i, &mut alone);
                        assert_eq!(alone[i], out[i], "{} {}", start.name(), set[i].name);
                    }
                }
                let mv = state
                    .random_move(&mut rng, &mut scratch)
                    .expect("the game is not over");
                state.play_unchecked(mv);
            }
            total += allocations() - before;
        }
        total
    }
}

#[test]
fn features_of_every_game_are_well_formed_the_same_read_alone_and_do_not_allocate() {
    for info in GAMES {
        let allocations = with_game(info.name, FeatureAllocations).unwrap();
        assert_eq!(
            allocations, 0,
            "{} features allocated {allocations} times",
            info.name
        );
    }
}
