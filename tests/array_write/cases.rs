//! The arrays the writer tests write: every dtype kind, ndim 0 to 8 with edge chunks
//! and blocks, every codec with every filter pipeline, metalayers and vlmeta, contiguous
//! and sparse. The python fixtures (tests/data/array_write/) are of these same arrays.

use b2nd_meta::array::write::NewArray;
use b2nd_meta::blosc::{Codec, Filter, SplitMode};

/// One array to write.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub dtype: &'static str,
    pub shape: Vec<u64>,
    pub chunks: Option<Vec<u64>>,
    pub blocks: Option<Vec<u64>>,
    pub codec: Codec,
    pub clevel: u8,
    pub filters: [(Filter, u8); 6],
    pub splitmode: SplitMode,
    pub sparse: bool,
    /// User metalayers (name, JSON value).
    pub meta: Vec<(&'static str, serde_json::Value)>,
    /// vlmeta entries (name, JSON value).
    pub vlmeta: Vec<(&'static str, serde_json::Value)>,
}

const NONE: (Filter, u8) = (Filter::None, 0);

/// A pipeline: the filters in the last slots, in order.
pub fn pipeline(filters: &[(Filter, u8)]) -> [(Filter, u8); 6] {
    let mut out = [NONE; 6];
    out[6 - filters.len()..].copy_from_slice(filters);
    out
}

/// python's defaults (zstd 5, shuffle), contiguous, no metalayers.
pub fn case(
    name: &str,
    dtype: &'static str,
    shape: &[u64],
    chunks: Option<&[u64]>,
    blocks: Option<&[u64]>,
) -> Case {
    Case {
        name: name.to_string(),
        dtype,
        shape: shape.to_vec(),
        chunks: chunks.map(<[u64]>::to_vec),
        blocks: blocks.map(<[u64]>::to_vec),
        codec: Codec::Zstd,
        clevel: 5,
        filters: pipeline(&[(Filter::Shuffle, 0)]),
        splitmode: SplitMode::Auto,
        sparse: false,
        meta: Vec::new(),
        vlmeta: Vec::new(),
    }
}

impl Case {
    pub fn codec(mut self, codec: Codec, clevel: u8, filters: &[(Filter, u8)]) -> Case {
        self.codec = codec;
        self.clevel = clevel;
        self.filters = pipeline(filters);
        self
    }

    pub fn sparse(mut self) -> Case {
        self.sparse = true;
        self
    }

    /// Lossy: truncation of precision changes the values.
    pub fn lossy(&self) -> bool {
        self.filters.iter().any(|(f, _)| *f == Filter::TruncPrec)
    }

    /// The writer's parameters for this case (threads as given: the header records them).
    pub fn params(&self, threads: usize) -> NewArray {
        let mut a = NewArray::new(&self.shape, self.dtype)
            .unwrap()
            .codec(self.codec, self.clevel)
            .filters(self.filters)
            .splitmode(self.splitmode)
            .sparse(self.sparse)
            .threads(threads)
            .caches(fixed_caches())
            .overwrite(true);
        if let Some(c) = &self.chunks {
            a = a.chunks(c);
        }
        if let Some(b) = &self.blocks {
            a = a.blocks(b);
        }
        for (name, v) in &self.meta {
            a = a.meta(name, v).unwrap();
        }
        for (name, v) in &self.vlmeta {
            a = a.vlmeta(name, v).unwrap();
        }
        a
    }

    pub fn nitems(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// The caches default chunks are sized by in these tests (this machine's, as python
/// read them), so that the files do not depend on the machine.
pub fn fixed_caches() -> b2nd_meta::array::write::Caches {
    use b2nd_meta::array::write::{Caches, Platform};
    Caches {
        platform: Platform::X86_64,
        l1_data: Some(48 << 10),
        l2: Some(2 << 20),
        l3: Some(300 << 20),
    }
}

/// The bytes of a case's elements: per dtype kind, values of that kind (float ramps
/// with noise, integer counters, strings, ...) with a leading stretch of zeros, so that
/// small chunks are all zero.
pub fn data(case: &Case, itemsize: usize) -> Vec<u8> {
    let n = case.nitems() as usize;
    let mut out = Vec::with_capacity(n * itemsize);
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (case.name.len() as u64);
    let mut noise = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let zeros = n / 5;
    let big = case.dtype.starts_with('>');
    let kind = case
        .dtype
        .trim_start_matches(['<', '>', '|', '='])
        .chars()
        .next()
        .unwrap();
    for i in 0..n {
        let start = out.len();
        if i < zeros {
            out.resize(start + itemsize, 0);
            continue;
        }
        match (kind, itemsize) {
            ('f', 8) => {
                let v = i as f64 * 0.25 + (noise() % 1000) as f64 * 1e-6;
                out.extend_from_slice(&if big {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                });
            }
            ('f', 4) | ('c', 8) => {
                for k in 0..itemsize / 4 {
                    let v = (i + k) as f32 * 0.5 + (noise() % 100) as f32 * 1e-3;
                    out.extend_from_slice(&if big {
                        v.to_be_bytes()
                    } else {
                        v.to_le_bytes()
                    });
                }
            }
            ('c', 16) => {
                for k in 0..2 {
                    let v = (i * 2 + k) as f64 * 0.125;
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            ('b', 1) | ('?', 1) => out.push((noise() % 3 == 0) as u8),
            ('i' | 'u' | 'M' | 'm', _) => {
                let v = (i as u64 / 3).wrapping_add(noise() % 4);
                let bytes = if big {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                };
                let take = itemsize.min(8);
                if big {
                    out.extend_from_slice(&bytes[8 - take..]);
                } else {
                    out.extend_from_slice(&bytes[..take]);
                }
            }
            ('S', _) => (0..itemsize).for_each(|k| out.push(b"abcdefgh"[(i + k) % 8])),
            ('U', _) => (0..itemsize / 4)
                .for_each(|k| out.extend_from_slice(&(0x61 + ((i + k) % 26) as u32).to_le_bytes())),
            _ => (0..itemsize).for_each(|k| {
                out.push(if k % 3 == 0 {
                    noise() as u8
                } else {
                    (i / 7) as u8
                })
            }),
        }
        out.resize(start + itemsize, 0);
    }
    out
}

/// Every dtype kind python-blosc2 stores, in both byte orders where they differ.
pub fn dtypes() -> Vec<Case> {
    let kinds: [(&str, &'static str); 24] = [
        ("bool", "|b1"),
        ("i1", "|i1"),
        ("i2", "<i2"),
        ("i4", "<i4"),
        ("i8", "<i8"),
        ("u1", "|u1"),
        ("u2", "<u2"),
        ("u4", "<u4"),
        ("u8", "<u8"),
        ("f2", "<f2"),
        ("f4", "<f4"),
        ("f8", "<f8"),
        ("c8", "<c8"),
        ("c16", "<c16"),
        ("S5", "|S5"),
        ("U3", "<U3"),
        ("V7", "|V7"),
        ("M8", "<M8[ns]"),
        ("m8", "<m8[s]"),
        ("be_i4", ">i4"),
        ("be_f8", ">f8"),
        ("be_u2", ">u2"),
        ("struct", "[('a', '<i4'), ('b', '<f8', (2,)), ('c', 'S3')]"),
        ("S300", "|S300"),
    ];
    kinds
        .iter()
        .map(|(name, dtype)| {
            case(
                &format!("dtype_{name}"),
                dtype,
                &[37, 23],
                Some(&[16, 10]),
                Some(&[5, 4]),
            )
        })
        .collect()
}

/// ndim 0 to 8: chunks that do not divide the shape, blocks that do not divide the
/// chunks, and python's own choices.
pub fn ndims() -> Vec<Case> {
    vec![
        case("ndim0", "<f8", &[], None, None),
        case("ndim1", "<i4", &[1001], Some(&[300]), Some(&[70])),
        case("ndim1_default", "<f8", &[50_000], None, None),
        case("ndim2", "<u2", &[61, 47], Some(&[20, 15]), Some(&[7, 4])),
        case("ndim2_default", "<f4", &[300, 400], None, None),
        case(
            "ndim3",
            "<i8",
            &[9, 13, 11],
            Some(&[4, 5, 6]),
            Some(&[3, 2, 5]),
        ),
        case(
            "ndim4",
            "<f4",
            &[5, 6, 7, 8],
            Some(&[2, 3, 4, 5]),
            Some(&[1, 2, 3, 2]),
        ),
        case(
            "ndim5",
            "<u1",
            &[3, 4, 5, 6, 7],
            Some(&[2, 3, 2, 4, 5]),
            Some(&[1, 2, 2, 3, 2]),
        ),
        case(
            "ndim6",
            "<i2",
            &[2, 3, 4, 3, 5, 6],
            Some(&[2, 2, 3, 2, 4, 4]),
            Some(&[1, 2, 2, 1, 3, 2]),
        ),
        case(
            "ndim7",
            "<f8",
            &[2, 2, 3, 3, 2, 4, 5],
            Some(&[1, 2, 2, 3, 2, 3, 4]),
            Some(&[1, 1, 2, 2, 1, 2, 3]),
        ),
        case(
            "ndim8",
            "<u4",
            &[2, 3, 2, 3, 2, 3, 2, 5],
            Some(&[2, 2, 2, 2, 2, 2, 2, 3]),
            Some(&[1, 2, 1, 2, 1, 2, 2, 2]),
        ),
        case(
            "chunks_over_shape",
            "<i4",
            &[10, 7],
            Some(&[16, 16]),
            Some(&[3, 16]),
        ),
        case(
            "blocks_whole_chunk",
            "<i4",
            &[40, 30],
            Some(&[10, 30]),
            Some(&[10, 30]),
        ),
        case(
            "one_element_chunks",
            "<u2",
            &[5, 4],
            Some(&[1, 1]),
            Some(&[1, 1]),
        ),
        case("empty_axis", "<f8", &[0, 5], None, None),
        case("empty_given", "<f8", &[4, 0], Some(&[2, 3]), Some(&[1, 2])),
        case(
            "all_zero_chunks",
            "<f8",
            &[100, 10],
            Some(&[10, 10]),
            Some(&[5, 10]),
        ),
    ]
}

/// Every codec at three levels with every filter pipeline.
pub fn codecs() -> Vec<Case> {
    let pipelines: [(&str, &[(Filter, u8)]); 10] = [
        ("nofilter", &[]),
        ("shuffle", &[(Filter::Shuffle, 0)]),
        ("bitshuffle", &[(Filter::BitShuffle, 0)]),
        ("delta", &[(Filter::Delta, 0)]),
        ("delta_shuffle", &[(Filter::Delta, 0), (Filter::Shuffle, 0)]),
        (
            "truncprec_shuffle",
            &[(Filter::TruncPrec, 20), (Filter::Shuffle, 0)],
        ),
        (
            "shuffle_bytedelta",
            &[(Filter::Shuffle, 0), (Filter::ByteDelta, 0)],
        ),
        (
            "bytedelta_meta4",
            &[(Filter::Shuffle, 4), (Filter::ByteDelta, 4)],
        ),
        (
            "delta_bitshuffle",
            &[(Filter::Delta, 0), (Filter::BitShuffle, 0)],
        ),
        (
            "three",
            &[
                (Filter::Delta, 0),
                (Filter::Shuffle, 0),
                (Filter::BitShuffle, 0),
            ],
        ),
    ];
    let codecs = [
        (Codec::BloscLz, "blosclz"),
        (Codec::Lz4, "lz4"),
        (Codec::Lz4Hc, "lz4hc"),
        (Codec::Zlib, "zlib"),
        (Codec::Zstd, "zstd"),
    ];
    let mut out = Vec::new();
    for (codec, cname) in codecs {
        for (pname, filters) in pipelines {
            for clevel in [1, 5, 9] {
                let name = format!("{cname}{clevel}_{pname}");
                out.push(
                    case(&name, "<f8", &[120, 90], Some(&[50, 90]), Some(&[25, 30]))
                        .codec(codec, clevel, filters),
                );
            }
        }
    }
    out.push(
        case("clevel0", "<i4", &[100, 50], Some(&[30, 50]), None).codec(
            Codec::Zstd,
            0,
            &[(Filter::Shuffle, 0)],
        ),
    );
    for (mode, name) in [
        (SplitMode::Always, "always"),
        (SplitMode::Never, "never"),
        (SplitMode::ForwardCompat, "forward"),
    ] {
        let mut c = case(
            &format!("split_{name}"),
            "<i4",
            &[200, 100],
            Some(&[100, 100]),
            None,
        )
        .codec(Codec::Lz4, 5, &[(Filter::Shuffle, 0)]);
        c.splitmode = mode;
        out.push(c);
    }
    out.push(
        case("shuffle_slot0", "<i8", &[100, 40], Some(&[50, 40]), None).codec(Codec::Zstd, 1, &[]),
    );
    let last = out.len() - 1;
    out[last].filters[0] = (Filter::Shuffle, 0);
    out
}

/// Metalayers and vlmeta of several kinds, contiguous and sparse.
pub fn metas() -> Vec<Case> {
    use serde_json::json;
    let mut c = case("metas", "<f4", &[60, 50], Some(&[25, 25]), Some(&[5, 25]));
    c.meta = vec![
        ("units", json!({"x": "m", "y": "s"})),
        ("numbers", json!([1, 2.5, -3, 300, 70000, 5_000_000_000u64])),
        ("flag", json!(true)),
        ("m".repeat(31).leak(), json!("longest name")),
    ];
    c.vlmeta = vec![
        ("note", json!("written by b2nd-meta")),
        ("params", json!({"a": 1, "b": [1, 2, 3], "c": null})),
        ("big", json!("x".repeat(5000))),
    ];
    let mut s = c.clone();
    s.name = "metas_sparse".into();
    vec![c, s.sparse()]
}

/// Sparse frames of several shapes and codecs.
pub fn sparse() -> Vec<Case> {
    vec![
        case(
            "sparse_2d",
            "<i4",
            &[100, 80],
            Some(&[30, 40]),
            Some(&[10, 20]),
        )
        .sparse(),
        case(
            "sparse_zeros",
            "<f8",
            &[100, 10],
            Some(&[10, 10]),
            Some(&[5, 10]),
        )
        .sparse(),
        case("sparse_lz4", "<u2", &[1000], Some(&[128]), Some(&[32]))
            .codec(Codec::Lz4, 9, &[(Filter::BitShuffle, 0)])
            .sparse(),
        case("sparse_ndim0", "<i8", &[], None, None).sparse(),
        case("sparse_empty", "<f4", &[0], None, None).sparse(),
    ]
}

/// The arrays python-blosc2 reads and works on in the fixtures (tests/data/array_write/):
/// every dtype, ndim and edge case, metalayers and sparse frames, and every codec with
/// the main pipelines on smaller arrays.
pub fn fixtures() -> Vec<Case> {
    let mut out = dtypes();
    out.extend(
        ndims()
            .into_iter()
            .filter(|c| !c.name.ends_with("_default")),
    );
    out.push(case("default_small", "<f8", &[50, 40], None, None));
    let pipelines: [(&str, &[(Filter, u8)]); 6] = [
        ("nofilter", &[]),
        ("shuffle", &[(Filter::Shuffle, 0)]),
        ("bitshuffle", &[(Filter::BitShuffle, 0)]),
        ("delta_shuffle", &[(Filter::Delta, 0), (Filter::Shuffle, 0)]),
        (
            "truncprec_shuffle",
            &[(Filter::TruncPrec, 20), (Filter::Shuffle, 0)],
        ),
        (
            "shuffle_bytedelta",
            &[(Filter::Shuffle, 0), (Filter::ByteDelta, 0)],
        ),
    ];
    let list = [
        (Codec::BloscLz, "blosclz"),
        (Codec::Lz4, "lz4"),
        (Codec::Lz4Hc, "lz4hc"),
        (Codec::Zlib, "zlib"),
        (Codec::Zstd, "zstd"),
    ];
    for (codec, cname) in list {
        for (pname, filters) in pipelines {
            out.push(
                case(
                    &format!("{cname}_{pname}"),
                    "<f8",
                    &[40, 30],
                    Some(&[16, 30]),
                    Some(&[8, 15]),
                )
                .codec(codec, 5, filters),
            );
        }
    }
    out.extend(
        codecs()
            .into_iter()
            .filter(|c| c.name == "clevel0" || c.name.starts_with("split_")),
    );
    out.extend(metas());
    out.extend(sparse());
    out
}

/// All of them.
pub fn all() -> Vec<Case> {
    [dtypes(), ndims(), codecs(), metas(), sparse()].concat()
}
