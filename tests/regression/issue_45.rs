//! Found by issue 45's reading of C-Blosc2 3.3 (docs/design/in-place-edits.md): C opens a
//! sparse frame only when every chunk file's number is at most `cbytes - 32`
//! (`validate_offsets_chunk`). `import --sparse --force` numbers its new chunk files past
//! the old frame's, so after 31 replacements of a one-chunk array python-blosc2 4.14.1
//! refused the frame (`blosc2_schunk_open_offset ... returned NULL`). The writer now
//! raises `cbytes` to the largest number + 32.

#![cfg(feature = "cli")]

use std::process::Command;

use b2nd_meta::frame::{self, ChunkIndex, ChunkLocation};

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

#[test]
fn a_sparse_frame_replaced_many_times_keeps_its_chunk_numbers_within_cbytes() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-issue45-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Three int32: a chunk file of about 44 bytes, so numbers past 12 need more cbytes.
    let npy = dir.join("three.npy");
    crate::common::npy::write_i4(&npy, &[3], |i| i + 1);
    let out = dir.join("s.b2nd");
    for _ in 0..40 {
        let status = Command::new(BIN)
            .arg("import")
            .arg(&npy)
            .arg(&out)
            .args(["--sparse", "--force"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let f = frame::open(&out).unwrap();
    let header = std::fs::File::open(out.join("chunks.b2frame")).unwrap();
    let index = ChunkIndex::read(&header, &f.header).unwrap();
    let largest = index
        .locations
        .iter()
        .filter_map(|l| match l {
            ChunkLocation::File(n) => Some(*n),
            _ => None,
        })
        .max()
        .unwrap();
    assert!(largest >= 30, "{largest}: the numbers did not grow");
    assert!(
        largest + 32 <= f.header.info.cbytes as u64,
        "{largest} {}",
        f.header.info.cbytes
    );
    let _ = std::fs::remove_dir_all(&dir);
}
