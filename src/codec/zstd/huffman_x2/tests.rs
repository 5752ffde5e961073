//! The fast loop on every unit of this CPU against the plain code.

use alloc::vec;
use alloc::vec::Vec;

use proptest::collection::vec as bytes;
use proptest::prelude::*;

use super::{copy_table, streams_in, Fast4, Rounds, STREAMS_AT, STREAMS_ROOM, WORK};
use crate::simd::Unit;

/// Where the streams read and write, and their bits, after the rounds (or the refusal).
type State = Result<([usize; 4], [usize; 4], [u64; 4]), &'static str>;

/// The output and the streams' state after the rounds of `unit`, on the streams
/// where they are (followed by other bytes) or on their copy.
fn rounds_on(
    unit: Unit,
    src: &[u8],
    starts: [usize; 4],
    len: usize,
    table: &[u32; 2048],
    in_place: bool,
) -> Option<(Vec<u8>, State)> {
    let f = Fast4::start(src, starts, len)?;
    let mut buf = vec![0u8; WORK];
    let (work, copy) = buf.split_first_chunk_mut::<STREAMS_AT>()?;
    let mut window = src.to_vec();
    if in_place {
        window.resize(STREAMS_ROOM, 0xa5);
    }
    let streams = streams_in((src, &window), copy)?;
    // Read where they are exactly when the window holds the longest streams.
    assert_eq!(core::ptr::eq(streams.as_ptr(), window.as_ptr()), in_place);
    copy_table(work, table).ok()?;
    let end = unit.run(Rounds {
        work,
        streams,
        len,
        f,
    });
    buf.truncate(len);
    Some((buf, end.map(|f| (f.ip, f.op, f.bits))))
}

proptest! {
    /// Random tables (one or two literals, 1 to 11 bits an entry), streams of 8 bytes
    /// or more and odd output lengths: every unit writes and reads as the plain code.
    #[test]
    fn every_unit_as_the_plain_code(
        entries in bytes((any::<u16>(), 1u32..=11, 1u32..=2), 2048),
        src in bytes(any::<u8>(), 32..3000),
        cuts in (0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0),
        len in 1usize..12_000,
    ) {
        let table: [u32; 2048] = core::array::from_fn(|i| {
            let (symbols, bits, count) = entries[i];
            super::table::entry(u32::from(symbols), bits, count)
        });
        // Stream starts 8 bytes or more apart, in order.
        let room = src.len() - 32;
        let mut at = [cuts.0, cuts.1, cuts.2].map(|c| (c * room as f64) as usize);
        at.sort_unstable();
        let starts = [0, 8 + at[0], 16 + at[1], 24 + at[2]];
        let plain = rounds_on(Unit::Plain, &src, starts, len, &table, false);
        for unit in Unit::all() {
            for in_place in [false, true] {
                prop_assert_eq!(
                    &rounds_on(unit, &src, starts, len, &table, in_place),
                    &plain,
                    "{:?} in place: {}",
                    unit,
                    in_place
                );
            }
        }
    }
}
