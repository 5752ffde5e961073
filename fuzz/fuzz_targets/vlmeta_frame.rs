//! Vlmeta trailers of frames with data, where C-Blosc2 finds the trailer from the
//! frame's end (not right after the header): XOR patches (`u16` offset, byte) on a real
//! python-blosc2 frame, each patch at a byte of its trailer (offset's top bit set) or
//! anywhere in it. The first byte picks the frame: 14 values of every kind, the codecs,
//! or issue 31's hostile trailers (512 special-value chunks of 64 MiB; 64 chunks that
//! each decode to a 64 MiB bin). Reading the header, the trailer and every value gives
//! `Ok` or an error, never a panic, and spends at most the decode budget; the trailer
//! read from memory and through a reader agree.
#![no_main]

use std::io::Cursor;

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::frame;
use libfuzzer_sys::fuzz_target;

const SMALL: &[u8] = include_bytes!("../../tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
const CODECS: &[u8] = include_bytes!("../../tests/data/values/blosc2-4.14.1/vlmeta_codecs.b2nd");
const SPECIAL: &[u8] =
    include_bytes!("../../tests/data/regression/issue31/vlmeta_512_special.b2nd");
const BINS: &[u8] = include_bytes!("../../tests/data/regression/issue31/vlmeta_64_bins.b2nd");

/// The decode budget of each input: what it may cost, whatever it claims. Below the
/// 64 MiB each hostile value claims, so those are refused before anything is made
/// (`-malloc_limit_mb=17` makes any allocation past it a finding), and fast.
const BUDGET: u64 = 16 << 20;

/// Where the trailer of a frame whose last 25 bytes are C's starts (its length is the
/// uint32 after their `0xce`), when it does.
fn trailer_start(frame: &[u8]) -> Option<usize> {
    let tail = frame.len().checked_sub(23)?;
    let len = u32::from_be_bytes(frame.get(tail + 1..tail + 5)?.try_into().ok()?);
    frame.len().checked_sub(len as usize)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, patches)) = data.split_first() else {
        return;
    };
    let base = match mode % 4 {
        0 => SMALL,
        1 => CODECS,
        2 => SPECIAL,
        _ => BINS,
    };
    let mut bytes = base.to_vec();
    let trailer = trailer_start(base).unwrap_or(0);
    for p in patches.chunks_exact(3) {
        let offset = u16::from_le_bytes([p[0], p[1]]);
        let at = match offset & 0x8000 {
            0 => usize::from(offset) % bytes.len(),
            _ => trailer + usize::from(offset & 0x7fff) % (bytes.len() - trailer),
        };
        bytes[at] ^= p[2];
    }
    let Ok(header) = frame::parse_header(&bytes) else {
        return;
    };
    let parsed = frame::parse_trailer(&bytes, &header);
    let read = frame::read_trailer(Cursor::new(&bytes), &header);
    match (&parsed, &read) {
        (Ok(p), Ok(r)) => assert_eq!(p, r),
        (Err(p), Err(r)) => assert_eq!(p.to_string(), r.to_string()),
        _ => panic!("parse_trailer: {parsed:?}, read_trailer: {read:?}"),
    }
    let budget = DecodeBudget::new(BUDGET);
    if let Ok(trailer) = parsed {
        for vl in &trailer.vlmetalayers {
            match vl.value_within(&budget) {
                Ok(value) => {
                    let _ = value.to_msgpack();
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
    assert!(budget.spent() <= BUDGET);
});
