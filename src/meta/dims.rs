//! [`Dims`]: up to 16 entries inline.

use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// How many entries a [`Dims`] holds without allocating: C-Blosc2's `B2ND_MAX_DIM`.
pub const INLINE_DIMS: usize = 16;

/// One entry per axis, stored inline up to 16 entries (more spill to the heap, so that
/// building one never fails; the metalayer format refuses them when encoding).
///
/// ```
/// use b2nd_meta::Dims;
///
/// let shape: Dims<i64> = vec![3, 4].into();
/// assert_eq!(shape, [3, 4]);
/// assert_eq!(shape.len(), 2);
/// assert_eq!(shape.iter().product::<i64>(), 12);
/// assert_eq!(Dims::from([1, 2, 3]), (1..=3).collect::<Dims<i32>>());
/// assert_eq!(format!("{shape:?}"), "[3, 4]");
/// ```
#[derive(Clone)]
pub struct Dims<T> {
    repr: DimsRepr<T>,
}

#[derive(Clone)]
enum DimsRepr<T> {
    Inline { len: u8, items: [T; INLINE_DIMS] },
    Heap(Vec<T>),
}

impl<T: Copy + Default> Dims<T> {
    /// No entries (a 0-dimensional array).
    #[inline]
    pub fn new() -> Self {
        Dims {
            repr: DimsRepr::Inline {
                len: 0,
                items: [T::default(); INLINE_DIMS],
            },
        }
    }

    /// Appends an entry.
    pub fn push(&mut self, value: T) {
        match &mut self.repr {
            DimsRepr::Inline { len, items } => match items.get_mut(usize::from(*len)) {
                Some(slot) => {
                    *slot = value;
                    *len += 1;
                }
                None => {
                    let mut v = Vec::with_capacity(INLINE_DIMS * 2);
                    v.extend_from_slice(items);
                    v.push(value);
                    self.repr = DimsRepr::Heap(v);
                }
            },
            DimsRepr::Heap(v) => v.push(value),
        }
    }

    /// Removes the last entry and returns it.
    pub fn pop(&mut self) -> Option<T> {
        match &mut self.repr {
            DimsRepr::Inline { len, items } => {
                let last = usize::from(*len).checked_sub(1)?;
                *len -= 1;
                items.get(last).copied()
            }
            DimsRepr::Heap(v) => v.pop(),
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        *self = Dims::new();
    }

    /// Makes this `n` entries long (`n <= 16`, inline) and returns them to be filled in
    /// place; `None` when `n > 16`.
    #[inline]
    pub(crate) fn inline_slots(&mut self, n: usize) -> Option<&mut [T]> {
        if n > INLINE_DIMS {
            return None;
        }
        if let DimsRepr::Heap(_) = self.repr {
            *self = Dims::new();
        }
        match &mut self.repr {
            DimsRepr::Inline { len, items } => {
                *len = n as u8;
                items.get_mut(..n)
            }
            DimsRepr::Heap(_) => None,
        }
    }

    /// Replaces the entries with `entries` (at most 16), written in place.
    #[inline(always)]
    pub(crate) fn set_entries<I: ExactSizeIterator<Item = T>>(&mut self, entries: I) {
        if let Some(slots) = self.inline_slots(entries.len()) {
            for (slot, v) in slots.iter_mut().zip(entries) {
                *slot = v;
            }
        }
    }

    /// The entries as a slice (as through `Deref`).
    pub fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T: Copy + Default> Default for Dims<T> {
    fn default() -> Self {
        Dims::new()
    }
}

impl<T> Deref for Dims<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.repr {
            // `len <= 16` always holds: `push` spills to the heap beyond.
            DimsRepr::Inline { len, items } => items.get(..usize::from(*len)).unwrap_or(&[]),
            DimsRepr::Heap(v) => v,
        }
    }
}

impl<T> DerefMut for Dims<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.repr {
            DimsRepr::Inline { len, items } => {
                items.get_mut(..usize::from(*len)).unwrap_or(&mut [])
            }
            DimsRepr::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default> From<&[T]> for Dims<T> {
    #[inline]
    fn from(s: &[T]) -> Self {
        let mut items = [T::default(); INLINE_DIMS];
        match items.get_mut(..s.len()) {
            Some(dst) => {
                dst.copy_from_slice(s);
                Dims {
                    // Fits: `s.len() <= 16`.
                    repr: DimsRepr::Inline {
                        len: s.len() as u8,
                        items,
                    },
                }
            }
            None => Dims {
                repr: DimsRepr::Heap(s.to_vec()),
            },
        }
    }
}

impl<T: Copy + Default> From<Vec<T>> for Dims<T> {
    fn from(v: Vec<T>) -> Self {
        if v.len() <= INLINE_DIMS {
            Dims::from(v.as_slice())
        } else {
            Dims {
                repr: DimsRepr::Heap(v),
            }
        }
    }
}

impl<T: Copy + Default, const N: usize> From<[T; N]> for Dims<T> {
    fn from(a: [T; N]) -> Self {
        Dims::from(&a[..])
    }
}

impl<T: Copy + Default> From<Dims<T>> for Vec<T> {
    fn from(d: Dims<T>) -> Self {
        match d.repr {
            DimsRepr::Heap(v) => v,
            DimsRepr::Inline { .. } => d.to_vec(),
        }
    }
}

impl<T: Copy + Default> FromIterator<T> for Dims<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut d = Dims::new();
        d.extend(iter);
        d
    }
}

impl<T: Copy + Default> Extend<T> for Dims<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for v in iter {
            self.push(v);
        }
    }
}

impl<'a, T> IntoIterator for &'a Dims<T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for Dims<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: PartialEq> PartialEq for Dims<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for Dims<T> {}

impl<T: Hash> Hash for Dims<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

macro_rules! eq_with {
    ($([$($gen:tt)*] $other:ty,)*) => {$(
        impl<$($gen)* T: PartialEq> PartialEq<$other> for Dims<T> {
            fn eq(&self, other: &$other) -> bool {
                **self == other[..]
            }
        }
        impl<$($gen)* T: PartialEq> PartialEq<Dims<T>> for $other {
            fn eq(&self, other: &Dims<T>) -> bool {
                self[..] == **other
            }
        }
    )*};
}

eq_with! {
    [] [T],
    ['a,] &'a [T],
    [] Vec<T>,
    [const N: usize,] [T; N],
}

impl<T: Serialize> Serialize for Dims<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for v in self.iter() {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Deserialize<'de> for Dims<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(core::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Copy + Default> Visitor<'de> for V<T> {
            type Value = Dims<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence of entries, one per axis")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dims<T>, A::Error> {
                let mut d = Dims::new();
                while let Some(v) = seq.next_element()? {
                    d.push(v);
                }
                Ok(d)
            }
        }
        deserializer.deserialize_seq(V(core::marker::PhantomData))
    }
}
