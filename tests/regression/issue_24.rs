//! Issue 24 (the whole chunk pipeline): bugs the fuzz targets found in the chunk decoder.

use crate::common::unhex;

use b2nd_meta::chunk;

/// The `vlmeta` fuzz target's input, decoded as a chunk: a zstd chunk with a
/// dictionary (flags 0x85) whose dictionary section has zstd's magic number but ends
/// before its three repeat offsets. ruzstd 0.8.3's `Dictionary::decode_dict` slices
/// past the end there ("range end index 12 out of range for slice of length 10"), a
/// panic; C-Blosc2 fails to load such a dictionary. An error, with its offset.
#[test]
fn a_zstd_dictionary_cut_before_its_repeat_offsets_is_an_error() {
    let bytes = unhex("05018504000400003b040000a000000001230000000005000004000000000005240000005500000037a430ec28142f05a0000000012300000041000000000000000000000000000000000000000000000000000000000000000037a43028000000000000000000a300000000800000000000ffffff91000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe4dff20b21ab33d7");
    let err = chunk::decode(&bytes, &chunk::DecodeBudget::default()).unwrap_err();
    assert!(
        err.offset().is_some_and(|at| at < bytes.len() as u64),
        "{err}"
    );
}
