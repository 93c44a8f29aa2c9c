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
