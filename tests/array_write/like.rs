//! `NewArray::like` (issue 49): a copy of python-blosc2's files written with `.like(&a)`
//! and the same data has the original's header fields, metalayers and vlmeta, as the
//! original python file holds them; and `write_ndarray` beside `read_ndarray`.

use b2nd_meta::array::write::NewArray;
use b2nd_meta::array::{Array, Selection};
use b2nd_meta::frame;

use crate::TempDir;

fn data(rel: &str) -> String {
    format!("{}/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// python-blosc2 4.14.1's files: filters with metas, codecs, split modes, user
/// metalayers and vlmeta.
const FIXTURES: &[&str] = &[
    "arrays/blosc2-4.14.1/ndim3_f4.b2nd",
    "arrays/blosc2-4.14.1/filter_bitshuffle_zstd.b2nd",
    "arrays/blosc2-4.14.1/filter_shuffle_bytedelta_lz4.b2nd",
    "arrays/blosc2-4.14.1/filter_trunc_prec_shuffle_zstd.b2nd",
    "arrays/blosc2-4.14.1/codec_lz4hc_9.b2nd",
    "arrays/blosc2-4.14.1/split_never.b2nd",
    "arrays/blosc2-4.14.1/split_always.b2nd",
    "values/blosc2-4.14.1/user_meta_scalars.b2nd",
    "values/blosc2-4.14.1/user_meta_keys.b2nd",
    "values/blosc2-4.14.1/vlmeta_small.b2nd",
    "values/blosc2-4.14.1/vlmeta_many.b2nd",
];

/// What `like` copies, as a frame holds it: header fields, every metalayer's content
/// (the `b2nd` one included), every vlmetalayer's msgpack.
#[derive(Debug, PartialEq)]
struct Kept {
    fields: (String, u8, u32, String, Vec<String>, Vec<u8>),
    metalayers: Vec<(String, Vec<u8>)>,
    vlmeta: Vec<(String, Vec<u8>)>,
}

fn kept(path: &std::path::Path) -> Kept {
    let file = frame::open(path).unwrap();
    let info = &file.header.info;
    let trailer = file.trailer().unwrap();
    Kept {
        fields: (
            info.codec.name().to_string(),
            info.clevel,
            info.typesize,
            format!("{:?}", info.splitmode),
            info.filters.iter().map(|f| format!("{f:?}")).collect(),
            info.filters_meta.to_vec(),
        ),
        metalayers: file
            .header
            .metalayers
            .iter()
            .map(|m| (m.name.clone(), m.content.clone()))
            .collect(),
        vlmeta: trailer
            .vlmetalayers
            .iter()
            .map(|vl| (vl.name.clone(), vl.decode().unwrap()))
            .collect(),
    }
}

#[test]
fn a_copy_like_a_python_file_keeps_its_header_metalayers_and_vlmeta() {
    let dir = TempDir::new("like");
    let (mut user_meta, mut vlmeta) = (0, 0);
    for rel in FIXTURES {
        let original = std::path::PathBuf::from(data(rel));
        let a = Array::open(&original).unwrap();
        let mut bytes = vec![0u8; a.len() as usize * a.itemsize()];
        a.read_into(&Selection::all(), &mut bytes).unwrap();
        let copy = dir.0.join(rel.replace('/', "_"));
        NewArray::like(&a).unwrap().write(&copy, &bytes).unwrap();

        let b = Array::open(&copy).unwrap();
        assert_eq!(
            (b.shape(), b.chunkshape(), b.blockshape()),
            (a.shape(), a.chunkshape(), a.blockshape()),
            "{rel}"
        );
        assert_eq!(b.dtype(), a.dtype(), "{rel}");
        let (want, got) = (kept(&original), kept(&copy));
        assert_eq!(got, want, "{rel}");
        user_meta += usize::from(want.metalayers.len() > 1);
        vlmeta += usize::from(!want.vlmeta.is_empty());
        let mut again = vec![0u8; bytes.len()];
        b.read_into(&Selection::all(), &mut again).unwrap();
        assert!(again == bytes, "{rel}: the values");
    }
    assert!(user_meta >= 2 && vlmeta >= 2, "{user_meta} {vlmeta}");
}

#[test]
fn like_with_another_shape_keeps_the_rest() {
    let dir = TempDir::new("like-shape");
    let a = Array::open(data("values/blosc2-4.14.1/vlmeta_small.b2nd")).unwrap();
    let shape: Vec<u64> = a.shape().iter().map(|&n| n + 1).collect();
    let n: u64 = shape.iter().product();
    let path = dir.0.join("grown.b2nd");
    let bytes = vec![7u8; n as usize * a.itemsize()];
    NewArray::like(&a)
        .unwrap()
        .shape(&shape)
        .write(&path, &bytes)
        .unwrap();
    let b = Array::open(&path).unwrap();
    assert_eq!(b.shape(), shape);
    assert_eq!(b.chunkshape(), a.chunkshape());
    let (mut want, mut got) = (
        kept(std::path::Path::new(&data(
            "values/blosc2-4.14.1/vlmeta_small.b2nd",
        ))),
        kept(&path),
    );
    // Only the b2nd metalayer's shape differs.
    want.metalayers.retain(|(name, _)| name != "b2nd");
    got.metalayers.retain(|(name, _)| name != "b2nd");
    assert_eq!(got, want);
}

#[cfg(feature = "ndarray")]
#[test]
fn write_ndarray_writes_python_values_back_in_any_layout() {
    use ndarray::Axis;
    let dir = TempDir::new("ndarray");
    for (rel, dtype) in [
        ("arrays/blosc2-4.14.1/ndim3_f4.b2nd", "<f4"),
        ("arrays/blosc2-4.14.1/ndim2_u2.b2nd", "<u2"),
    ] {
        let a = Array::open(data(rel)).unwrap();
        let path = dir.0.join("nd.b2nd");
        if dtype == "<f4" {
            let x = a.read_ndarray::<f32>(&Selection::all()).unwrap();
            NewArray::like(&a)
                .unwrap()
                .overwrite(true)
                .write_ndarray(&path, &x)
                .unwrap();
            let back = Array::open(&path)
                .unwrap()
                .read_ndarray::<f32>(&Selection::all())
                .unwrap();
            assert_eq!(back.mapv(f32::to_bits), x.mapv(f32::to_bits), "{rel}");
            // A view reversed along an axis (negative strides), then the transpose.
            let mut rev = x.view();
            rev.invert_axis(Axis(1));
            let new = NewArray::new(a.shape(), dtype).unwrap().overwrite(true);
            new.write_ndarray(&path, &rev).unwrap();
            let back = Array::open(&path)
                .unwrap()
                .read_ndarray::<f32>(&Selection::all())
                .unwrap();
            assert_eq!(back.mapv(f32::to_bits), rev.mapv(f32::to_bits), "{rel}");
        } else {
            let x = a.read_ndarray::<u16>(&Selection::all()).unwrap();
            let t = x.t();
            let shape: Vec<u64> = t.shape().iter().map(|&n| n as u64).collect();
            let new = NewArray::like(&a).unwrap().shape(&shape).overwrite(true);
            new.write_ndarray(&path, &t).unwrap();
            let back = Array::open(&path)
                .unwrap()
                .read_ndarray::<u16>(&Selection::all())
                .unwrap();
            assert_eq!(back, t, "{rel}");
            // The python values, transposed: element (j, i) is python's x[i, j].
            let all: Vec<u16> = a.read(&Selection::all()).unwrap();
            let cols = a.shape()[1] as usize;
            assert_eq!(back[[3, 2]], all[2 * cols + 3]);
            // Another shape or another type is refused.
            assert!(NewArray::like(&a)
                .unwrap()
                .overwrite(true)
                .write_ndarray(&path, &t)
                .is_err());
        }
    }
}
