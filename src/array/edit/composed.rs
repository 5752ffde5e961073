//! A chunk made from the values a write gives, not held decoded: a chunk the write
//! covers whole, or one that was all zeros (new chunks an append or a resize adds),
//! is compressed straight from the values, a block at a time. Where a block is one
//! stretch of the values it is compressed from them in place; otherwise its bytes are
//! laid out in a thread's buffer of one block. An append of 5 MiB into an 8 MiB chunk
//! no longer fills (and faults in) an 8 MiB buffer first.

use std::vec::Vec;

use super::broadcast::Broadcast;
use crate::array::error::ArrayError;
use crate::chunk::Input;

/// One stretch of a chunk's elements taken from the values: `len` elements from
/// element `src` of the chunk on, from element `out` of the values on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Run {
    pub src: usize,
    pub out: usize,
    pub len: usize,
}

/// The stretches of one chunk the write gives, in the chunk's order, adjacent ones
/// merged; the cells between them are zeros.
#[derive(Debug, Default)]
pub(super) struct Composed {
    runs: Vec<Run>,
}

impl Composed {
    /// From the runs a chunk plan walks, in any order; none when they are so many that
    /// holding them would cost more than the chunk's bytes (`chunk_items` elements).
    pub(super) fn new(mut runs: Vec<Run>, chunk_items: usize) -> Option<Composed> {
        runs.sort_unstable_by_key(|r| r.src);
        let mut merged: Vec<Run> = Vec::with_capacity(runs.len());
        for r in runs {
            match merged.last_mut() {
                Some(last) if last.src + last.len == r.src && last.out + last.len == r.out => {
                    last.len += r.len;
                }
                _ => merged.push(r),
            }
        }
        let held = merged.len().saturating_mul(core::mem::size_of::<Run>());
        (held <= chunk_items / 4).then_some(Composed { runs: merged })
    }

    /// Whether every cell of the chunk is zero (its values are, and so are the gaps).
    pub(super) fn is_zeros(&self, values: &Broadcast<'_>) -> Result<bool, ArrayError> {
        for r in &self.runs {
            if !values.is_zeros(r.out, r.len)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The chunk's bytes, `nbytes` of `itemsize`-byte elements, for the compressor.
    pub(super) fn input<'a>(
        &'a self,
        values: &'a Broadcast<'a>,
        itemsize: usize,
        nbytes: usize,
    ) -> ComposedInput<'a> {
        ComposedInput {
            runs: &self.runs,
            values,
            itemsize,
            nbytes,
        }
    }

    /// Lays the chunk's values into `chunk` (its other cells left as they are).
    #[cfg(test)]
    pub(super) fn apply(&self, values: &Broadcast<'_>, itemsize: usize, chunk: &mut [u8]) {
        for r in &self.runs {
            let dst = &mut chunk[r.src * itemsize..(r.src + r.len) * itemsize];
            values.copy(r.out, r.len, dst).unwrap();
        }
    }
}

/// A [`Composed`] chunk read by the compressor, a block at a time.
pub(super) struct ComposedInput<'a> {
    runs: &'a [Run],
    values: &'a Broadcast<'a>,
    itemsize: usize,
    nbytes: usize,
}

impl Input for ComposedInput<'_> {
    type Error = ArrayError;
    type Buffer = Vec<u8>;

    fn len(&self) -> usize {
        self.nbytes
    }

    fn bytes<'a>(
        &'a self,
        at: usize,
        len: usize,
        buf: &'a mut Vec<u8>,
    ) -> Result<&'a [u8], ArrayError> {
        let size = self.itemsize;
        // The elements holding bytes `at..at + len`.
        let (first, end) = (at / size, (at + len).div_ceil(size));
        let from = self.runs.partition_point(|r| r.src + r.len <= first);
        // One run holding the whole piece, in memory: read in place.
        let whole = self
            .runs
            .get(from)
            .filter(|r| r.src <= first && end <= r.src + r.len);
        if let Some(slice) =
            whole.and_then(|r| self.values.slice(r.out + (first - r.src), end - first))
        {
            return Ok(&slice[at - first * size..][..len]);
        }
        buf.clear();
        buf.resize((end - first) * size, 0);
        for r in self.runs[from..].iter().take_while(|r| r.src < end) {
            let lo = r.src.max(first);
            let hi = (r.src + r.len).min(end);
            let dst = &mut buf[(lo - first) * size..(hi - first) * size];
            self.values.copy(r.out + (lo - r.src), hi - lo, dst)?;
        }
        Ok(&buf[at - first * size..][..len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::edit::broadcast::Given;

    fn run(src: usize, out: usize, len: usize) -> Run {
        Run { src, out, len }
    }

    /// The chunk a [`Composed`] input reads, piece by piece in `step`s, against the
    /// chunk its runs make when copied into zeros.
    fn read_back(runs: Vec<Run>, values: &[u8], itemsize: usize, nbytes: usize, step: usize) {
        let shape = [(values.len() / itemsize) as u64];
        let b = Broadcast::new(&shape, &shape, Given::Bytes(values), itemsize).unwrap();
        let composed = Composed::new(runs, 1 << 20).unwrap();
        let mut want = std::vec![0u8; nbytes];
        composed.apply(&b, itemsize, &mut want);
        let input = composed.input(&b, itemsize, nbytes);
        let mut buf = Vec::new();
        let mut got = Vec::new();
        for at in (0..nbytes).step_by(step) {
            got.extend_from_slice(input.bytes(at, step.min(nbytes - at), &mut buf).unwrap());
        }
        assert_eq!(got, want, "runs read in pieces of {step}");
    }

    #[test]
    fn pieces_read_as_the_chunk_the_runs_make() {
        let values: Vec<u8> = (1..=64).collect();
        let runs = || std::vec![run(10, 0, 4), run(2, 4, 3), run(14, 7, 1), run(20, 8, 4)];
        for step in [1, 3, 4, 8, 16, 96] {
            read_back(runs(), &values, 4, 96, step);
        }
        read_back(std::vec![run(0, 0, 16)], &values, 4, 64, 64);
    }

    #[test]
    fn adjacent_runs_merge_and_too_many_are_refused() {
        let c = Composed::new(std::vec![run(4, 4, 4), run(0, 0, 4), run(8, 9, 1)], 1000).unwrap();
        assert_eq!(c.runs, [run(0, 0, 8), run(8, 9, 1)]);
        let many: Vec<Run> = (0..100).map(|i| run(2 * i, i, 1)).collect();
        assert!(Composed::new(many, 200).is_none());
    }
}
