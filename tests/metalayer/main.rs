//! Tests for the metalayer format: golden vectors and every error, against C-Blosc2
//! itself and against the real metalayers of the corpus; the checked view, validation,
//! the serde adapter, the annotated snapshots; properties, sweeps and allocation bounds.
//!
//! One module per concern, declared below; `crate::common` is `tests/common` and
//! `crate::c_ffi` the C-Blosc2 declarations of `tests/c_ffi`.

#[path = "../c_ffi/mod.rs"]
mod c_ffi;
#[path = "../common/mod.rs"]
mod common;

mod alloc_bounds;
mod bytes_adapter;
mod c_blosc2;
mod corpus;
mod errors;
mod golden;
mod properties;
mod snapshots;
mod sweeps;
mod validate;
mod view;
