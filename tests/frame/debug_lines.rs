//! Every public error's `Debug` is its `Display`: the one line `main` prints when it
//! returns the error (issue 49), for errors the crate really returns. The alternate
//! form (`{:#?}`) of a `Located` error keeps its structure.

use b2nd_meta::array::write::{chunks_and_blocks, Caches};
use b2nd_meta::array::Array;
use b2nd_meta::chunk::{compress, CParams};
use b2nd_meta::dtype::Dtype;
use b2nd_meta::frame::{self, Source};
use b2nd_meta::MetaB2ndV1;

fn data(rel: &str) -> String {
    format!("{}/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// `(what, format!("{e:?}"), format!("{e}"))` for each error.
fn errors() -> Vec<(&'static str, String, String)> {
    fn line(
        what: &'static str,
        e: &(impl std::fmt::Debug + std::fmt::Display),
    ) -> (&'static str, String, String) {
        (what, format!("{e:?}"), e.to_string())
    }
    // A b2nd metalayer whose shape entry has a fixint where an int64 belongs.
    let mut bytes = std::fs::read(data("corpus/ndim2_i4.b2nd")).unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let at = header.array_metalayer().unwrap().content_offset() as usize;
    bytes[at + 4] = 0x03;
    let bad_meta = frame::parse_header(&bytes)
        .unwrap()
        .array_meta()
        .unwrap_err();
    let caches = Caches::of_this_machine();
    vec![
        // Array -> Frame -> io::Error, which `main` printed as nested structs.
        line("missing", &Array::open("/no/such/file.b2nd").unwrap_err()),
        line(
            "not blosc2",
            &Array::open(Source::bytes(b"not a frame".to_vec())).unwrap_err(),
        ),
        line("bad metalayer", &bad_meta),
        line(
            "codec",
            &b2nd_meta::from_slice::<MetaB2ndV1>(&[0x97, 0xcc, 0x00]).unwrap_err(),
        ),
        line("dtype", &Dtype::parse("<i3").unwrap_err()),
        line(
            "invalid",
            &MetaB2ndV1::new([3], [0], [1], "<i4")
                .validate()
                .unwrap_err(),
        ),
        line(
            "chunk",
            &b2nd_meta::chunk::decode(&[5, 1], &Default::default()).unwrap_err(),
        ),
        line(
            "compress",
            &compress(
                b"",
                &CParams {
                    clevel: 10,
                    ..CParams::default()
                },
            )
            .unwrap_err(),
        ),
        line(
            "defaults",
            &chunks_and_blocks(&[10, 10], 4, Some(&[5]), None, &caches).unwrap_err(),
        ),
    ]
}

#[test]
fn debug_is_the_display_line() {
    let expected = [
        ("missing", "/no/such/file.b2nd: I/O error: No such file or directory (os error 2)"),
        ("not blosc2", "<bytes>: not a Blosc2 frame: expected 0x62 of the magic \"b2frame\\0\", found 0x74 at byte 2"),
        ("bad metalayer", "metalayer \"b2nd\" does not decode: expected int64 (0xd3), found 0x03 (positive fixint) (byte 4 of its content, which starts at frame byte 112) at byte 116"),
        ("codec", "expected positive fixint (0x00..=0x7f), found 0xcc (uint8) at byte 1"),
        ("dtype", "expected a size of 1, 2, 4 or 8 bytes for kind 'i', found \"3\" at byte 2"),
        ("invalid", "axis 0: chunkshape is 0 but the axis is not empty"),
        ("chunk", "the chunk ends at byte 2, 1 byte(s) short of flags (byte 2) at byte 2"),
        ("compress", "expected a compression level from 0 to 9, found 10"),
        ("defaults", "chunks should have as many dimensions as the shape (2), found 1"),
    ];
    let got = errors();
    for (what, debug, display) in &got {
        assert_eq!(debug, display, "{what}");
        assert!(!debug.contains('\n'), "{what}: {debug}");
    }
    let got: Vec<(&str, &str)> = got.iter().map(|(w, d, _)| (*w, d.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn the_alternate_form_is_the_structure() {
    let err = Array::open("/no/such/file.b2nd").unwrap_err();
    let tree = format!("{err:#?}");
    assert!(
        tree.starts_with("Located {\n    offset: None,\n    path: Some(\n"),
        "{tree}"
    );
    // The frame error inside, structured too, down to the io::Error.
    assert!(tree.contains("kind: Frame(\n        Located {"), "{tree}");
    assert!(tree.contains("Os {"), "{tree}");
    let invalid = MetaB2ndV1::new([3], [0], [1], "<i4")
        .validate()
        .unwrap_err();
    assert!(format!("{invalid:#?}").starts_with("Invalid {\n    problems: ["));
}
