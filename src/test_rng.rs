//! The unit tests' seeded noise: xorshift64 (Marsaglia's shifts 13, 7, 17), the same
//! bytes on every machine and no dependency.

/// A xorshift64 generator; a seed of 0 is taken as 1 (0 would stay 0).
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new(seed: u64) -> XorShift {
        XorShift(seed | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (not 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `len` bytes, each the low byte of the next number.
    pub(crate) fn bytes(&mut self, len: usize) -> alloc::vec::Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}
