//! The array metalayer: which metalayer is the array's, and what is checked of it
//! against the frame.

use std::fs;
use std::path::Path;

use b2nd_meta::frame::{self, parse_header};

use crate::build;
use crate::common::frame::fixstr;

// ---------------------------------------------------------------------------
// Which metalayer is the array's

#[test]
fn a_caterva_user_metalayer_beside_b2nd_is_user_data() {
    // blosc2.zeros(..., meta={"caterva": [0, 1, 2]}): b2nd is the array's, as C-Blosc2
    // and python-blosc2 choose it; the caterva list is user data.
    let b2nd = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new(
        vec![10],
        vec![10],
        vec![10],
        "<f8",
    ))
    .unwrap();
    for order in [["b2nd", "caterva"], ["caterva", "b2nd"]] {
        let content = |name: &str| {
            if name == "b2nd" {
                b2nd.clone()
            } else {
                vec![0x93, 0, 1, 2]
            }
        };
        let entries: Vec<_> = order
            .iter()
            .map(|n| (fixstr(n.as_bytes()), content(n)))
            .collect();
        let header = parse_header(&build(&entries)).unwrap();
        assert_eq!(header.array_metalayer().unwrap().name, "b2nd");
        assert_eq!(header.array_meta().unwrap().shape(), [10]);
        let user: Vec<_> = header.user_metalayers().map(|m| m.name.as_str()).collect();
        assert_eq!(user, ["caterva"]);
    }
    // Without b2nd, caterva is the array's.
    let caterva = b2nd_meta::to_vec(&b2nd_meta::MetaV0Caterva {
        shape: vec![4].into(),
        chunkshape: vec![2].into(),
        blockshape: vec![2].into(),
    })
    .unwrap();
    let header = parse_header(&build(&[(fixstr(b"caterva"), caterva)])).unwrap();
    assert_eq!(header.array_metalayer().unwrap().name, "caterva");
    assert_eq!(header.user_metalayers().count(), 0);
}

// ---------------------------------------------------------------------------
// The array metalayer against the frame

#[test]
fn a_shape_resized_across_the_chunk_grid_is_flagged() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/rewrite_2d_before.b2nd");
    let mut bytes = fs::read(src).unwrap();
    let before = parse_header(&bytes).unwrap();
    assert_eq!(
        frame::check_array(&before.info, &before.array_meta().unwrap()),
        []
    );
    // (10, 7) in chunks of (4, 4) -> (12, 8): same grid, nothing to flag.
    frame::set_shape(b2nd_meta::frame::Target::bytes(&mut bytes), &[12, 8]).unwrap();
    let h = parse_header(&bytes).unwrap();
    assert_eq!(frame::check_array(&h.info, &h.array_meta().unwrap()), []);
    // (13, 8) without rewriting the chunks: the grid holds 4 x 2 chunks, nbytes 3 x 2.
    // set_shape refuses a grid change (Regrid went with frame-write): patch shape[0], the
    // first int64 (0xd3 + 8 bytes big-endian) after 0x97, version, ndim and 0x92.
    let layer = h.array_metalayer().unwrap();
    let mut content = layer.content.clone();
    assert_eq!(content[..5], [0x97, 0x00, 0x02, 0x92, 0xd3]);
    content[5..13].copy_from_slice(&13i64.to_be_bytes());
    frame::rewrite_metalayer(
        b2nd_meta::frame::Target::bytes(&mut bytes),
        &layer.name.clone(),
        &content,
    )
    .unwrap();
    let h = parse_header(&bytes).unwrap();
    assert_eq!(h.array_meta().unwrap().shape(), [13, 8]);
    let m = frame::check_array(&h.info, &h.array_meta().unwrap());
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].field, "nbytes");
    assert_eq!(m[0].expected, 4 * 2 * i128::from(h.info.chunksize));
    assert_eq!(m[0].found, i128::from(h.info.nbytes));
}
