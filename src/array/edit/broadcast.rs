//! Values assigned to a selection, broadcast to its shape as numpy broadcasts an
//! assignment: shapes aligned on their last axes, an axis of 1 (or a missing one)
//! repeated, leading axes of 1 dropped.

use std::borrow::Cow;
use std::format;
use std::vec::Vec;

use crate::array::error::ArrayError;
use crate::io::{read_full_at, ReadAt};

/// Where the values' bytes are: in memory, or in a source from an offset on (a file:
/// values as many as the selection takes are read a stretch at a time, as they go
/// into chunks, never held whole).
#[derive(Clone, Copy)]
pub(super) enum Given<'a> {
    Bytes(&'a [u8]),
    At {
        source: &'a (dyn ReadAt + Sync),
        offset: u64,
        len: u64,
    },
}

impl Given<'_> {
    pub(super) fn len(&self) -> u64 {
        match self {
            Given::Bytes(b) => b.len() as u64,
            Given::At { len, .. } => *len,
        }
    }
}

/// `bytes`, elements of `shape`, seen as the selection's result.
pub(super) struct Broadcast<'a> {
    /// The values in memory (all of them, but for a source's values taken one for one).
    bytes: Cow<'a, [u8]>,
    /// The source of values taken one for one, not in memory.
    at: Option<(&'a (dyn ReadAt + Sync), u64)>,
    itemsize: usize,
    /// The result's shape.
    target: Vec<u64>,
    /// Per result axis, elements between consecutive values (0: repeated).
    strides: Vec<usize>,
    how: How,
}

/// How the values map onto the result.
#[derive(Clone, Copy)]
enum How {
    /// One value for every element.
    One,
    /// The same shape: element for element.
    Same,
    /// Repeated along some axes.
    Spread,
}

