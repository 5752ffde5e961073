//! Our streams decode to their input (miniz_oxide) and, with the `zlib-rs` feature,
//! are zlib-rs's (zlib-ng's) bytes.

use super::*;
use alloc::vec;

use crate::test_rng::XorShift as Rng;

/// Our stream of `src` at `level`, checked to decode back to `src`, and (with the
/// `zlib-rs` feature) to be zlib-rs's stream byte for byte.
fn check(level: u8, src: &[u8]) -> Vec<u8> {
    let mut out = vec![1, 2];
    assert!(compress(level, src, usize::MAX - 2, &mut out));
    let stream = out.split_off(2);
    assert_eq!(out, [1, 2]);
    let back = miniz_oxide::inflate::decompress_to_vec_zlib(&stream).expect("inflates");
    assert!(
        back == src,
        "level {level}, {} bytes: decodes to other bytes",
        src.len()
    );
    #[cfg(feature = "zlib-rs")]
    {
        let mut buf = vec![0; src.len() * 2 + 100];
        let config = zlib_rs::DeflateConfig::new(i32::from(level));
        let (theirs, rc) = zlib_rs::compress_slice(&mut buf, src, config);
        assert_eq!(rc, zlib_rs::ReturnCode::Ok);
        if stream != theirs {
            let at = stream.iter().zip(theirs.iter()).position(|(a, b)| a != b);
            panic!(
                "level {level}, {} bytes: ours {} bytes, zlib-rs {}, first difference at {at:?}",
                src.len(),
                stream.len(),
                theirs.len()
            );
        }
    }
    stream
}

/// Segments of random bytes, runs, small alphabets, ramps and copies of earlier
/// bytes from near and far (up to and past the 32 KiB window).
fn structured(rng: &mut Rng, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 300);
    while v.len() < n {
        let most = if rng.below(4) == 0 { 3000 } else { 40 };
        let len = 1 + rng.below(most);
        match rng.below(6) {
            0 => v.extend(rng.bytes(len)),
            1 => v.extend(core::iter::repeat_n(rng.next_u64() as u8, len)),
            2 => {
                let k = 1 + rng.below(4) as u64;
                v.extend((0..len).map(|_| b'a' + (rng.next_u64() % k) as u8));
            }
            3 => {
                let (start, step) = (rng.next_u64() as u32, rng.below(5) as u32);
                v.extend((0..len as u32 / 4 + 1).flat_map(|i| (start + i * step).to_le_bytes()));
            }
            _ if !v.is_empty() => {
                let far = [8, 300, 4000, 32_000, 32_506, 32_507, 32_768, 40_000][rng.below(8)];
                let dist = 1 + rng.below(v.len().min(far));
                for _ in 0..len {
                    v.push(v[v.len() - dist]);
                }
            }
            _ => {}
        }
    }
    v.truncate(n);
    v
}

#[test]
fn empty() {
    for level in 3..=6 {
        assert_eq!(
            check(level, b""),
            [0x78, if level == 6 { 0x9c } else { 0x5e }, 3, 0, 0, 0, 0, 1]
        );
    }
}

#[test]
fn one_byte() {
    for level in 3..=6 {
        check(level, b"x");
    }
}

#[test]
fn all_equal() {
    for n in [2, 3, 4, 5, 258, 262, 263, 1000, 65_536, 200_000] {
        check(5, &vec![7u8; n]);
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng::new(1);
    for n in [10, 1000, 70_000] {
        let src = rng.bytes(n);
        for level in 3..=6 {
            check(level, &src);
        }
    }
}

#[test]
fn long_runs() {
    let src: Vec<u8> = (0..100_000u32).map(|i| (i / 1000) as u8).collect();
    for level in 3..=6 {
        check(level, &src);
    }
}

#[test]
fn far_matches() {
    let mut rng = Rng::new(2);
    let a = rng.bytes(32_600);
    let src = [&a[..], &a[..], &a[..500], &a[..]].concat();
    for level in 3..=6 {
        check(level, &src);
    }
}

#[test]
fn text_256k() {
    let text: Vec<u8> = (0..256 * 1024u32)
        .map(|i| {
            b"the quick brown fox jumps over the lazy dog "[(i * 7 % 45 + i / 999) as usize % 44]
        })
        .collect();
    for level in 3..=6 {
        check(level, &text);
    }
}

/// Output over `maxout` is refused and leaves `out` as it was; the state is reused.
#[test]
fn maxout() {
    let mut rng = Rng::new(3);
    let src = rng.bytes(50_000);
    let mut out = vec![9];
    assert!(!compress(5, &src, 40_000, &mut out));
    assert_eq!(out, [9]);
    check(5, &structured(&mut rng, 5000));
}

/// Seeded random structured inputs of all sizes, at each level.
#[test]
fn structured_inputs() {
    let mut rng = Rng::new(0x5eed);
    for case in 0..160 {
        let n = match case % 4 {
            0 => rng.below(600),
            1 => rng.below(20_000),
            2 => 60_000 + rng.below(10_000),
            _ => rng.below(300_000),
        };
        let src = structured(&mut rng, n);
        check(3 + (case % 4) as u8, &src);
    }
}

#[test]
fn adler() {
    assert_eq!(adler32(b""), 1);
    assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    for n in [1, 15, 16, 17, 5551, 5552, 5553, 100_000] {
        let d: Vec<u8> = (0..n).map(|i| 255 - (i % 7) as u8).collect();
        assert_eq!(adler32(&d), adler_slow(&d), "{n} bytes");
    }
}

fn adler_slow(d: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in d {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    b << 16 | a
}
