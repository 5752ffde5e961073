//! Writing new arrays: (so far) the chunk and block shapes python-blosc2 chooses.

mod defaults;

pub use defaults::{chunks_and_blocks, Caches, DefaultsError, Platform};
