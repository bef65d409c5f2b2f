//! The allocator: the base one (the system's; mimalloc in the musl
//! build, whose own is slow), with an arena a warm project load switches
//! on while it decodes the project cache and builds the index (behaviour
//! §5.1, "Rule changes").
//!
//! Why: a warm 10,000-rule load makes some 130,000 small allocations
//! that live until the process ends (the project is never freed, see
//! `project_cache::load`). Through glibc's `malloc` they were a quarter of
//! the run's instructions, each with its own header and rounding; from
//! the arena each is an addition, packed one after another. No library
//! does this: a bump allocator crate hands out its own handles, not the
//! process's allocations, and a whole allocator (mimalloc was measured)
//! costs more memory and more start-up than it saves here.
//!
//! The arena is one block taken from the base allocator, sized from the
//! cache, so its untouched pages cost nothing. Freeing in it does nothing;
//! growing copies into a new place; a block larger than [`SMALL`] (a
//! vector that keeps growing) and anything asked once the arena is full
//! or switched off go to the base allocator, as does freeing them.

use std::alloc::{GlobalAlloc, Layout};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The process's allocator: the base one, with the arena when it is on.
pub(crate) struct Allocator;

/// musl's allocator is slow for the many small allocations of parsing and
/// matching; the glibc builds keep the system's.
#[cfg(target_env = "musl")]
static BASE: mimalloc::MiMalloc = mimalloc::MiMalloc;
#[cfg(not(target_env = "musl"))]
static BASE: std::alloc::System = std::alloc::System;

/// The arena's addresses, `[START, END)`, and the next free one; all zero
/// before it is made. `LIMIT` is where allocation stops: `END` while the
/// arena is on, `START` once it is off (blocks in it are still known and
/// never handed to the base allocator).
static START: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
static NEXT: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(0);

/// Blocks up to this size come from the arena while it is on. A larger one
/// is a buffer or a vector still growing: from the base allocator it can
/// grow in place and be given back.
const SMALL: usize = 16 * 1024;

/// Switches the arena on with room for `bytes`, for the rest of the process
/// or until [`off`]. Made once: a second call, or a block the base
/// allocator cannot give, leaves the allocator as it is.
pub(crate) fn on(bytes: usize) {
    if START.load(Relaxed) != 0 {
        return;
    }
    let Ok(layout) = Layout::from_size_align(bytes.max(1), 64) else {
        return;
    };
    // SAFETY: the layout's size is not zero.
    let block = unsafe { BASE.alloc(layout) } as usize;
    if block == 0 {
        return;
    }
    START.store(block, Relaxed);
    END.store(block + layout.size(), Relaxed);
    NEXT.store(block, Relaxed);
    LIMIT.store(block + layout.size(), Relaxed);
}

/// Switches the arena off: later allocations go to the base allocator.
/// What was allocated in it stays valid.
pub(crate) fn off() {
    LIMIT.store(START.load(Relaxed), Relaxed);
}

/// A block from the arena, or `None` when it is off, full, or the block
/// is not small.
fn bump(layout: Layout) -> Option<*mut u8> {
    if layout.size() > SMALL {
        return None;
    }
    let limit = LIMIT.load(Relaxed);
    let mut next = NEXT.load(Relaxed);
    loop {
        // Alignments are powers of two.
        let start = next.checked_add(layout.align() - 1)? & !(layout.align() - 1);
        let end = start.checked_add(layout.size())?;
        if end > limit {
            return None;
        }
        match NEXT.compare_exchange_weak(next, end, Relaxed, Relaxed) {
            Ok(_) => return Some(start as *mut u8),
            Err(moved) => next = moved,
        }
    }
}

fn in_arena(block: *mut u8) -> bool {
    let at = block as usize;
    at >= START.load(Relaxed) && at < END.load(Relaxed)
}

// SAFETY: every block handed out is either the base allocator's, for
// `layout`, or an unshared range of the arena of `layout`'s size and
// alignment (the bump above never hands out an address twice); a block is
// given back to the base allocator only if it came from it.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match bump(layout) {
            Some(block) => block,
            None => unsafe { BASE.alloc(layout) },
        }
    }

    // The base allocator's zeroed blocks (a large one is fresh pages,
    // already zero), not a block written over with zeros.
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match bump(layout) {
            // SAFETY: the block is `layout.size()` bytes, unshared.
            Some(block) => unsafe {
                ptr::write_bytes(block, 0, layout.size());
                block
            },
            None => unsafe { BASE.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !in_arena(block) {
            unsafe { BASE.dealloc(block, layout) }
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !in_arena(block) {
            return unsafe { BASE.realloc(block, layout, new_size) };
        }
        // SAFETY: the caller keeps `new_size` valid for `layout`'s alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            // SAFETY: both blocks hold at least the smaller size and are
            // distinct (the new one is fresh).
            unsafe { ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size)) };
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The test binary's allocator is this one too: other tests' threads may
    // take blocks from the arena while this one has it on.
    #[test]
    fn blocks_are_aligned_distinct_and_the_arena_stops_when_off_or_full() {
        const ROOM: usize = 64 * 1024;
        on(ROOM);
        let small = Layout::from_size_align(24, 8).unwrap();
        let wide = Layout::from_size_align(64, 64).unwrap();
        let a = bump(small).unwrap() as usize;
        let b = bump(wide).unwrap() as usize;
        assert!(in_arena(a as *mut u8) && in_arena(b as *mut u8));
        assert_eq!(b % 64, 0, "aligned");
        assert!(b >= a + 24, "after the first block");
        assert!(bump(Layout::from_size_align(SMALL + 1, 8).unwrap()).is_none());
        // Full: what does not fit goes elsewhere.
        let blocks = std::iter::from_fn(|| bump(small)).take(ROOM).count();
        assert!(blocks < ROOM / 24, "stopped when full, after {blocks}");
        off();
        assert!(bump(small).is_none(), "off");
        assert!(in_arena(a as *mut u8), "its blocks are still known");
        assert!(!in_arena(std::ptr::null_mut()));
    }
}
