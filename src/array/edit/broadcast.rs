//! Values assigned to a selection, broadcast to its shape as numpy broadcasts an
//! assignment: shapes aligned on their last axes, an axis of 1 (or a missing one)
//! repeated, leading axes of 1 dropped.

use std::format;
use std::vec::Vec;

use crate::array::error::ArrayError;

/// `bytes`, elements of `shape`, seen as the selection's result.
pub(super) struct Broadcast<'a> {
    bytes: &'a [u8],
    itemsize: usize,
    /// The result's shape.
    target: Vec<u64>,
    /// Per result axis, elements between consecutive values (0: repeated).
    strides: Vec<usize>,
    how: How,
}

/// How the values map onto the result.
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
        bytes: &'a [u8],
        itemsize: usize,
    ) -> Result<Broadcast<'a>, ArrayError> {
        let count: u128 = shape.iter().map(|&d| u128::from(d)).product();
        if count.saturating_mul(itemsize as u128) != bytes.len() as u128 {
            return Err(ArrayError::selection(
                None,
                format!(
                    "values of shape {shape:?} hold {} bytes of {itemsize}-byte elements, found {}",
                    count.saturating_mul(itemsize as u128),
                    bytes.len()
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
        Ok(Broadcast {
            bytes,
            itemsize,
            target: target.to_vec(),
            strides,
            how,
        })
    }

    /// Copies the values of result elements `out..out + len` (C order) into `dst`.
    pub(super) fn copy(&self, out: usize, len: usize, dst: &mut [u8]) {
        let n = self.itemsize;
        match self.how {
            How::Same => dst.copy_from_slice(&self.bytes[out * n..(out + len) * n]),
            How::One => {
                for d in dst.chunks_exact_mut(n) {
                    d.copy_from_slice(self.bytes);
                }
            }
            How::Spread => {
                for (j, d) in dst.chunks_exact_mut(n).enumerate() {
                    let at = self.value_of(out + j);
                    d.copy_from_slice(&self.bytes[at * n..(at + 1) * n]);
                }
            }
        }
    }

    /// The value (its index) of result element `k`.
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
        let b = Broadcast::new(shape, target, &values, 1)?;
        let total: u64 = target.iter().product();
        let mut out = std::vec![0u8; total as usize];
        b.copy(0, total as usize, &mut out);
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
