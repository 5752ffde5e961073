//! Writing new arrays that python-blosc2 and C-Blosc2 open: [`NewArray`] says what the
//! array is (shape, dtype, chunks and blocks, codec, level, filters, split mode, user
//! metalayers, vlmeta) and where it goes (a contiguous `.b2nd` file or a sparse frame's
//! directory); [`ArrayWriter`] takes its elements in C order, all at once or in pieces
//! with bounded memory, compresses the chunks in parallel, and puts the frame in place
//! crash-consistently. [`chunks_and_blocks`] gives the shapes python-blosc2 chooses when
//! none are given.
//!
//! The frame is C-Blosc2 3.3's (`b2nd_from_cbuffer` into a new frame): its header
//! (`new_header_frame`), chunks as `blosc2_compress_ctx` writes them, all-zero chunks
//! indexed as zeros without being stored, the offsets chunk and the trailer of
//! `frame_append_chunk` and `frame_update_trailer`.
//!
//! ```
//! use b2nd_meta::array::{write::NewArray, Array, Selection};
//!
//! let path = std::env::temp_dir().join(format!("b2nd-meta-write-doc-{}.b2nd", std::process::id()));
//! let values: Vec<u16> = (0..600).collect();
//! NewArray::new(&[20, 30], "<u2")?.overwrite(true).write_typed(&path, &values)?;
//! let back: Vec<u16> = Array::open(&path)?.read(&Selection::all())?;
//! assert_eq!(back, values);
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod caches;
mod defaults;
mod gather;
mod into_store;
mod layout;
mod options;
mod pipeline;
pub(crate) mod pipeline_check;
mod pool;
mod workers;
mod writer;

pub use defaults::{chunks_and_blocks, Caches, DefaultsError, Platform};
pub use options::NewArray;
pub use writer::ArrayWriter;
