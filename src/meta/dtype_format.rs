//! What a `dtype_format` says about the dtype string: the one place that maps the
//! format's number to a dtype model. C-Blosc2 defines one, NumPy's (0,
//! `DTYPE_NUMPY_FORMAT`), and so does python-blosc2; the draft `b2nd` layout, which has
//! no `dtype_format`, holds NumPy dtypes too. A dtype of another format is kept as it was
//! stored and not interpreted: a second format gets its model here.

use crate::dtype::{Dtype, DtypeError};

/// The `dtype_format` of NumPy dtype strings (C-Blosc2's `DTYPE_NUMPY_FORMAT`): the one
/// C-Blosc2 and python-blosc2 write, and the only one this crate interprets.
///
/// ```
/// use b2nd_meta::{MetaB2ndV1, DTYPE_FORMAT_NUMPY};
///
/// assert_eq!(MetaB2ndV1::new([3], [3], [3], "<i4").dtype_format, DTYPE_FORMAT_NUMPY);
/// ```
pub const DTYPE_FORMAT_NUMPY: u8 = 0;

/// The dtype `dtype` of format `dtype_format` in its model: parsed as NumPy's for
/// [`DTYPE_FORMAT_NUMPY`]; `None` for a format this crate does not interpret.
pub(crate) fn parse(dtype_format: u8, dtype: &str) -> Option<Result<Dtype, DtypeError>> {
    #[cfg(all(test, feature = "std"))]
    tests::PARSES.with(|n| n.set(n.get() + 1));
    match dtype_format {
        DTYPE_FORMAT_NUMPY => Some(Dtype::parse(dtype)),
        _ => None,
    }
}

#[cfg(all(test, feature = "std"))]
pub(crate) mod tests {
    use core::cell::Cell;

    std::thread_local! {
        /// How many dtype strings this thread has parsed (through [`super::parse`]), for
        /// the report's test that `show` parses the dtype once.
        pub(crate) static PARSES: Cell<usize> = const { Cell::new(0) };
    }
}
