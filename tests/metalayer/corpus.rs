//! Real metalayers: the raw bytes C-Blosc2 3.3.5's `blosc2_meta_get` returned for every
//! file python-blosc2 4.14.1 wrote into tests/data/corpus (see tests/data/README.md),
//! against what python-blosc2 reported about each array.

use crate::common;

use b2nd_meta::{Layout, Meta, MetaB2ndV1};
use common::{manifest, unhex};
use serde_json::Value;

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

#[test]
fn every_b2nd_metalayer_decodes_to_what_python_blosc2_reports() {
    let manifest = manifest();
    let mut checked = 0;
    for file in manifest["files"].as_array().unwrap() {
        let name = file["name"].as_str().unwrap();
        for layer in file["metalayers"].as_array().unwrap() {
            if layer["name"] != "b2nd" {
                continue;
            }
            let raw = unhex(layer["raw_hex"].as_str().unwrap());
            let meta: MetaB2ndV1 =
                b2nd_meta::from_slice(&raw).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(meta.shape, ints(&file["shape"]), "{name}: shape");
            let chunks: Vec<i64> = meta.chunkshape.iter().map(|&c| c.into()).collect();
            let blocks: Vec<i64> = meta.blockshape.iter().map(|&b| b.into()).collect();
            assert_eq!(chunks, ints(&file["chunks"]), "{name}: chunks");
            assert_eq!(blocks, ints(&file["blocks"]), "{name}: blocks");
            assert_eq!(
                meta.ndim() as i64,
                file["ndim"].as_i64().unwrap(),
                "{name}: ndim"
            );
            assert_eq!(
                meta.dtype,
                file["dtype_stored"].as_str().unwrap(),
                "{name}: dtype"
            );
            assert_eq!(
                i64::from(meta.dtype_format),
                file["dtype_format"].as_i64().unwrap()
            );
            // Re-encoding gives back C's bytes, through the typed struct and through Meta.
            assert_eq!(
                b2nd_meta::to_vec(&meta).unwrap(),
                raw,
                "{name}: re-encoding"
            );
            let any: Meta = b2nd_meta::from_slice(&raw).unwrap();
            assert_eq!(any.layout(), Layout::B2ndV1);
            assert_eq!(
                b2nd_meta::to_vec(&any).unwrap(),
                raw,
                "{name}: Meta re-encoding"
            );
            assert_eq!(any.encoded_len(), raw.len());
            checked += 1;
        }
    }
    // Every ndarray in the corpus has a b2nd metalayer.
    let arrays = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["is_ndarray"] == true)
        .count();
    assert_eq!(checked, arrays);
    assert!(checked >= 50, "only {checked} metalayers checked");
}

#[test]
fn the_16_dimensional_file_has_c_s_0xa0_headers() {
    let manifest = manifest();
    let file = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["ndim"] == 16)
        .expect("an ndim-16 file in the corpus");
    let raw = unhex(file["metalayers"][0]["raw_hex"].as_str().unwrap());
    assert_eq!(raw[..4], [0x97, 0x00, 0x10, 0xa0]);
    // Generic msgpack misread it (python's msgpack saw an empty string).
    assert_eq!(file["msgpack_crosscheck"]["ok"], false);
    let meta: MetaB2ndV1 = b2nd_meta::from_slice(&raw).unwrap();
    assert_eq!(meta.ndim(), 16);
    assert_eq!(b2nd_meta::to_vec(&meta).unwrap(), raw);
}

#[test]
fn the_rewrite_pairs_differ_only_in_shape_entries() {
    // python-blosc2 opened the "after" files with the new shape (recorded by the
    // generator); the new content is what our encoder writes for that shape.
    let manifest = manifest();
    for rewrite in manifest["rewrites"].as_array().unwrap() {
        let old: MetaB2ndV1 =
            b2nd_meta::from_slice(&unhex(rewrite["old_content_hex"].as_str().unwrap())).unwrap();
        let new_raw = unhex(rewrite["new_content_hex"].as_str().unwrap());
        let mut expected = old.clone();
        expected.shape = ints(&rewrite["new_shape"]).into();
        assert_eq!(b2nd_meta::to_vec(&expected).unwrap(), new_raw);
        assert_eq!(rewrite["after_opens"], true);
        assert_eq!(ints(&rewrite["after_reported_shape"]), expected.shape);
    }
}
