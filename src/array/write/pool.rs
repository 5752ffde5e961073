//! A pool of byte buffers shared by the writer's threads: a fixed number, taken (waiting
//! while none is free) and handed back, so the memory in flight stays bounded and each
//! buffer's pages, mapped once, serve chunk after chunk.

use std::sync::{Condvar, Mutex, PoisonError};
use std::vec::Vec;

/// The buffers of one kind, taken and handed back.
pub(super) struct Pool {
    free: Mutex<Vec<Vec<u8>>>,
    ready: Condvar,
}

impl Pool {
    pub(super) fn new(n: usize) -> Pool {
        Pool {
            free: Mutex::new((0..n).map(|_| Vec::new()).collect()),
            ready: Condvar::new(),
        }
    }

    pub(super) fn take(&self) -> Vec<u8> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(buffer) = free.pop() {
                return buffer;
            }
            free = self
                .ready
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    pub(super) fn put(&self, buffer: Vec<u8>) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        free.push(buffer);
        self.ready.notify_one();
    }
}
