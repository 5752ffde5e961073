//! The dtype model: [`Dtype`], its representation, [`Field`], and what they tell.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::kind::{ByteOrder, DatetimeUnit, Kind};

/// A NumPy dtype: the element type of a `b2nd` array.
///
/// Values come from [`Dtype::parse`] (or [`str::parse`]) and
/// [`Dtype::for_typesize`], so every `Dtype` is valid: its sizes are within
/// [`MAX_ITEMSIZE`](super::MAX_ITEMSIZE), its nesting within
/// [`MAX_NESTING`](super::MAX_NESTING), and its [`Display`] output parses back
/// to an equal `Dtype`. Equality is structural and, unlike
/// NumPy's, tells an aligned struct from an unaligned one with the same
/// layout (they print differently).
///
/// ```
/// use b2nd_meta::dtype::{ByteOrder, Dtype, Kind};
///
/// let dt = Dtype::parse("<U3")?;
/// assert_eq!(dt.kind(), Kind::Unicode);
/// assert_eq!(dt.byte_order(), ByteOrder::Little);
/// assert_eq!(dt.string_len(), Some(3));
/// assert_eq!(dt.itemsize(), 12);
/// assert_eq!(dt.to_string(), "<U3");
/// assert_eq!(format!("{dt:?}"), r#"Dtype("<U3")"#);
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
///
/// [`Display`]: core::fmt::Display
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dtype {
    pub(super) repr: Repr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Repr {
    Bool,
    /// `kind` is one of Int, UInt, Float, Complex; `size` is valid for it and
    /// `order` is NotApplicable exactly when `size` is 1.
    Number {
        kind: Kind,
        size: u8,
        order: ByteOrder,
    },
    Bytes(u64),
    /// Length in characters; `4 * len <= MAX_ITEMSIZE`; order Little or Big.
    Unicode {
        len: u64,
        order: ByteOrder,
    },
    Void(u64),
    /// `multiple` is 1 when `unit` is Generic; order Little or Big.
    Time {
        delta: bool,
        unit: DatetimeUnit,
        multiple: u32,
        order: ByteOrder,
    },
    Object,
    Subarray(Box<Subarray>),
    Struct(Box<Struct>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Subarray {
    pub(super) base: Dtype,
    /// Never empty.
    pub(super) shape: Vec<u64>,
    pub(super) itemsize: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Struct {
    pub(super) fields: Vec<Field>,
    pub(super) itemsize: u64,
    pub(super) aligned: bool,
    /// Cached alignment: the largest field alignment when aligned, else 1.
    pub(super) alignment: u64,
}

/// One named field of a structured [`Dtype`].
///
/// ```
/// use b2nd_meta::dtype::Dtype;
///
/// let dt = Dtype::parse("[(('Temperature', 'temp'), '<f4', (2, 3))]")?;
/// let field = &dt.fields().unwrap()[0];
/// assert_eq!(field.name(), "temp");
/// assert_eq!(field.title(), Some("Temperature"));
/// assert_eq!(field.offset(), 0);
/// assert_eq!(field.shape(), &[2, 3]);
/// assert_eq!(field.base().to_string(), "<f4");
/// assert_eq!(field.dtype().itemsize(), 24);
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub(super) name: String,
    pub(super) title: Option<String>,
    pub(super) dtype: Dtype,
    pub(super) offset: u64,
}

impl Field {
    /// The field's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The field's title (NumPy's alternative name), if it has one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The field's full dtype, a [`Kind::Subarray`] when the field has a
    /// shape.
    pub fn dtype(&self) -> &Dtype {
        &self.dtype
    }

    /// Byte offset of the field from the start of the struct.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The field's subarray shape; empty for a scalar field.
    pub fn shape(&self) -> &[u64] {
        match self.dtype.subarray() {
            Some((_, shape)) => shape,
            None => &[],
        }
    }

    /// The dtype of one element of the field: the subarray's element dtype
    /// when the field has a shape, else the field's dtype.
    pub fn base(&self) -> &Dtype {
        match self.dtype.subarray() {
            Some((base, _)) => base,
            None => &self.dtype,
        }
    }
}

impl Dtype {
    /// The dtype python-blosc2 assumes for an array whose metadata has no
    /// dtype: a byte string of `typesize` bytes, `|S<typesize>`.
    ///
    /// python-blosc2 uses `np.dtype(f"S{typesize}")` when a `caterva`
    /// metalayer (or a `b2nd` metalayer without dtype) gives only the
    /// Blosc2 typesize.
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// let dt = Dtype::for_typesize(8);
    /// assert_eq!(dt.to_string(), "|S8");
    /// assert_eq!(dt.kind(), Kind::Bytes);
    /// assert_eq!(dt.itemsize(), 8);
    /// ```
    pub fn for_typesize(typesize: u32) -> Dtype {
        Dtype::of(Repr::Bytes(u64::from(typesize)))
    }

    /// What sort of values this dtype describes.
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// assert_eq!(Dtype::parse("|b1")?.kind(), Kind::Bool);
    /// assert_eq!(Dtype::parse("[('a', '<i4')]")?.kind(), Kind::Struct);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn kind(&self) -> Kind {
        match &self.repr {
            Repr::Bool => Kind::Bool,
            Repr::Number { kind, .. } => *kind,
            Repr::Bytes(_) => Kind::Bytes,
            Repr::Unicode { .. } => Kind::Unicode,
            Repr::Void(_) => Kind::Void,
            Repr::Time { delta: false, .. } => Kind::Datetime,
            Repr::Time { delta: true, .. } => Kind::Timedelta,
            Repr::Object => Kind::Object,
            Repr::Subarray(_) => Kind::Subarray,
            Repr::Struct(_) => Kind::Struct,
        }
    }

    /// Byte order of the values; [`ByteOrder::NotApplicable`] for
    /// single-byte numbers, booleans, byte strings, void, objects, structs
    /// and subarrays.
    ///
    /// ```
    /// use b2nd_meta::dtype::{ByteOrder, Dtype};
    ///
    /// assert_eq!(Dtype::parse(">M8[us]")?.byte_order(), ByteOrder::Big);
    /// assert_eq!(Dtype::parse("|S5")?.byte_order(), ByteOrder::NotApplicable);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn byte_order(&self) -> ByteOrder {
        match &self.repr {
            Repr::Number { order, .. } | Repr::Unicode { order, .. } | Repr::Time { order, .. } => {
                *order
            }
            _ => ByteOrder::NotApplicable,
        }
    }

    /// Size of one value in bytes, at most [`MAX_ITEMSIZE`](super::MAX_ITEMSIZE).
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("<U3")?.itemsize(), 12);
    /// assert_eq!(Dtype::parse("|O")?.itemsize(), 8);
    /// assert_eq!(Dtype::parse("[('a', '<i4', (2, 3))]")?.itemsize(), 24);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn itemsize(&self) -> u64 {
        match &self.repr {
            Repr::Bool => 1,
            Repr::Number { size, .. } => u64::from(*size),
            Repr::Bytes(n) | Repr::Void(n) => *n,
            // Bounded by MAX_ITEMSIZE at construction, so this never saturates.
            Repr::Unicode { len, .. } => len.saturating_mul(4),
            Repr::Time { .. } | Repr::Object => 8,
            Repr::Subarray(sub) => sub.itemsize,
            Repr::Struct(st) => st.itemsize,
        }
    }

    /// Unit and multiple of a datetime or timedelta dtype (`M8[10ms]` gives
    /// `(Millisecond, 10)`, `M8` gives `(Generic, 1)`); `None` for other
    /// kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::{DatetimeUnit, Dtype};
    ///
    /// assert_eq!(
    ///     Dtype::parse("<m8[s]")?.datetime_unit(),
    ///     Some((DatetimeUnit::Second, 1))
    /// );
    /// assert_eq!(Dtype::parse("<i8")?.datetime_unit(), None);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn datetime_unit(&self) -> Option<(DatetimeUnit, u32)> {
        match &self.repr {
            Repr::Time { unit, multiple, .. } => Some((*unit, *multiple)),
            _ => None,
        }
    }

    /// Length of a string dtype: bytes for [`Kind::Bytes`], characters for
    /// [`Kind::Unicode`]; `None` for other kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("|S5")?.string_len(), Some(5));
    /// assert_eq!(Dtype::parse("<U3")?.string_len(), Some(3));
    /// assert_eq!(Dtype::parse("|V8")?.string_len(), None);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn string_len(&self) -> Option<u64> {
        match &self.repr {
            Repr::Bytes(n) => Some(*n),
            Repr::Unicode { len, .. } => Some(*len),
            _ => None,
        }
    }

    /// The fields of a structured dtype, in declaration order; `None` for
    /// other kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("[('a', '<i4'), ('b', '<f8')]")?;
    /// let names: Vec<&str> = dt.fields().unwrap().iter().map(|f| f.name()).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// assert!(Dtype::parse("<i4")?.fields().is_none());
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn fields(&self) -> Option<&[Field]> {
        match &self.repr {
            Repr::Struct(st) => Some(&st.fields),
            _ => None,
        }
    }

    /// Whether this is a struct laid out with C alignment (NumPy's
    /// `isalignedstruct`, from an `'aligned': True` dict entry).
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("{'names': ['a', 'b'], 'formats': ['i1', '<i4'], 'aligned': True}")?;
    /// assert!(dt.is_aligned_struct());
    /// assert_eq!(dt.fields().unwrap()[1].offset(), 4);
    /// assert_eq!(
    ///     dt.to_string(),
    ///     "{'names': ['a', 'b'], 'formats': ['i1', '<i4'], 'offsets': [0, 4], 'itemsize': 8, 'aligned': True}"
    /// );
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn is_aligned_struct(&self) -> bool {
        matches!(&self.repr, Repr::Struct(st) if st.aligned)
    }

    /// Element dtype and shape of a subarray dtype; `None` for other kinds.
    /// The shape is never empty.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("('<i4', (2, 3))")?;
    /// let (base, shape) = dt.subarray().unwrap();
    /// assert_eq!(base.to_string(), "<i4");
    /// assert_eq!(shape, &[2, 3]);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn subarray(&self) -> Option<(&Dtype, &[u64])> {
        match &self.repr {
            Repr::Subarray(sub) => Some((&sub.base, &sub.shape)),
            _ => None,
        }
    }

    /// NumPy's `dtype.alignment` (as on x86-64 Linux).
    pub(super) fn alignment(&self) -> u64 {
        match &self.repr {
            Repr::Number {
                kind: Kind::Complex,
                size,
                ..
            } => u64::from(*size / 2),
            Repr::Number { size, .. } => u64::from(*size),
            Repr::Bool | Repr::Bytes(_) | Repr::Void(_) => 1,
            Repr::Unicode { .. } => 4,
            Repr::Time { .. } | Repr::Object => 8,
            Repr::Subarray(sub) => sub.base.alignment(),
            Repr::Struct(st) => st.alignment,
        }
    }

    pub(super) fn of(repr: Repr) -> Dtype {
        Dtype { repr }
    }

    /// NumPy's `PyDataType_ISUNSIZED`: size 0 and no fields.
    pub(super) fn is_unsized(&self) -> bool {
        self.itemsize() == 0 && !matches!(self.repr, Repr::Struct(_))
    }
}
