//! Filter pipelines checked before anything is written: one whose chunks C-Blosc2 3.3.5
//! (python-blosc2 4.14.1) does not read back exactly is refused with the reason, so that
//! no file is written whose values are lost.
//!
//! What C does (`pipeline_forward` / `pipeline_backward` in `blosc/blosc2.c`): DELTA
//! XORs each block after the first with the chunk's first block as it was given, before
//! any filter, while undoing it XORs with the first block of the output, decoded; on
//! several threads, the other blocks wait only for the first block's DELTA to be undone,
//! not the filters undone after it. So DELTA reads back only as the first filter of the
//! pipeline (the first applied, the last undone), and once: after another filter, or
//! twice, the values read back differ (always on several threads, python's default).
//! TRUNC_PREC before DELTA changes the first block DELTA refers to, after it it
//! truncates the XORed bits: neither reads back as the truncated values. And where
//! three filters of which some do nothing for the type size (shuffle and bitshuffle of
//! 1-byte items, bytedelta of 2-byte ones) hand their buffers on, C undoes them into a
//! buffer other than the one the next reads: every pipeline is therefore also tried on
//! a probe chunk, compressed and decoded by this crate as C decodes it.
//!
//! A filter's meta is stored in a byte, but python-blosc2 reads it back as an `int8_t`
//! (`update_cparams` in `blosc2_ext.pyx`) and cannot open a file with one over 127.

use std::format;
use std::string::String;
use std::vec::Vec;

use crate::blosc::{Filter, MAX_FILTERS};
use crate::chunk::{self, CParams};

/// Whether pipelines are checked: always, but with the `repo-tests` feature
/// `B2ND_META_UNCHECKED_PIPELINES=1` turns the check off, so that the
/// pipelines fixture's generate script can ask python-blosc2 what it reads back of every
/// pipeline this crate writes.
pub(crate) fn on() -> bool {
    #[cfg(feature = "repo-tests")]
    if std::env::var_os("B2ND_META_UNCHECKED_PIPELINES").is_some_and(|v| v == "1") {
        return false;
    }
    true
}

/// The largest filter meta python-blosc2 opens.
const MAX_META: u8 = 127;

/// Why `filters` (slot 0 first, the order they are applied in) are refused, if they are.
pub(crate) fn refusal(filters: &[(Filter, u8); MAX_FILTERS]) -> Option<String> {
    let active: Vec<(usize, Filter, u8)> = filters
        .iter()
        .enumerate()
        .filter(|(_, (f, _))| *f != Filter::None)
        .map(|(slot, &(f, m))| (slot, f, m))
        .collect();
    if let Some((slot, f, meta)) = active.iter().find(|(_, _, m)| *m > MAX_META) {
        return Some(format!(
            "filter {} in slot {slot} has meta {meta}: python-blosc2 reads a filter's meta as an int8_t and cannot open a file with one over {MAX_META}",
            f.name().unwrap_or("?")
        ));
    }
    let deltas = active
        .iter()
        .filter(|(_, f, _)| *f == Filter::Delta)
        .count();
    if deltas > 1 {
        return Some(format!(
            "{deltas} delta filters: C-Blosc2 reads back a pipeline with one delta only"
        ));
    }
    let delta = active.iter().position(|(_, f, _)| *f == Filter::Delta);
    if let Some(at) = delta {
        if at > 0 {
            let (_, before, _) = active[0];
            return Some(format!(
                "delta after {}: C-Blosc2 reads back delta only as the first filter applied",
                before.name().unwrap_or("?")
            ));
        }
        if active.iter().any(|(_, f, _)| *f == Filter::TruncPrec) {
            return Some(
                "delta with trunc_prec: the values read back are not the truncated ones".into(),
            );
        }
    }
    None
}

/// Whether a probe chunk of `params` (two blocks of varied bytes, or one) compressed by
/// this crate decodes, as C-Blosc2 decodes it, to what was compressed.
pub(crate) fn reads_back(params: &CParams) -> bool {
    let block = params.blocksize.max(params.typesize);
    let len = block.saturating_mul(2).min(1 << 20);
    let len = len - len % params.typesize.max(1);
    // Varied, compressible bytes: a counter in each item's low byte, noise in the rest.
    let mut seed = 0x9e37_79b9u32;
    let probe: Vec<u8> = (0..len)
        .map(|i| match i % params.typesize {
            0 => (i / params.typesize) as u8,
            _ => {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (seed & 0x0f) as u8
            }
        })
        .collect();
    let Ok(stored) = chunk::compress(&probe, params) else {
        return false;
    };
    let Ok(back) = chunk::decode(&stored, &chunk::DecodeBudget::default()) else {
        return false;
    };
    // A chunk stored as is (level 0, or bytes that do not compress) went through no
    // filter: its values are the probe's, truncated or not.
    if back == probe {
        return true;
    }
    // Truncation is meant to change the values: compare with them truncated.
    let mut expected = probe;
    for &(filter, meta) in &params.filters {
        if filter == Filter::TruncPrec {
            let Some(t) = truncated(&expected, params.typesize, meta) else {
                return false;
            };
            expected = t;
        }
    }
    back == expected
}

/// `bytes` with each `typesize`-byte float's mantissa cut as TRUNC_PREC cuts it.
fn truncated(bytes: &[u8], typesize: usize, meta: u8) -> Option<Vec<u8>> {
    let mut out = bytes.to_vec();
    chunk::trunc_prec(meta, typesize, bytes, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Filter::{BitShuffle, ByteDelta, Delta, Shuffle, TruncPrec};

    fn pipeline(filters: &[(Filter, u8)]) -> [(Filter, u8); MAX_FILTERS] {
        let mut all = [(Filter::None, 0); MAX_FILTERS];
        all[..filters.len()].copy_from_slice(filters);
        all
    }

    /// One line a pipeline: refused or not (slot 0 first).
    #[test]
    fn pipelines_refused_and_why() {
        for (filters, refused) in [
            (&[(Shuffle, 0)][..], None),
            (&[(Delta, 0), (Shuffle, 0)], None),
            (&[(Delta, 0), (ByteDelta, 4), (BitShuffle, 0)], None),
            (&[(TruncPrec, 10), (Shuffle, 0)], None),
            (&[(Shuffle, 127)], None),
            (&[(Shuffle, 128)], Some("filter shuffle in slot 0 has meta 128: python-blosc2 reads a filter's meta as an int8_t and cannot open a file with one over 127")),
            (&[(Delta, 0), (Delta, 0)], Some("2 delta filters: C-Blosc2 reads back a pipeline with one delta only")),
            (&[(Delta, 0), (ByteDelta, 0), (Delta, 0), (Shuffle, 0)], Some("2 delta filters: C-Blosc2 reads back a pipeline with one delta only")),
            (&[(BitShuffle, 0), (Delta, 0)], Some("delta after bitshuffle: C-Blosc2 reads back delta only as the first filter applied")),
            (&[(ByteDelta, 0), (Delta, 0)], Some("delta after bytedelta: C-Blosc2 reads back delta only as the first filter applied")),
            (&[(Delta, 0), (TruncPrec, 10)], Some("delta with trunc_prec: the values read back are not the truncated ones")),
        ] {
            assert_eq!(refusal(&pipeline(filters)).as_deref(), refused, "{filters:?}");
        }
    }
}
