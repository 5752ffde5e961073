//! The chunk compressor against C-Blosc2: every chunk we write is decoded by C-Blosc2
//! 3.3.5 (python-blosc2 4.14.1's library, `c335.rs`) to what C's own chunk of the same
//! input decodes to (the input, but where precision is truncated), and by our decoder;
//! where the codec's output is ours to match (BloscLZ and LZ4, which follow C's; the
//! layout of every chunk: header, block starts, runs, fallbacks), the chunk is C-Blosc2
//! 3.3.5's own, byte for byte.

mod c215;
mod c335;
mod cases;
mod properties;
mod sizes;
mod threads;

use b2nd_meta::blosc::{Codec, Filter};
use b2nd_meta::chunk::{self, CParams};
use c335::CCase;

/// The C parameters of ours (each name's id from `blosc`, whose table of names is
/// checked against python-blosc2's).
fn c_case(p: &CParams) -> CCase {
    CCase {
        compcode: p.codec.id().expect("a codec with an id"),
        clevel: p.clevel,
        typesize: p.typesize as i32,
        blocksize: p.blocksize as i32,
        splitmode: i32::from(p.splitmode.id()),
        filters: p.filters.map(|(f, _)| f.id()),
        filters_meta: p.filters.map(|(_, m)| m),
    }
}

/// One compared case: our chunk and C's answers.
struct Compared {
    ours: Vec<u8>,
    c: c335::CAnswer,
}

/// Whether C-Blosc2 3.3.5 writes the third filter's output over the input block
/// (`pipeline_forward` cycles its three buffers through `src`), so that its delta of
/// later blocks reads changed bytes and its own chunk does not decode to the input.
/// Ours keeps the input as given; C decodes our chunks of such pipelines to it.
pub fn c_overwrites_input(p: &CParams) -> bool {
    p.filters.iter().filter(|(f, _)| *f != Filter::None).count() >= 3
}

/// Where two byte strings first differ, and their lengths (not the whole strings).
fn differs(a: &[u8], b: &[u8]) -> Option<String> {
    (a != b).then(|| {
        let at = a.iter().zip(b).position(|(x, y)| x != y);
        format!(
            "lengths {} and {}, first difference at {at:?}",
            a.len(),
            b.len()
        )
    })
}

/// Compresses each case with ours and with C-Blosc2 3.3.5, and checks that C decodes
/// our chunk, and our decoder decodes it, to what C's chunk decodes to; `None` without
/// the library.
fn run(cases: &[(CParams, Vec<u8>)]) -> Option<Vec<Compared>> {
    let mut jobs = Vec::new();
    for (p, src) in cases {
        let chunk = chunk::compress(src, p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        jobs.push((c_case(p), src.clone(), chunk));
    }
    let Some(answers) = c335::answers(&jobs) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "C-Blosc2 3.3.5 is required in CI (.ci/references installs it)"
        );
        eprintln!(
            "C-Blosc2 3.3.5 (libblosc2.so of python-blosc2 4.14.1) not found: run .ci/references"
        );
        return None;
    };
    let mut all = Vec::new();
    for ((_, src, ours), c) in jobs.into_iter().zip(answers) {
        let p = &cases[all.len()].0;
        assert!(!c.chunk.is_empty(), "C-Blosc2 3.3.5 refused {p:?}");
        // C-Blosc2 refuses some of its own chunks (bytedelta of 255-byte groups over
        // types it caps to 1 byte): then only ours are checked.
        let own = c.own.clone().ok();
        let decoded_by_c = c
            .decoded
            .clone()
            .unwrap_or_else(|rc| panic!("C: {rc} on ours, {p:?}"));
        let decoded = chunk::decode(
            &ours,
            &chunk::DecodeBudget::unlimited().with_max_chunk(u32::MAX),
        )
        .unwrap_or_else(|e| panic!("{p:?}: {e}"));
        if let Some(d) = differs(&decoded, &decoded_by_c) {
            panic!("our decoder and C-Blosc2 3.3.5 decode ours differently: {d}; {p:?}");
        }
        // Truncated precision is lost when a chunk falls back to its input as it is
        // (memcpyed), which C and we may decide differently (the codecs differ).
        let memcpyed = |chunk: &[u8]| chunk[2] & 0x02 != 0;
        let truncates = p.filters.iter().any(|(f, _)| *f == Filter::TruncPrec);
        let expected = match (truncates, memcpyed(&ours), memcpyed(&c.chunk)) {
            (false, _, _) | (true, true, _) => Some(&src),
            (true, false, false) => own.as_ref(),
            (true, false, true) => None,
        };
        if let Some(d) = expected.and_then(|expected| differs(&decoded, expected)) {
            panic!("ours decodes to other bytes than C's chunk: {d}; {p:?}");
        }
        if let Some(own) = own
            .as_ref()
            .filter(|_| !truncates && !c_overwrites_input(p))
        {
            assert!(differs(own, &src).is_none(), "C's own round trip, {p:?}");
        }
        all.push(Compared { ours, c });
    }
    Some(all)
}

