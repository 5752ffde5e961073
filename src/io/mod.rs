//! Bytes in: the one source trait every reader of the crate reads through, [`ReadAt`]
//! (bytes read at an offset, as `pread` reads a file), and its sources: files, bytes in
//! memory, a [`Window`] (a byte range of another source: a zip member, a frame inside
//! a store), a reader read once from its start, and a source whose first and last KiB
//! are read once.
//!
//! ```
//! use b2nd_meta::io::{ReadAt, Window};
//! use std::sync::Arc;
//!
//! let file: Arc<dyn ReadAt + Send + Sync> = Arc::new(b"xxhello".to_vec());
//! let window = Window::new(file, 2, 5);
//! let mut buf = [0u8; 8];
//! assert_eq!(window.read_at(&mut buf, 1)?, 4);
//! assert_eq!(&buf[..4], b"ello");
//! # Ok::<(), std::io::Error>(())
//! ```

mod file;
mod memory;
mod out_file;
mod prefetch;
mod read_at;
mod staged;
mod steps;
mod storage;
mod stream;
mod window;
mod write_at;

pub(crate) use file::{special_file, write_all_at};
pub use out_file::{OutFile, OutOptions};
pub(crate) use prefetch::Prefetch;
pub(crate) use read_at::{read_exact_at, read_full_at, read_vec_at};
pub use read_at::{ReadAt, SharedSource};
pub use staged::is_staging_name;
pub(crate) use staged::{sweep_if_stale, Existing, Out, Staging};
#[doc(hidden)]
pub use steps::Steps;
pub(crate) use steps::Unsynced;
pub(crate) use storage::{list_keys, read_only};
pub use storage::{DirStorage, Listed, MemoryStorage, NotRegular, Storage};
pub(crate) use stream::Stream;
pub use window::Window;
pub use write_at::WriteAt;
