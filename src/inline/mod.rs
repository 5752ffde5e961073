//! The containers of the metalayer types: [`Dims`] keeps up to 16 entries inline (the
//! format's limit, as C keeps `int64_t shape[B2ND_MAX_DIM]`) and [`SmallString`] keeps a
//! short dtype inline, so that decoding an ordinary metalayer allocates nothing. Both
//! read like a `Vec`/`String`: slices through `Deref`, built with `From`/`collect`,
//! compared with slices, arrays and vectors, and serialized as sequences and strings.

mod dims;
mod small_string;

pub use dims::Dims;
pub use small_string::SmallString;
