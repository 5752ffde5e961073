//! Every file python-blosc2 4.x keeps arrays in: say what it is, and list the nodes
//! inside stores and bundles, reading only their index and each node's header and
//! trailer, never their data.
//!
//! [`open`] takes a path (a frame file, a sparse frame's directory, a `.b2e`
//! EmbedStore, a `.b2d` directory or a `.b2z` zip of a DictStore or a TreeStore);
//! a [`Source::bytes`](crate::frame::Source::bytes) is a frame or a zip in memory, and
//! [`open_source`] one at a byte range of a [`ReadAt`](crate::io::ReadAt). Stores are recognised as python-blosc2's `blosc2.open` does:
//! by the marker metalayer of their EmbedStore (`b2remote_store`, `b2embed`, `b2dict`,
//! `b2tree`), the marker winning over the suffix; a single frame by its metalayers in
//! `from_cframe`'s order ([`Kind::of_frame`]).
//!
//! ```
//! use b2nd_meta::container::{self, Kind};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
//! let store = container::open(path)?;
//! assert_eq!(store.kind, Kind::DictStore);
//! let keys: Vec<_> = store.entries().iter().map(|e| e.key.as_str()).collect();
//! assert_eq!(keys, ["/batches", "/dir1/big", "/dir1/dir2/sc", "/objs", "/tiny"]);
//! let big = store.entry_info(&store.entries()[1])?;
//! assert_eq!(big.kind, Kind::NDArray);
//! let array = big.array().unwrap();
//! assert_eq!((array.dtype_str().as_str(), array.shape()), ("<i8", &[200][..]));
//! # Ok::<(), container::ContainerError>(())
//! ```

mod embed;
mod embedded;
mod entry;
mod error;
mod kind;
mod node;
mod open;
mod opened;
mod sniff;
mod store;
mod tree;
mod write;
mod zip;

pub use entry::{Entry, EntryInfo, Role};
pub use error::{ContainerError, ContainerErrorKind};
pub use kind::Kind;
pub use node::{Location, Node, NodeInfo};
pub use open::{open, open_range, open_source};
pub use opened::Container;
pub use sniff::{sniff, Sniffed};
pub use store::{EMBED_NAME, LEAF_SUFFIXES};
pub use write::{StoreWriter, TREE_VLMETA_KEY};
