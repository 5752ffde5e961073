//! The metalayer format, a serde data format in one room: the serializer ([`ser`]) and
//! deserializer ([`de`]), its one error ([`error`]), the layouts and where each element
//! sits ([`layout`]), the one direct writer ([`encode`]) and the checked zero-copy view
//! ([`view`]), the typed metalayers ([`structs`]) and [`Meta`], any of them ([`any`]),
//! their serde impls ([`serde_impls`]), one place that maps a `dtype_format` to a dtype
//! model ([`dtype_format`]), the containers that keep an ordinary metalayer inline
//! ([`Dims`], [`SmallString`]), what the values mean ([`validate`]), and the adapter that
//! carries exact metalayer bytes through other serde formats ([`bytes`]).
//!
//! [`Dims`] keeps up to 16 entries inline (the format's limit, as C keeps
//! `int64_t shape[B2ND_MAX_DIM]`) and [`SmallString`] keeps a short dtype inline, so that
//! decoding an ordinary metalayer allocates nothing. Both read like a `Vec`/`String`:
//! slices through `Deref`, built with `From`/`collect`, compared with slices, arrays and
//! vectors, and serialized as sequences and strings.

pub(crate) mod any;
pub mod bytes;
pub(crate) mod de;
mod dims;
pub(crate) mod dtype_format;
pub(crate) mod encode;
pub(crate) mod error;
pub(crate) mod layout;
pub(crate) mod ser;
pub(crate) mod serde_impls;
mod shapes;
mod small_string;
pub(crate) mod structs;
pub mod validate;
pub(crate) mod view;

pub use any::Meta;
pub use dims::Dims;
pub use dtype_format::DTYPE_FORMAT_NUMPY;
pub use layout::{Layout, MAX_DIM, MAX_DTYPE_FORMAT, VERSION};
pub use shapes::Shapes;
pub use small_string::SmallString;
pub use structs::{MetaB2nd, MetaB2ndV1, MetaV0Caterva};
pub use view::{Entries, MetaRef};
