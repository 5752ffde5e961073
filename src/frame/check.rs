//! The array metalayer against the frame header: the relations python-blosc2 relies on
//! when it reads data ([`check_array`]), and which metalayers are user data.

use std::fmt;
use std::vec::Vec;

use std::borrow::ToOwned;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameInfo, Metalayer};
use crate::meta::Meta;

impl FrameHeader {
    /// The metalayers other than the array's (see
    /// [`array_metalayer`](Self::array_metalayer)): user data, never decoded as array
    /// metadata. A `caterva` metalayer beside a `b2nd` one is user data, as C-Blosc2
    /// and python-blosc2 read the array through `b2nd`.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let header = b2nd_meta::frame::open(path)?.header;
    /// let names: Vec<_> = header.user_metalayers().map(|m| m.name.as_str()).collect();
    /// assert_eq!(names, ["user", &"m".repeat(31)]);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn user_metalayers(&self) -> impl Iterator<Item = &Metalayer> {
        self.metalayers
            .iter()
            .filter(|m| !self.is_array_metalayer(m))
    }

    /// Whether `m`, one of this header's [`metalayers`](Self::metalayers), is the one
    /// describing the array ([`array_metalayer`](Self::array_metalayer)): the first
    /// `b2nd`, else the first `caterva`. Every other metalayer is user data, a `caterva`
    /// beside a `b2nd` and a second `b2nd` included. The one place this is decided; the
    /// report and the command line ask here.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let header = b2nd_meta::frame::open(path)?.header;
    /// let array: Vec<bool> = header.metalayers.iter().map(|m| header.is_array_metalayer(m)).collect();
    /// assert_eq!(array, [true, false, false]);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn is_array_metalayer(&self, m: &Metalayer) -> bool {
        // The very entry, not its name or offset: two entries may share either.
        self.array_metalayer().is_some_and(|a| core::ptr::eq(a, m))
    }

    /// Refuses to treat metalayer `name` as user data when it is the array's (what a
    /// user-metalayer write would rewrite: the first so named).
    pub(super) fn refuse_array_metalayer(&self, name: &str) -> Result<(), FrameError> {
        match self.metalayer(name) {
            Some(m) if self.is_array_metalayer(m) => {
                Err(FrameError::new(FrameErrorKind::NotUserMetalayer {
                    name: name.to_owned(),
                }))
            }
            _ => Ok(()),
        }
    }
}

/// One relation between the array metalayer and the frame header that does not hold
/// (see [`check_array`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The header field: `"blocksize"`, `"chunksize"`, `"nbytes"` or `"typesize"`.
    pub field: &'static str,
    /// What the metalayer implies.
    pub expected: i128,
    /// How the value follows from the metalayer.
    pub rule: &'static str,
    /// What the header says.
    pub found: i128,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the array metalayer implies {} ({}), the frame header says {}",
            self.field, self.expected, self.rule, self.found
        )
    }
}

/// Ceiling division of non-negative numbers; `None` for a zero or negative divisor.
fn ceil_div(a: i128, b: i128) -> Option<i128> {
    if b <= 0 || a < 0 {
        return None;
    }
    Some(a / b + i128::from(a % b != 0))
}

/// The relations between the array metalayer `meta` and the header facts `info` that
/// held on every file python-blosc2 2.7, 3.0 and 4.14 wrote, and that python-blosc2
/// relies on when it reads data:
///
/// - blocksize = prod(blockshape) x typesize;
/// - chunksize = prod(ceil(chunkshape_i / blockshape_i) x blockshape_i) x typesize;
/// - nbytes = (chunks in the grid, prod(ceil(shape_i / chunkshape_i))) x chunksize;
/// - the dtype's itemsize = typesize (b2nd only: caterva has no dtype).
///
/// Returns those that do not hold; a relation that cannot be computed (a zero or
/// negative chunk or block dimension, a dtype that does not parse) is skipped, as
/// [`Meta::validate_with_typesize`] reports those. Known exception: caterva 0.7.3 writes
/// empty arrays with chunksize -1 and blocksize 0, which this reports.
///
/// ```
/// use b2nd_meta::frame::{check_array, open};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let header = open(path)?.header;
/// assert_eq!(check_array(&header.info, &header.array_meta()?), []);
///
/// // A shape resized across the chunk grid without rewriting the chunks.
/// let mut meta = header.array_meta()?;
/// if let b2nd_meta::Meta::B2ndV1(m) = &mut meta { m.shape[0] = 13; }
/// let mismatches = check_array(&header.info, &meta);
/// assert_eq!(mismatches[0].field, "nbytes");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_array(info: &FrameInfo, meta: &Meta) -> Vec<Mismatch> {
    let itemsize = meta
        .parsed_dtype()
        .and_then(Result::ok)
        .map(|d| d.itemsize());
    check_array_with(info, meta, itemsize)
}

/// [`check_array`] with the dtype already parsed: `itemsize` is its itemsize (`None` for
/// caterva, or a dtype that does not parse or has another format).
pub(crate) fn check_array_with(
    info: &FrameInfo,
    meta: &Meta,
    itemsize: Option<u64>,
) -> Vec<Mismatch> {
    let typesize = i128::from(info.typesize);
    let blocks: Option<i128> = meta
        .blockshape()
        .iter()
        .try_fold(1i128, |p, &b| (b > 0).then(|| p * i128::from(b)));
    let chunk: Option<i128> = meta
        .chunkshape()
        .iter()
        .zip(meta.blockshape())
        .try_fold(1i128, |p, (&c, &b)| {
            let padded = ceil_div(c.into(), b.into())? * i128::from(b);
            (c > 0).then(|| p * padded)
        })
        .map(|c| c * typesize);
    let grid: Option<i128> = meta
        .shape()
        .iter()
        .zip(meta.chunkshape())
        .try_fold(1i128, |p, (&s, &c)| {
            Some(p.saturating_mul(ceil_div(s.into(), c.into())?))
        });
    // (field, what the metalayer implies, the rule, what the header holds)
    let checks = [
        (
            "blocksize",
            blocks.map(|b| b * typesize),
            "prod(blockshape) x typesize",
            info.blocksize.into(),
        ),
        (
            "chunksize",
            chunk,
            "prod(ceil(chunkshape_i / blockshape_i) x blockshape_i) x typesize",
            info.chunksize.into(),
        ),
        (
            "nbytes",
            grid.zip(chunk).map(|(g, c)| g.saturating_mul(c)),
            "chunks in the grid, prod(ceil(shape_i / chunkshape_i)), x chunksize",
            info.nbytes.into(),
        ),
        (
            "typesize",
            itemsize.map(i128::from),
            "the dtype's itemsize",
            typesize,
        ),
    ];
    checks
        .into_iter()
        .filter_map(|(field, expected, rule, found)| {
            let expected = expected.filter(|&e| e != found)?;
            Some(Mismatch {
                field,
                expected,
                rule,
                found,
            })
        })
        .collect()
}
