//! Bytes in: the sources the frame, vlmeta and container readers read through.

mod read_at;
mod source;

pub use read_at::ReadAt;
pub(crate) use read_at::{seek_in, Prefetch, Window};
pub(crate) use source::{Positional, Sequential, SliceSource, Source};
