//! Tests for `b2nd_meta::dtype`.
//!
//! NumPy 2.4.6 (Python 3.11.7, x86-64 Linux) is the oracle:
//! `tests/data/dtype/generate.py` asks it about every string of
//! `tests/data/dtype/inputs.json` and writes `tests/data/dtype/numpy.json`, one
//! case per line: NumPy's reading of each input (`np.dtype(s)`, falling back to
//! `np.dtype(ast.literal_eval(s))` as python-blosc2 does) and the string
//! python-blosc2 would store for the result (`dtype.str`, or `str(dtype)` for
//! kind 'V'), and the strings NumPy rejects. `numpy.rs` checks this crate
//! against that file; the other modules test chosen behaviour, error offsets and
//! properties.

use b2nd_meta::dtype::{Dtype, DtypeError};

mod behaviour;
mod numpy;
mod offsets;
mod properties;

fn parse(s: &str) -> Dtype {
    Dtype::parse(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
}

fn parse_err(s: &str) -> DtypeError {
    match Dtype::parse(s) {
        Ok(d) => panic!("{s:?} should not parse, got {d}"),
        Err(e) => e,
    }
}

/// The error's byte offset into the dtype string (every parse error has one).
fn at(err: &DtypeError) -> usize {
    let offset = err.offset().unwrap_or_else(|| panic!("no offset: {err}"));
    usize::try_from(offset).unwrap()
}

fn offset_of(s: &str) -> usize {
    at(&parse_err(s))
}
