//! A vlmeta write stopped at every kind of instant (after any number of bytes written,
//! syncs and truncations: `update_stopping_after`, the writer's own fault injection)
//! leaves a frame C-Blosc2 opens from its path, whose vlmeta is exactly the old set or
//! the new one, and whose chunks and offsets index are byte for byte what they were.
//!
//! A frame without data (`nbytes` 0) is replaced by a new file instead (staged as
//! `.<name>.b2nd-meta.<pid>.<n>.tmp`, renamed over it): stopped anywhere, the path names the old file or
//! the new one, and at most the staging file is left beside it.
//!
//! 200 stops by default; `VLMETA_CRASH_STOPS=2000 cargo test --all-features --test frame vlmeta_crash`
//! for more. (tests/cli/vlmeta_kill.rs kills the CLI at random instants too.)

use std::path::Path;

use b2nd_meta::frame;
use b2nd_meta::vlmeta::{self, update_stopping_after, VlmetaChange, VlmetaOptions};

use super::c_vlmeta::{c_read, CRead};
use crate::common::scratch::{sha256_hex, Scratch};

/// The sha256 of the data region, `header_len..` the end of the offsets index, and of
/// the header outside `frame_len` and the has-vlmetalayers byte.
fn data_digest(path: &Path) -> (String, String) {
    let f = frame::open(path).unwrap();
    let bytes = std::fs::read(&f.header_path).unwrap();
    let header_len = f.header.info.header_len as usize;
    let trailer = f.trailer().unwrap();
    let mut header = bytes[..header_len].to_vec();
    header[16..24].fill(0);
    header[68] = 0;
    if f.header.info.nbytes == 0 {
        // No data, no index: the trailer follows the header.
        assert_eq!(trailer.offset, header_len as u64);
        return (sha256_hex(&[]), sha256_hex(&header));
    }
    // The index ends where its chunk says (cbytes at bytes 12..16 of its header).
    let index_at = if path.is_dir() {
        header_len
    } else {
        header_len + f.header.info.cbytes as usize
    };
    let cbytes = u32::from_le_bytes(bytes[index_at + 12..index_at + 16].try_into().unwrap());
    let end = index_at + cbytes as usize;
    assert!(end as u64 <= trailer.offset);
    (sha256_hex(&bytes[header_len..end]), sha256_hex(&header))
}

struct Case {
    base: &'static str,
    /// Written first (completely), to reach the state the stopped write starts from.
    prepare: Vec<VlmetaChange>,
    changes: Vec<VlmetaChange>,
}

/// A copy of the case's base with its preparation written.
fn start(case: &Case, tag: &str) -> Scratch {
    let copy = Scratch::of(case.base, tag);
    if !case.prepare.is_empty() {
        vlmeta::update_vlmeta(&copy.0, &case.prepare).unwrap();
    }
    copy
}

fn cases() -> Vec<Case> {
    let big = "v".repeat(3000);
    vec![
        // Grows past the old trailer: written past the end.
        Case {
            base: "vlmeta_write/base/4.14.1.b2nd",
            prepare: vec![],
            changes: vec![VlmetaChange::set("big", &big).unwrap()],
        },
        // Shrinks: written between the index and the old trailer.
        Case {
            base: "vlmeta_write/base/2.7.1.b2nd",
            prepare: vec![],
            changes: vec![VlmetaChange::delete("existing")],
        },
        // Into the gap a write past the end left.
        Case {
            base: "vlmeta_write/base/4.14.1.b2nd",
            prepare: vec![VlmetaChange::set("big", &big).unwrap()],
            changes: vec![VlmetaChange::set("big", "small now").unwrap()],
        },
        // Several changes in one write, on a sparse frame.
        Case {
            base: "vlmeta_write/base/3.0.0_sparse.b2nd",
            prepare: vec![],
            changes: vec![
                VlmetaChange::set("n", &2).unwrap(),
                VlmetaChange::set("units", "m/s").unwrap(),
                VlmetaChange::delete("existing"),
            ],
        },
        // No data: the file is replaced (python wrote it; 4.14.1 and 2.7.1).
        Case {
            base: "vlmeta_write/base/4.14.1_empty.b2nd",
            prepare: vec![],
            changes: vec![VlmetaChange::set("big", &big).unwrap()],
        },
        Case {
            base: "vlmeta_write/base/2.7.1_empty.b2nd",
            prepare: vec![],
            changes: vec![VlmetaChange::delete("existing")],
        },
        // No data, sparse: chunks.b2frame is replaced inside the directory.
        Case {
            base: "vlmeta_write/base/3.0.0_empty_sparse.b2nd",
            prepare: vec![],
            changes: vec![
                VlmetaChange::set("n", &2).unwrap(),
                VlmetaChange::delete("existing"),
            ],
        },
    ]
}

