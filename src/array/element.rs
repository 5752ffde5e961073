//! [`Element`]: the Rust types a typed read gives, which dtypes each reads, and the
//! conversion between the file's bytes (either byte order) and them.

use crate::dtype::{Dtype, Kind};

mod sealed {
    pub trait Sealed {}
}

/// A Rust type an array's elements can be read as: `bool`, `i8` to `i64`, `u8` to
/// `u64`, `f32`, `f64`, complex numbers as `[f32; 2]` and `[f64; 2]` (real, imaginary),
/// and `datetime64`/`timedelta64` as `i64` (their count of units). Each reads the
/// dtypes of its kind and size, in either byte order.
///
/// ```
/// use b2nd_meta::array::Element;
/// use b2nd_meta::dtype::Dtype;
///
/// assert!(i64::accepts(&Dtype::parse("<M8[ns]")?));
/// assert!(<[f32; 2]>::accepts(&Dtype::parse(">c8")?));
/// assert!(!i32::accepts(&Dtype::parse("<u4")?));
/// assert_eq!(<[f64; 2]>::NAME, "[f64; 2]");
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
pub trait Element:
    Copy + core::fmt::Debug + PartialEq + Send + Sync + Default + 'static + sealed::Sealed
{
    /// The type's name, as errors give it.
    const NAME: &'static str;

    /// Whether an array of `dtype` reads as this type.
    fn accepts(dtype: &Dtype) -> bool;

    /// The value of one element's bytes (its size), big-endian when `big`.
    #[doc(hidden)]
    fn from_bytes(bytes: &[u8], big: bool) -> Self;

    /// Writes the value as one element's bytes (`out` has its size), big-endian when
    /// `big`.
    #[doc(hidden)]
    fn to_bytes(self, out: &mut [u8], big: bool);
}

macro_rules! number {
    ($t:ty, $name:literal, $($kind:ident)|+) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const NAME: &'static str = $name;

            fn accepts(dtype: &Dtype) -> bool {
                matches!(dtype.kind(), $(Kind::$kind)|+)
                    && dtype.itemsize() == core::mem::size_of::<$t>() as u64
            }

            fn from_bytes(bytes: &[u8], big: bool) -> Self {
                let Ok(b) = <[u8; core::mem::size_of::<$t>()]>::try_from(bytes) else {
                    return Self::default();
                };
                if big { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) }
            }

            fn to_bytes(self, out: &mut [u8], big: bool) {
                let b = if big { self.to_be_bytes() } else { self.to_le_bytes() };
                out.copy_from_slice(&b);
            }
        }
    };
}

number!(i8, "i8", Int);
number!(i16, "i16", Int);
number!(i32, "i32", Int);
number!(i64, "i64", Int | Datetime | Timedelta);
number!(u8, "u8", UInt);
number!(u16, "u16", UInt);
number!(u32, "u32", UInt);
number!(u64, "u64", UInt);
number!(f32, "f32", Float);
number!(f64, "f64", Float);

impl sealed::Sealed for bool {}
impl Element for bool {
    const NAME: &'static str = "bool";

    fn accepts(dtype: &Dtype) -> bool {
        dtype.kind() == Kind::Bool
    }

    /// numpy's truth: any byte but 0 is `True`.
    fn from_bytes(bytes: &[u8], _big: bool) -> Self {
        bytes.first().is_some_and(|&b| b != 0)
    }

    fn to_bytes(self, out: &mut [u8], _big: bool) {
        out.fill(0);
        out[0] = u8::from(self);
    }
}

macro_rules! complex {
    ($t:ty, $name:literal) => {
        impl sealed::Sealed for [$t; 2] {}
        impl Element for [$t; 2] {
            const NAME: &'static str = $name;

            fn accepts(dtype: &Dtype) -> bool {
                dtype.kind() == Kind::Complex
                    && dtype.itemsize() == 2 * core::mem::size_of::<$t>() as u64
            }

            fn from_bytes(bytes: &[u8], big: bool) -> Self {
                let (re, im) = bytes.split_at(bytes.len() / 2);
                [<$t>::from_bytes(re, big), <$t>::from_bytes(im, big)]
            }

            fn to_bytes(self, out: &mut [u8], big: bool) {
                let (re, im) = out.split_at_mut(out.len() / 2);
                self[0].to_bytes(re, big);
                self[1].to_bytes(im, big);
            }
        }
    };
}

complex!(f32, "[f32; 2]");
complex!(f64, "[f64; 2]");
