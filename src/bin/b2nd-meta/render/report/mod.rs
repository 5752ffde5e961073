//! What `show` prints about a frame, as data: a [`Report`] of a frame (a file, or a
//! store's node) serializes to the JSON `show` prints (keys in this order: `path`,
//! (`path_bytes_hex`), `frame`, `metalayers`, `vlmeta`, (`vlmeta_error`), (`array`)),
//! and `--human` renders it (`render::human`).

mod array;
mod frame;
mod hex;
mod metalayers;
mod options;
mod pipeline;
mod vlmeta;

pub use array::DtypeReport;
pub use frame::Report;
pub use metalayers::{MetalayerReport, RawContent};
pub use options::Options;
pub use pipeline::Pipeline;
pub use vlmeta::{Vlmeta, VlmetaReport};