impl<'a> Broadcast<'a> {
    /// `bytes` (`shape`'s elements of `itemsize` bytes) broadcast to `target`, or
    /// numpy's refusal.
    pub(super) fn new(
        shape: &[u64],
        target: &[u64],
        values: Given<'a>,
        itemsize: usize,
    ) -> Result<Broadcast<'a>, ArrayError> {
        let count: u128 = shape.iter().map(|&d| u128::from(d)).product();
        if count.saturating_mul(itemsize as u128) != u128::from(values.len()) {
            return Err(ArrayError::selection(
                None,
                format!(
                    "values of shape {shape:?} hold {} bytes of {itemsize}-byte elements, found {}",
                    count.saturating_mul(itemsize as u128),
                    values.len()
                ),
            ));
        }
        let refused = || {
            ArrayError::selection(
                None,
                format!(
                    "could not broadcast input array from shape {shape:?} into shape {target:?}"
                ),
            )
        };
        // Leading axes of 1 beyond the target's go, as numpy's assignment drops them.
        let mut given = shape;
        while given.len() > target.len() && given[0] == 1 {
            given = &given[1..];
        }
        if given.len() > target.len() {
            return Err(refused());
        }
        let lead = target.len() - given.len();
        let mut strides = std::vec![0usize; target.len()];
        let mut stride = 1usize;
        for d in (0..target.len()).rev() {
            let Some(&g) = d.checked_sub(lead).and_then(|i| given.get(i)) else {
                continue;
            };
            match (g, target[d]) {
                (g, t) if g == t => {
                    strides[d] = if g == 1 { 0 } else { stride };
                    stride = stride.saturating_mul(g as usize);
                }
                (1, _) => {}
                _ => return Err(refused()),
            }
        }
        let how = match (count, given == target) {
            (1, _) => How::One,
            (_, true) => How::Same,
            _ => How::Spread,
        };
        // Values repeated are read at once: there are fewer of them than of the cells
        // they go to.
        let (bytes, at) = match (values, how) {
            (Given::Bytes(b), _) => (Cow::Borrowed(b), None),
            (Given::At { source, offset, .. }, How::Same) => {
                (Cow::Borrowed(&[][..]), Some((source, offset)))
            }
            (
                Given::At {
                    source,
                    offset,
                    len,
                },
                _,
            ) => {
                let mut b = std::vec![0u8; len as usize];
                if read_full_at(source, &mut b, offset)? < b.len() {
                    return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
                }
                (Cow::Owned(b), None)
            }
        };
        Ok(Broadcast {
            bytes,
            at,
            itemsize,
            target: target.to_vec(),
            strides,
            how,
        })
    }

    /// Copies the values of result elements `out..out + len` (C order) into `dst`.
    pub(super) fn copy(&self, out: usize, len: usize, dst: &mut [u8]) -> Result<(), ArrayError> {
        let n = self.itemsize;
        if let Some((source, offset)) = self.at {
            let at = offset + (out * n) as u64;
            if read_full_at(source, dst, at)? < dst.len() {
                return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
            }
            return Ok(());
        }
        match self.how {
            How::Same => dst.copy_from_slice(&self.bytes[out * n..(out + len) * n]),
            How::One => {
                for d in dst.chunks_exact_mut(n) {
                    d.copy_from_slice(&self.bytes);
                }
            }
            How::Spread => {
                for (j, d) in dst.chunks_exact_mut(n).enumerate() {
                    let at = self.value_of(out + j);
                    d.copy_from_slice(&self.bytes[at * n..(at + 1) * n]);
                }
            }
        }
        Ok(())
    }

    /// The value (its index) of result element `k`.
    /// Values `out..out + len` as they lie in memory, when they do (given in memory,
    /// not broadcast).
    pub(super) fn slice(&self, out: usize, len: usize) -> Option<&[u8]> {
        let n = self.itemsize;
        match (self.how, self.at) {
            (How::Same, None) => self.bytes.get(out * n..(out + len) * n),
            _ => None,
        }
    }

    /// Whether values `out..out + len` are all zero bytes (a source's read in pieces,
    /// up to the first that is not).
    pub(super) fn is_zeros(&self, out: usize, len: usize) -> Result<bool, ArrayError> {
        let zeros = |b: &[u8]| b.iter().all(|&x| x == 0);
        if let Some(bytes) = self.slice(out, len) {
            return Ok(zeros(bytes));
        }
        if self.at.is_some() {
            let piece = (64 << 10) / self.itemsize.max(1) + 1;
            let mut buf = Vec::new();
            for start in (out..out + len).step_by(piece) {
                let take = piece.min(out + len - start);
                buf.resize(take * self.itemsize, 0);
                self.copy(start, take, &mut buf)?;
                if !zeros(&buf) {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        // A broadcast takes its values from the given ones: all of them zero is
        // enough; otherwise look at each.
        if len == 0 || zeros(&self.bytes) {
            return Ok(true);
        }
        Ok((out..out + len).all(|k| {
            let at = match self.how {
                How::One => 0,
                _ => self.value_of(k),
            };
            zeros(&self.bytes[at * self.itemsize..(at + 1) * self.itemsize])
        }))
    }

    fn value_of(&self, mut k: usize) -> usize {
        let mut at = 0;
        for d in (0..self.target.len()).rev() {
            let len = self.target[d].max(1) as usize;
            at += (k % len) * self.strides[d];
            k /= len;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values a broadcast gives the whole result, as numpy's `np.broadcast_to`.
    fn spread(shape: &[u64], target: &[u64]) -> Result<Vec<u8>, ArrayError> {
        let n: u64 = shape.iter().product();
        let values: Vec<u8> = (0..n as u8).collect();
        let b = Broadcast::new(shape, target, Given::Bytes(&values), 1)?;
        let total: u64 = target.iter().product();
        let mut out = std::vec![0u8; total as usize];
        b.copy(0, total as usize, &mut out)?;
        Ok(out)
    }

    #[test]
    fn broadcasts_as_numpy_assigns() {
        // np.broadcast_to(np.arange(n).reshape(shape), target).ravel()
        assert_eq!(spread(&[3], &[2, 3]).unwrap(), [0, 1, 2, 0, 1, 2]);
        assert_eq!(spread(&[2, 1], &[2, 3]).unwrap(), [0, 0, 0, 1, 1, 1]);
        assert_eq!(spread(&[], &[2, 2]).unwrap(), [0, 0, 0, 0]);
        assert_eq!(spread(&[1, 1, 3], &[3]).unwrap(), [0, 1, 2]);
        assert_eq!(spread(&[2, 3], &[2, 3]).unwrap(), [0, 1, 2, 3, 4, 5]);
        assert_eq!(spread(&[1, 3], &[2, 1, 3]).unwrap(), [0, 1, 2, 0, 1, 2]);
        assert!(spread(&[2], &[3]).is_err());
        assert!(spread(&[2, 3], &[3]).is_err());
        assert!(spread(&[3, 1], &[2, 3]).is_err());
    }
}
