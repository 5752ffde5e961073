//! A pool of byte buffers shared by the writer's threads: a fixed number, taken (waiting
//! while none is free) and handed back, so the memory in flight stays bounded and each
//! buffer's pages, mapped once, serve chunk after chunk. A pool closed (a thread that
//! hands buffers back is gone) waits for none: it gives new, empty buffers.

use std::sync::{Condvar, Mutex, PoisonError};
use std::vec::Vec;

/// The buffers of one kind, taken and handed back.
pub(super) struct Pool {
    free: Mutex<(Vec<Vec<u8>>, bool)>,
    ready: Condvar,
}

impl Pool {
    pub(super) fn new(n: usize) -> Pool {
        Pool {
            free: Mutex::new(((0..n).map(|_| Vec::new()).collect(), false)),
            ready: Condvar::new(),
        }
    }

    pub(super) fn take(&self) -> Vec<u8> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            match free.0.pop() {
                Some(buffer) => return buffer,
                None if free.1 => return Vec::new(),
                None => {}
            }
            free = self
                .ready
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    pub(super) fn put(&self, buffer: Vec<u8>) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        free.0.push(buffer);
        self.ready.notify_one();
    }

    /// No buffer will be handed back: no one waits for one.
    pub(super) fn close(&self) {
        self.free.lock().unwrap_or_else(PoisonError::into_inner).1 = true;
        self.ready.notify_all();
    }
}
