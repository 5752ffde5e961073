//! Deflate's fixed tables (RFC 1951, 3.2.5-3.2.6) and the bit writer.

use alloc::vec::Vec;

/// Length codes (257-285 less 257), distance codes and bit-length codes.
pub(super) const LENGTH_CODES: usize = 29;
pub(super) const D_CODES: usize = 30;
pub(super) const BL_CODES: usize = 19;
/// Literals and the end of block, then the length codes.
pub(super) const L_CODES: usize = 256 + 1 + LENGTH_CODES;
pub(super) const END_BLOCK: usize = 256;

pub(super) const EXTRA_LBITS: [u8; LENGTH_CODES] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
pub(super) const EXTRA_DBITS: [u8; D_CODES] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
pub(super) const EXTRA_BLBITS: [u8; BL_CODES] =
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7];
/// The order the bit-length code lengths are sent in.
pub(super) const BL_ORDER: [u8; BL_CODES] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Each length code's first length less 3, and the code of each length less 3 (255,
/// the length 258, has its own code 28 rather than 27's last value).
const fn length_tables() -> ([u8; LENGTH_CODES], [u8; 256]) {
    let (mut base, mut code_of) = ([0u8; LENGTH_CODES], [0u8; 256]);
    let (mut length, mut code) = (0usize, 0);
    while code < LENGTH_CODES - 1 {
        base[code] = length as u8;
        let mut n = 0;
        while n < 1 << EXTRA_LBITS[code] {
            code_of[length] = code as u8;
            length += 1;
            n += 1;
        }
        code += 1;
    }
    base[LENGTH_CODES - 1] = 255;
    code_of[255] = (LENGTH_CODES - 1) as u8;
    (base, code_of)
}

/// Each distance code's first distance less 1, and the code of distances less 1: the
/// first 256 directly, the rest by their value >> 7 from index 256.
const fn dist_tables() -> ([u16; D_CODES], [u8; 512]) {
    let (mut base, mut code_of) = ([0u16; D_CODES], [0u8; 512]);
    let (mut dist, mut code) = (0usize, 0);
    while code < 16 {
        base[code] = dist as u16;
        let mut n = 0;
        while n < 1 << EXTRA_DBITS[code] {
            code_of[dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    dist >>= 7;
    while code < D_CODES {
        base[code] = (dist << 7) as u16;
        let mut n = 0;
        while n < 1 << (EXTRA_DBITS[code] - 7) {
            code_of[256 + dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    (base, code_of)
}

const LENGTH: ([u8; LENGTH_CODES], [u8; 256]) = length_tables();
const DIST: ([u16; D_CODES], [u8; 512]) = dist_tables();

/// The length code (0-28) of a match length less 3.
pub(super) fn length_code(len3: u8) -> usize {
    LENGTH.1[usize::from(len3)] as usize
}

/// The first length less 3 of a length code.
pub(super) fn length_base(code: usize) -> u8 {
    LENGTH.0[code]
}

/// The first distance less 1 of a distance code.
pub(super) fn dist_base(code: usize) -> u16 {
    DIST.0[code]
}

/// The distance code of a distance less 1 (below 32 Ki).
pub(super) fn dist_code(dist1: u16) -> usize {
    let d = usize::from(dist1);
    let i = if d < 256 { d } else { 256 + (d >> 7) };
    DIST.1[i & 511] as usize
}

/// The fixed literal/length code lengths (3.2.6).
pub(super) const STATIC_LLEN: [u8; L_CODES + 2] = {
    let mut l = [8u8; L_CODES + 2];
    let mut n = 144;
    while n < 256 {
        l[n] = 9;
        n += 1;
    }
    while n < 280 {
        l[n] = 7;
        n += 1;
    }
    l
};
/// The fixed distance code length.
pub(super) const STATIC_DLEN: u8 = 5;

/// A code's bits as sent (reversed, first bit lowest) and its length.
#[derive(Clone, Copy, Default)]
pub(super) struct Code {
    pub bits: u16,
    pub len: u8,
}

/// The canonical codes of `lens` (bit-reversed, as deflate sends them).
pub(super) fn canonical_codes(lens: &[u8], codes: &mut [Code]) {
    let mut bl_count = [0u16; 16];
    for &l in lens {
        bl_count[usize::from(l)] += 1;
    }
    bl_count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + bl_count[bits - 1]) << 1;
        next[bits] = code;
    }
    for (c, &l) in codes.iter_mut().zip(lens) {
        if l != 0 {
            let n = &mut next[usize::from(l)];
            *c = Code {
                bits: n.reverse_bits() >> (16 - l),
                len: l,
            };
            *n += 1;
        }
    }
}

/// The fixed literal/length codes and distance codes.
pub(super) struct StaticCodes {
    pub lit: [Code; L_CODES + 2],
    pub dist: [Code; D_CODES],
}

pub(super) fn static_codes() -> StaticCodes {
    let mut s = StaticCodes {
        lit: [Code::default(); L_CODES + 2],
        dist: [Code::default(); D_CODES],
    };
    canonical_codes(&STATIC_LLEN, &mut s.lit);
    canonical_codes(&[STATIC_DLEN; D_CODES], &mut s.dist);
    s
}

/// Bits appended to a byte vector, first bit lowest, 64 at a time.
pub(super) struct BitWriter<'a> {
    pub out: &'a mut Vec<u8>,
    buf: u64,
    /// Bits held in `buf`, below 64.
    n: u32,
}

impl<'a> BitWriter<'a> {
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter { out, buf: 0, n: 0 }
    }

    /// Sends the `len` (at most 57) low bits of `val`.
    #[inline(always)]
    pub fn send(&mut self, val: u64, len: u32) {
        let total = self.n + len;
        self.buf |= val << self.n;
        if total < 64 {
            self.n = total;
        } else {
            self.out.extend_from_slice(&self.buf.to_le_bytes());
            // n > 0 here: len alone is below 64.
            self.buf = val >> (64 - self.n);
            self.n = total - 64;
        }
    }

    #[inline(always)]
    pub fn code(&mut self, c: Code) {
        self.send(u64::from(c.bits), u32::from(c.len));
    }

    /// Pads to a byte boundary with zero bits.
    pub fn align(&mut self) {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.buf.to_le_bytes()[..bytes]);
        self.buf = 0;
        self.n = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables against values of RFC 1951 3.2.5.
    #[test]
    fn tables() {
        assert_eq!(
            (
                length_code(0),
                length_code(8),
                length_code(254),
                length_code(255)
            ),
            (0, 8, 27, 28)
        );
        assert_eq!((LENGTH.0[8], LENGTH.0[27]), (8, 224));
        assert_eq!(
            (
                dist_code(0),
                dist_code(4),
                dist_code(255),
                dist_code(256),
                dist_code(32767)
            ),
            (0, 4, 15, 16, 29)
        );
        assert_eq!((DIST.0[4], DIST.0[16], DIST.0[29]), (4, 256, 24576));
        let s = static_codes();
        // 0 is 00110000 and 256 is 0000000, both reversed.
        assert_eq!((s.lit[0].bits, s.lit[0].len), (0b00001100, 8));
        assert_eq!((s.lit[256].bits, s.lit[256].len), (0, 7));
        assert_eq!((s.dist[1].bits, s.dist[1].len), (0b10000, 5));
    }
}
