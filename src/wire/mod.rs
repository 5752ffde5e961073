//! The byte layer: msgpack as this crate meets it, with no serde: the one marker table
//! ([`marker`]), the one reader ([`read`]) and the one writer ([`write`](mod@write)). Every read
//! error carries the offset of the offending value.

mod error;
pub(crate) mod marker;
pub(crate) mod read;
pub(crate) mod write;

pub use error::{Expected, Found};
pub(crate) use error::{ReadError, ReadErrorKind};