/// The codecs whose compressors follow C's bundled ones step for step (and zlib with
/// the `zlib-rs` feature: zlib-ng's deflate, which C-Blosc2 3.3.5 links).
#[cfg(not(feature = "zlib-rs"))]
pub const EXACT: &[Codec] = &[Codec::BloscLz, Codec::Lz4];
#[cfg(feature = "zlib-rs")]
pub const EXACT: &[Codec] = &[Codec::BloscLz, Codec::Lz4, Codec::Zlib];

#[test]
fn blosclz_and_lz4_chunks_are_c_blosc2_335s_bytes() {
    assert_c_bytes(&cases::all(EXACT));
}

/// LZ4HC at levels 3 to 8 runs LZ4 1.10's own loop (`LZ4HC_compress_hashChain`): the
/// cases' levels 1, 5 and 9 as 3, 5 and 8.
#[test]
fn lz4hc_chunks_at_levels_3_to_8_are_c_blosc2_335s_bytes() {
    let cases: Vec<(CParams, Vec<u8>)> = cases::all(&[Codec::Lz4Hc])
        .into_iter()
        .filter(|(p, _)| p.clevel > 0)
        .map(|(mut p, data)| {
            p.clevel = match p.clevel {
                1 => 3,
                9 => 8,
                level => level,
            };
            (p, data)
        })
        .collect();
    assert_c_bytes(&cases);
}

/// Every case's chunk is C's, byte for byte.
fn assert_c_bytes(cases: &[(CParams, Vec<u8>)]) {
    let Some(results) = run(cases) else { return };
    let differ: Vec<String> = cases
        .iter()
        .zip(&results)
        .filter_map(|((p, _), r)| differs(&r.ours, &r.c.chunk).map(|d| format!("{p:?}: {d}")))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} chunks differ from C's:\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );
}

#[test]
fn chunk_layout_is_c_blosc2_335s_for_every_codec() {
    let cases = cases::all(&[Codec::Lz4Hc, Codec::Zlib, Codec::Zstd]);
    let Some(results) = run(&cases) else { return };
    for ((p, _), r) in cases.iter().zip(&results) {
        // All but cbytes (bytes 12..16), when both chose to compress.
        let memcpyed = |chunk: &[u8]| chunk[2] & 0x02 != 0;
        if memcpyed(&r.ours) == memcpyed(&r.c.chunk) && r.ours.len() > 32 && r.c.chunk.len() > 32 {
            assert_eq!(r.ours[..12], r.c.chunk[..12], "{p:?}");
            assert_eq!(r.ours[16..32], r.c.chunk[16..32], "{p:?}");
        }
    }
}

#[test]
fn c_blosc2_215_decodes_our_chunks_to_their_input() {
    // Its codecs (no zlib, no plugins: no bytedelta) over the cases without truncated
    // precision (lossy), with delta only as the last filter undone (2.x undoes an
    // earlier one from a stale buffer), no shuffle by groups (a 3.x meta).
    let cases: Vec<(CParams, Vec<u8>)> =
        cases::all(&[Codec::BloscLz, Codec::Lz4, Codec::Lz4Hc, Codec::Zstd])
            .into_iter()
            .filter(|(p, _)| {
                let active: Vec<Filter> = p
                    .filters
                    .iter()
                    .map(|(f, _)| *f)
                    .filter(|f| *f != Filter::None)
                    .collect();
                !active
                    .iter()
                    .any(|f| matches!(f, Filter::TruncPrec | Filter::ByteDelta))
                    && !active.iter().skip(1).any(|f| *f == Filter::Delta)
                    && p.filters
                        .iter()
                        .all(|&(f, m)| f != Filter::Shuffle || m == 0)
            })
            .collect();
    let chunks: Vec<(Vec<u8>, usize)> = cases
        .iter()
        .map(|(p, src)| (chunk::compress(src, p).unwrap(), src.len()))
        .collect();
    for ((p, src), decoded) in cases.iter().zip(c215::decode_all(&chunks)) {
        let decoded = decoded.unwrap_or_else(|rc| panic!("C-Blosc2 2.15.3: {rc}, {p:?}"));
        assert!(differs(&decoded, src).is_none(), "C-Blosc2 2.15.3, {p:?}");
    }
}
