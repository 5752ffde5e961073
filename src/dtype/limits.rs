//! How far parsing goes: nesting depth, dimensions and sizes.

/// Deepest nesting of structs and subarrays inside a dtype.
///
/// The top-level dtype is level 0; a field's dtype and a subarray's element
/// dtype are one level deeper than the dtype holding them.
///
/// ```
/// use b2nd_meta::dtype::{Dtype, MAX_NESTING};
///
/// let nested = |levels: usize| {
///     format!("{}'<i4'{}", "[('a', ".repeat(levels), ")]".repeat(levels))
/// };
/// assert!(Dtype::parse(&nested(MAX_NESTING)).is_ok());
/// assert!(Dtype::parse(&nested(MAX_NESTING + 1)).is_err());
/// ```
pub const MAX_NESTING: usize = 32;

/// Most dimensions a subarray shape may have (NumPy's `NPY_MAXDIMS`).
///
/// ```
/// use b2nd_meta::dtype::{Dtype, MAX_NDIM};
///
/// let shape = |ndim: usize| format!("('u1', ({}))", vec!["1"; ndim].join(", "));
/// assert!(Dtype::parse(&shape(MAX_NDIM)).is_ok());
/// assert!(Dtype::parse(&shape(MAX_NDIM + 1)).is_err());
/// ```
pub const MAX_NDIM: usize = 64;

/// Largest accepted size in bytes of any dtype, field offset or subarray
/// dimension (`i64::MAX`, so every size fits Blosc2's 64-bit signed sizes).
///
/// ```
/// use b2nd_meta::dtype::{Dtype, MAX_ITEMSIZE};
///
/// assert_eq!(Dtype::parse(&format!("S{MAX_ITEMSIZE}"))?.itemsize(), MAX_ITEMSIZE);
/// assert!(Dtype::parse(&format!("S{}", MAX_ITEMSIZE + 1)).is_err());
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
pub const MAX_ITEMSIZE: u64 = i64::MAX as u64;

/// Largest accepted multiple in a datetime unit such as `M8[10ms]` (NumPy
/// stores it in a C `int`).
pub(super) const MAX_DATETIME_MULTIPLE: u64 = i32::MAX as u64;

/// Deepest nesting of brackets in a Python literal. Generous enough that
/// [`MAX_NESTING`] is always the limit hit first by a dtype.
pub(super) const MAX_LITERAL_DEPTH: usize = 4 * MAX_NESTING + 8;