fn stops() -> usize {
    std::env::var("VLMETA_CRASH_STOPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// Staging files left beside the file holding the header
/// (`.<name>.b2nd-meta.<pid>.<n>.tmp`), removed.
fn remove_staging(copy: &Scratch) -> usize {
    let header = copy.header_file();
    let prefix = format!(
        ".{}.b2nd-meta.",
        header.file_name().unwrap().to_str().unwrap()
    );
    let dir = header.parent().unwrap();
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with(&prefix) {
            assert!(b2nd_meta::io::is_staging_name(&name), "{name}");
            std::fs::remove_file(dir.join(&name)).unwrap();
            n += 1;
        }
    }
    n
}

/// The smallest budget with which the write completes.
fn full_budget(case: &Case) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 24);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let copy = start(case, "vlcrash-probe");
        let done = update_stopping_after(&copy.0, &case.changes, VlmetaOptions::default(), mid);
        remove_staging(&copy);
        if done.is_ok() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[test]
fn a_write_stopped_anywhere_leaves_the_old_vlmeta_or_the_new_and_the_data_untouched() {
    let cases = cases();
    let per_case = stops().div_ceil(cases.len());
    let mut seen_old = 0;
    let mut seen_new = 0;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (k, case) in cases.iter().enumerate() {
        let full = full_budget(case);
        let original = start(case, "vlcrash-old");
        let old = c_read(&original.0, false);
        let done = start(case, "vlcrash-new");
        vlmeta::update_vlmeta(&done.0, &case.changes).unwrap();
        // A completed write leaves no staging file.
        assert_eq!(remove_staging(&done), 0, "{}", case.base);
        let no_data = frame::open(&original.0).unwrap().header.info.nbytes == 0;
        let mut left = 0;
        let new = c_read(&done.0, false);
        assert_ne!(old.vlmeta(), new.vlmeta());
        let digest = data_digest(&original.0);
        // The first budgets one by one, then at random: half anywhere (mostly inside
        // the trailer's bytes), half among the last steps (sync, flip, sync, cut).
        let budgets = (0..per_case as u64).map(|i| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            match i {
                0..16 => i,
                _ if i % 2 == 0 => seed % (full + 1),
                _ => full.saturating_sub(seed % 8),
            }
        });
        for budget in budgets {
            let copy = start(case, &format!("vlcrash{k}"));
            let r = update_stopping_after(&copy.0, &case.changes, VlmetaOptions::default(), budget);
            assert_eq!(r.is_ok(), budget >= full, "{}: budget {budget}", case.base);
            let staged = remove_staging(&copy);
            assert!(
                staged == 0 || (no_data && r.is_err()),
                "{}: budget {budget}",
                case.base
            );
            left += staged;
            let c = c_read(&copy.0, false);
            assert!(
                matches!(c, CRead::Opens { .. }),
                "{}: budget {budget}: {c:?}",
                case.base
            );
            if c.vlmeta() == old.vlmeta() {
                seen_old += 1;
            } else {
                assert_eq!(c.vlmeta(), new.vlmeta(), "{}: budget {budget}", case.base);
                seen_new += 1;
            }
            assert_eq!(c.data(), old.data(), "{}: budget {budget}", case.base);
            assert_eq!(
                data_digest(&copy.0),
                digest,
                "{}: budget {budget}",
                case.base
            );
            // Ours reads it too, and the write, run again where it did not happen,
            // completes.
            let ours = frame::open(&copy.0).unwrap();
            for (name, msgpack) in c.vlmeta() {
                assert_eq!(&ours.vlmeta_bytes(name).unwrap(), msgpack);
            }
            if c.vlmeta() == old.vlmeta() {
                vlmeta::update_vlmeta(&copy.0, &case.changes).unwrap();
                assert_eq!(c_read(&copy.0, false).vlmeta(), new.vlmeta());
            }
        }
        // Stops before the rename left the staging file (as a crash would).
        assert_eq!(left > 0, no_data, "{}", case.base);
    }
    // Both outcomes were reached: the stops fell before and after the flip.
    assert!(
        seen_old > 0 && seen_new > 0,
        "old {seen_old}, new {seen_new}"
    );
}
