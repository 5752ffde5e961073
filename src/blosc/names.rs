//! The one table of names: codecs and filters by id, as python-blosc2 names them
//! (lower-cased `blosc2.Codec` and `blosc2.Filter`), and the plugins C-Blosc2 registers
//! (`include/blosc2/codecs-registry.h`, `include/blosc2/filters-registry.h`).

/// The name of codec id `id`, when Blosc defines or registers one.
pub(super) fn codec_name(id: u8) -> Option<&'static str> {
    Some(match id {
        0 => "blosclz",
        1 => "lz4",
        2 => "lz4hc",
        4 => "zlib",
        5 => "zstd",
        32 => "ndlz",
        33 => "zfp_acc",
        34 => "zfp_prec",
        35 => "zfp_rate",
        36 => "openhtj2k",
        37 => "grok",
        38 => "openzl",
        39 => "j2k",
        40 => "htj2k",
        _ => return None,
    })
}

/// The name of filter id `id`, when Blosc defines or registers one.
pub(super) fn filter_name(id: u8) -> Option<&'static str> {
    Some(match id {
        0 => "nofilter",
        1 => "shuffle",
        2 => "bitshuffle",
        3 => "delta",
        4 => "trunc_prec",
        32 => "ndcell",
        33 => "ndmean",
        34 => "bytedelta_buggy",
        35 => "bytedelta",
        36 => "int_trunc",
        _ => return None,
    })
}

/// The id of the codec named `name` (the table's spelling), when there is one.
pub(super) fn codec_id(name: &str) -> Option<u8> {
    (0..=u8::MAX).find(|&id| codec_name(id) == Some(name))
}

/// The id of the filter named `name` (the table's spelling), when there is one.
pub(super) fn filter_id(name: &str) -> Option<u8> {
    (0..=u8::MAX).find(|&id| filter_name(id) == Some(name))
}

#[cfg(test)]
mod tests {
    use super::{codec_name, filter_name};

    #[test]
    fn the_names_are_python_blosc2s_and_c_blosc2s_registries() {
        // python: [c.name.lower() for c in blosc2.Codec], codecs-registry.h, filters-registry.h
        for (id, name) in [
            (0, "blosclz"),
            (1, "lz4"),
            (2, "lz4hc"),
            (4, "zlib"),
            (5, "zstd"),
            (32, "ndlz"),
            (35, "zfp_rate"),
            (40, "htj2k"),
        ] {
            assert_eq!(codec_name(id), Some(name), "codec {id}");
        }
        for id in [3, 6, 31, 41, 159, 160, 255] {
            assert_eq!(codec_name(id), None, "codec {id}");
        }
        for (id, name) in [
            (0, "nofilter"),
            (1, "shuffle"),
            (2, "bitshuffle"),
            (3, "delta"),
            (4, "trunc_prec"),
            (32, "ndcell"),
            (33, "ndmean"),
            (34, "bytedelta_buggy"),
            (35, "bytedelta"),
            (36, "int_trunc"),
        ] {
            assert_eq!(filter_name(id), Some(name), "filter {id}");
        }
        for id in [5, 31, 37, 255] {
            assert_eq!(filter_name(id), None, "filter {id}");
        }
    }
}
