//! Where a read puts the elements a chunk gives: [`Sink`], the output as raw bytes
//! ([`Raw`]) or converted to a Rust type ([`Typed`]); [`Source`], the chunk's decoded
//! bytes or one repeated element; and [`copy`], a chunk's elements taken from one to
//! the other along the runs its [`ChunkPlan`] gives.

use crate::array::element::Element;
use crate::array::geometry::ChunkPlan;
use crate::dtype::{ByteOrder, Dtype};

/// Where the elements a chunk gives come from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// Decoded bytes of the chunk: its elements from element `base` on.
    Bytes { bytes: &'a [u8], base: usize },
    /// One element, repeated over the whole chunk (a chunk the index says is zeros,
    /// NaNs or uninitialised).
    Repeat(&'a [u8]),
}

/// How elements land in the output: raw bytes, or converted to a Rust type.
pub(crate) trait Sink: Sync {
    /// What the output holds.
    type Item: Copy + Send;
    /// Items of output per array element.
    fn width(&self) -> usize;
    /// Converts the elements of `src` (their bytes) into `dst`.
    fn copy(&self, dst: &mut [Self::Item], src: &[u8]);
    /// Sets every element of `dst` to `element` (its bytes).
    fn fill(&self, dst: &mut [Self::Item], element: &[u8]);
    /// Whether the output holds the bytes as stored, so a chunk can be decoded into it.
    const DIRECT: bool = false;
    /// The output as bytes, when it holds them as stored.
    fn as_bytes(_dst: &mut [Self::Item]) -> Option<&mut [u8]> {
        None
    }
}

/// The elements' bytes as stored.
pub(crate) struct Raw {
    pub(crate) itemsize: usize,
}

impl Sink for Raw {
    type Item = u8;
    const DIRECT: bool = true;

    fn as_bytes(dst: &mut [u8]) -> Option<&mut [u8]> {
        Some(dst)
    }

    fn width(&self) -> usize {
        self.itemsize
    }

    fn copy(&self, dst: &mut [u8], src: &[u8]) {
        dst.copy_from_slice(src);
    }

    fn fill(&self, dst: &mut [u8], element: &[u8]) {
        if element.iter().all(|&b| b == 0) {
            dst.fill(0);
        } else {
            for d in dst.chunks_exact_mut(self.itemsize) {
                d.copy_from_slice(element);
            }
        }
    }
}

/// Elements converted to `T` from the file's byte order.
pub(crate) struct Typed<T> {
    pub(crate) itemsize: usize,
    pub(crate) big: bool,
    pub(crate) _type: core::marker::PhantomData<fn() -> T>,
}

impl<T: Element> Typed<T> {
    /// The conversion of `dtype`'s elements, when `T` reads it.
    pub(crate) fn of(dtype: &Dtype) -> Option<Typed<T>> {
        T::accepts(dtype).then(|| Typed {
            itemsize: dtype.itemsize() as usize,
            big: dtype.byte_order() == ByteOrder::Big,
            _type: core::marker::PhantomData,
        })
    }
}

impl<T: Element> Sink for Typed<T> {
    type Item = T;

    fn width(&self) -> usize {
        1
    }

    fn copy(&self, dst: &mut [T], src: &[u8]) {
        for (d, s) in dst.iter_mut().zip(src.chunks_exact(self.itemsize)) {
            *d = T::from_bytes(s, self.big);
        }
    }

    fn fill(&self, dst: &mut [T], element: &[u8]) {
        dst.fill(T::from_bytes(element, self.big));
    }
}

/// Copies the elements `plan` takes of a chunk (`itemsize` bytes each, from `src`) into
/// `dst`, the output's elements from `base` on (a slab of the output that holds every
/// one).
pub(crate) fn copy<S: Sink>(
    plan: &ChunkPlan,
    sink: &S,
    src: Source<'_>,
    itemsize: usize,
    dst: &mut [S::Item],
    base: usize,
) {
    let width = sink.width();
    plan.each_run(|from, to, len| {
        let d = to
            .checked_sub(base)
            .and_then(|to| dst.get_mut(to * width..(to + len) * width));
        let Some(d) = d else {
            debug_assert!(false, "an element outside the slab");
            return;
        };
        match src {
            Source::Bytes { bytes, base } => {
                let at = from.checked_sub(base).map(|f| f * itemsize);
                match at.and_then(|at| bytes.get(at..at + len * itemsize)) {
                    Some(s) => sink.copy(d, s),
                    None => debug_assert!(false, "an element outside the bytes decoded"),
                }
            }
            Source::Repeat(element) => sink.fill(d, element),
        }
    });
}
