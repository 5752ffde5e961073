//! Semantic validation: C-Blosc2 3.3's rules, each reported with its axis; python-blosc2's
//! stricter rule on its own; and C-Blosc2's own bug reports as regression tests.

use crate::common;

use b2nd_meta::validate::{check, check_blocks_within_chunks, Problem, Shape};
use b2nd_meta::{Meta, MetaB2ndV1, MetaV0Caterva};
use common::{manifest, unhex};

fn problems(shape: &[i64], chunks: &[i32], blocks: &[i32], typesize: Option<u64>) -> Vec<Problem> {
    match check(shape, chunks, blocks, typesize) {
        Ok(()) => Vec::new(),
        Err(invalid) => invalid.problems().to_vec(),
    }
}

#[test]
fn c_blosc2_795_block_product_wraps_to_zero() {
    // 65536 * 65536 wraps a 32-bit product to 0; C crashed dividing by it.
    let found = problems(&[65536, 65536], &[65536, 65536], &[65536, 65536], None);
    assert_eq!(
        found,
        [
            Problem::ChunkItemsOverflow { axis: 1 },
            Problem::BlockItemsOverflow { axis: 1 }
        ]
    );
    // The same through the metalayer type, decoded from bytes that C would have accepted.
    let meta = MetaB2ndV1::new(
        vec![65536, 65536],
        vec![65536, 65536],
        vec![65536, 65536],
        "|u1",
    );
    let decoded: Meta = b2nd_meta::from_slice(&b2nd_meta::to_vec(&meta).unwrap()).unwrap();
    assert!(decoded.validate().is_err());
}

#[test]
fn c_blosc2_740_zero_block_with_non_zero_chunk() {
    assert_eq!(
        problems(&[10, 10], &[5, 5], &[5, 0], None),
        [Problem::ZeroBlock { axis: 1 }]
    );
    // Even on an empty axis, a zero block needs a zero chunk.
    assert_eq!(
        problems(&[0], &[5], &[0], None),
        [Problem::ZeroBlock { axis: 0 }]
    );
}

#[test]
fn c_blosc2_778_zero_chunk_and_block_with_non_empty_axis() {
    assert_eq!(
        problems(&[4, 4], &[2, 0], &[1, 0], None),
        [
            Problem::ZeroChunk { axis: 1 },
            Problem::ZeroBlock { axis: 1 }
        ]
    );
}

#[test]
fn empty_axes_may_have_empty_chunks_and_blocks() {
    assert!(check(&[0, 3], &[0, 3], &[0, 3], Some(8)).is_ok());
    assert!(check(&[], &[], &[], Some(8)).is_ok());
    // A non-zero chunk with a zero shape is fine (python-blosc2 writes it).
    assert!(check(&[0], &[10], &[5], Some(1)).is_ok());
}

#[test]
fn negative_entries_name_the_shape_and_axis() {
    assert_eq!(
        problems(&[3, -1], &[2, 2], &[1, -2], None),
        [
            Problem::Negative {
                of: Shape::Shape,
                axis: 1,
                value: -1
            },
            Problem::Negative {
                of: Shape::Blockshape,
                axis: 1,
                value: -2
            },
        ]
    );
}

#[test]
fn item_count_overflow_is_found_where_the_product_overflows() {
    // 2^40 * 2^40 overflows int64 at axis 1, even though axis 2 is empty (C multiplies in order).
    let found = problems(&[1 << 40, 1 << 40, 0], &[1, 1, 1], &[1, 1, 1], None);
    assert_eq!(found, [Problem::ItemsOverflow { axis: 1 }]);
    // i64::MAX items alone is fine.
    assert!(check(&[i64::MAX], &[1], &[1], None).is_ok());
}

#[test]
fn block_bytes_overflow_needs_a_typesize() {
    // 2^28 items of 8 bytes = 2^31 bytes > i32::MAX.
    let shape = [1 << 28];
    let blocks = [1 << 28];
    assert!(check(&shape, &blocks, &blocks, None).is_ok());
    assert_eq!(
        problems(&shape, &blocks, &blocks, Some(8)),
        [Problem::BlockBytesOverflow {
            block_items: 1 << 28,
            typesize: 8
        }]
    );
    assert!(check(&shape, &blocks, &blocks, Some(7)).is_ok());
    // The metalayer's own dtype supplies the itemsize when it parses.
    let meta = MetaB2ndV1::new(shape.to_vec(), blocks.to_vec(), blocks.to_vec(), "<f8");
    let err = meta.validate().unwrap_err();
    assert_eq!(
        err.problems(),
        [Problem::BlockBytesOverflow {
            block_items: 1 << 28,
            typesize: 8
        }]
    );
}

#[test]
fn dimension_mismatch_and_too_many_dimensions() {
    assert_eq!(
        problems(&[1, 2], &[1], &[1, 2], None),
        [Problem::DimensionMismatch {
            shape: 2,
            chunkshape: 1,
            blockshape: 2
        }]
    );
    assert_eq!(
        problems(&[1; 17], &[1; 17], &[1; 17], None),
        [Problem::TooManyDimensions { ndim: 17 }]
    );
}

#[test]
fn python_blosc2_block_within_chunk_rule_is_separate() {
    let meta = MetaB2ndV1::new(vec![10, 10], vec![4, 4], vec![2, 8], "<i4");
    assert!(
        meta.validate().is_ok(),
        "C-Blosc2 accepts blocks longer than chunks"
    );
    let err = meta.check_blocks_within_chunks().unwrap_err();
    assert_eq!(
        err.problems(),
        [Problem::BlockLargerThanChunk {
            axis: 1,
            block: 8,
            chunk: 4
        }]
    );
    assert_eq!(err.problems()[0].axis(), Some(1));
    assert!(check_blocks_within_chunks(&[4, 4], &[4, 4]).is_ok());
}

#[test]
fn itemsize_against_typesize() {
    let meta = Meta::from(MetaB2ndV1::new(vec![4], vec![2], vec![1], "<f8"));
    assert!(meta.validate_with_typesize(8).is_ok());
    let err = meta.validate_with_typesize(4).unwrap_err();
    assert_eq!(
        err.problems(),
        [Problem::ItemsizeMismatch {
            itemsize: 8,
            typesize: 4
        }]
    );
    assert_eq!(
        err.to_string(),
        "the dtype's itemsize is 8 but the frame's typesize is 4"
    );
    // A dtype that does not parse is not judged, nor is caterva's missing dtype.
    let odd = MetaB2ndV1::new(vec![4], vec![2], vec![1], "not a dtype");
    assert!(odd.validate_with_typesize(4).is_ok());
    let caterva = MetaV0Caterva {
        shape: vec![4].into(),
        chunkshape: vec![2].into(),
        blockshape: vec![1].into(),
    };
    assert!(caterva.validate_with_typesize(3).is_ok());
}

#[test]
fn every_real_file_is_valid_by_both_rules() {
    let manifest = manifest();
    for file in manifest["files"].as_array().unwrap() {
        let name = file["name"].as_str().unwrap();
        let Some(layer) = file["metalayers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == "b2nd")
        else {
            continue;
        };
        let meta: Meta = b2nd_meta::from_slice(&unhex(layer["raw_hex"].as_str().unwrap())).unwrap();
        let typesize = file["typesize"].as_u64().unwrap();
        meta.validate_with_typesize(typesize)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        meta.check_blocks_within_chunks()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let dtype = meta
            .parsed_dtype()
            .unwrap()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            dtype.itemsize(),
            file["dtype_itemsize"].as_u64().unwrap(),
            "{name}"
        );
    }
}
