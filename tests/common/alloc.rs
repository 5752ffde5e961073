//! The one counting allocator of the test binaries.
//!
//! A test binary that wants to measure allocations installs it:
//!
//! ```ignore
//! mod common;
//! #[global_allocator]
//! static ALLOC: common::alloc::Counting = common::alloc::Counting;
//! ```
//!
//! then measures a closure with [`measure`]. Counts are kept per thread while a
//! measurement is running, since cargo runs the tests of a binary in parallel threads:
//! a test sees its own allocations only. [`largest_ever`] is the one process-wide
//! figure: the largest single allocation made by any thread since the binary started.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the current thread allocated while a closure ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Number of allocations and reallocations.
    pub count: usize,
    /// Size in bytes of the largest single allocation (or reallocation's new size).
    pub peak: usize,
}

/// A [`GlobalAlloc`] over [`System`] that counts; install it with `#[global_allocator]`.
pub struct Counting;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static STATS: Cell<Stats> = const { Cell::new(Stats { count: 0, peak: 0 }) };
}

static LARGEST_EVER: AtomicUsize = AtomicUsize::new(0);

fn note(size: usize) {
    LARGEST_EVER.fetch_max(size, Ordering::Relaxed);
    // `try_with`: the allocator may run while this thread's locals are torn down.
    let _ = ARMED.try_with(|armed| {
        if armed.get() {
            let _ = STATS.try_with(|stats| {
                let s = stats.get();
                stats.set(Stats {
                    count: s.count + 1,
                    peak: s.peak.max(size),
                });
            });
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with what this thread allocated meanwhile.
/// Measurements nest: an outer one also counts what an inner one saw.
///
/// Only meaningful in a binary that installs [`Counting`]; elsewhere the stats stay 0.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Stats) {
    let was_armed = ARMED.with(|a| a.replace(true));
    let outer = STATS.with(|s| s.replace(Stats::default()));
    let value = f();
    let inner = STATS.with(Cell::get);
    ARMED.with(|a| a.set(was_armed));
    let restored = if was_armed {
        Stats {
            count: outer.count + inner.count,
            peak: outer.peak.max(inner.peak),
        }
    } else {
        outer
    };
    STATS.with(|s| s.set(restored));
    (value, inner)
}

/// The largest single allocation made by any thread since the binary started.
pub fn largest_ever() -> usize {
    LARGEST_EVER.load(Ordering::Relaxed)
}

/// The value `f` returns and the largest single allocation this thread made meanwhile.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (value, stats) = measure(f);
    (value, stats.peak)
}
