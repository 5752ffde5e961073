//! `b2nd-meta show` prints the vlmetalayers (the frame's trailer) of every values
//! fixture as python-blosc2 reads them (tests/data/values/expected.json, written by
//! tests/data/values/generate.py), in trailer order; `--human` lists them; a trailer
//! that does not read is `vlmeta_error` beside an empty `vlmeta`, exit 0.

use crate::common;

use std::fmt;
use std::process::Command;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

/// A JSON object with its keys in the order they were written (serde_json's `Map`
/// sorts them).
#[derive(Debug, Default)]
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        d.deserialize_map(V)
    }
}

impl Ordered {
    fn names(&self) -> Vec<&str> {
        self.0.iter().map(|(n, _)| n.as_str()).collect()
    }
}

#[derive(Deserialize)]
struct Expected {
    files: Vec<ExpectedFile>,
}

#[derive(Deserialize)]
struct ExpectedFile {
    path: String,
    kind: String,
    #[serde(default)]
    vlmeta: Ordered,
}

/// The part of a `show` document these tests read, vlmeta's key order kept.
#[derive(Deserialize)]
struct ShowDoc {
    vlmeta: Ordered,
    vlmeta_error: Option<String>,
}

fn expected() -> Expected {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/values/expected.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `b2nd-meta show <args>`: exit 0, nothing on stderr; stdout.
fn show(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(BIN).arg("show").args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    stdout
}

#[test]
fn show_prints_every_vlmeta_of_the_values_fixtures_as_python_reads_it() {
    let expected = expected();
    let (mut files, mut values, mut kinds) = (0, 0, std::collections::BTreeSet::new());
    for file in &expected.files {
        let path = common::data_path(&file.path);
        let stdout = show(&[path.as_os_str()]);
        let doc: ShowDoc = serde_json::from_str(&stdout).unwrap();
        let whole: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(doc.vlmeta_error, None, "{}", file.path);
        // The key comes after "metalayers", before "array" (the last key, when there is one).
        let vlmeta_at = stdout.find("\"vlmeta\":").unwrap();
        assert!(
            stdout.find("\"metalayers\":").unwrap() < vlmeta_at,
            "{}",
            file.path
        );
        let array_at = stdout.rfind("\"array\":").unwrap_or(stdout.len());
        assert!(vlmeta_at < array_at, "{}", file.path);
        // Every vlmeta, in the order python-blosc2 lists them (the trailer's).
        assert_eq!(doc.vlmeta.names(), file.vlmeta.names(), "{}", file.path);
        for ((name, shown), (_, want)) in doc.vlmeta.0.iter().zip(&file.vlmeta.0) {
            // The value python-blosc2 reads, whatever codec or filter its chunk uses.
            assert_eq!(shown, &want["json"], "{} {name}", file.path);
            values += 1;
        }
        assert_eq!(
            whole["vlmeta"].as_object().unwrap().len(),
            file.vlmeta.0.len()
        );
        files += 1;
        kinds.insert(file.kind.clone());
    }
    // Every producer version, contiguous and sparse, and real values among them.
    for version in ["2.7.1", "3.0.0", "3.12.2", "4.14.1"] {
        let dir = format!("values/blosc2-{version}/");
        assert!(
            expected
                .files
                .iter()
                .any(|f| f.path.starts_with(&dir) && !f.vlmeta.0.is_empty()),
            "{version}"
        );
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["contiguous", "sparse"]
    );
    // 51 files, 189 vlmetas, every one decoded (lz4, lz4hc, blosclz, zlib and zstd with
    // bitshuffle included: vlmeta_codecs.b2nd).
    let total: usize = expected.files.iter().map(|f| f.vlmeta.0.len()).sum();
    assert_eq!((files, values, total), (51, 189, 189));
}

#[test]
fn a_file_without_vlmetas_has_an_empty_vlmeta_object() {
    let path = common::data_path("values/blosc2-4.14.1/user_meta_scalars.b2nd");
    let doc: Value = serde_json::from_str(&show(&[path.as_os_str()])).unwrap();
    assert_eq!(doc["vlmeta"], json!({}));
    assert_eq!(doc.get("vlmeta_error"), None);
}

#[test]
fn a_name_twice_in_the_vlmeta_index_shows_its_first_value_as_python_getall() {
    let text = std::fs::read_to_string(common::data_path("vlmeta_dup/verdicts.json")).unwrap();
    let verdicts: Value = serde_json::from_str(&text).unwrap();
    for file in ["dup.b2nd", "python_set.b2nd", "python_del.b2nd"] {
        let path = common::data_path(&format!("vlmeta_dup/{file}"));
        let doc: Value = serde_json::from_str(&show(&[path.as_os_str()])).unwrap();
        assert_eq!(doc["vlmeta"], verdicts[file]["getall"], "{file}");
        assert_eq!(doc.get("vlmeta_error"), None, "{file}");
    }
}

#[test]
fn a_corrupt_trailer_is_vlmeta_error_beside_an_empty_vlmeta_exit_0() {
    let mut bytes =
        std::fs::read(common::data_path("values/blosc2-4.14.1/vlmeta_small.b2nd")).unwrap();
    // The uint32 marker (0xce) of the trailer length, 23 bytes before the frame's end.
    let at = bytes.len() - 23;
    assert_eq!(bytes[at], 0xce);
    bytes[at] = 0x00;
    let path = std::env::temp_dir().join(format!(
        "b2nd-meta-cli-vlmeta-{}-corrupt.b2nd",
        std::process::id()
    ));
    std::fs::write(&path, &bytes).unwrap();
    let json = show(&[path.as_os_str()]);
    let human = show(&["--human".as_ref(), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["vlmeta"], json!({}));
    let error = doc["vlmeta_error"].as_str().unwrap();
    assert!(
        error.ends_with(&format!("found 0x00 (positive fixint) at byte {at}")),
        "{error}"
    );
    // The header still reads: the array is reported.
    assert_eq!(doc["array"]["dtype"]["str"], "<i2");
    assert_eq!(
        human.lines().last().unwrap(),
        format!("  vlmeta: TRAILER DOES NOT READ: {error}")
    );
}

#[test]
fn human_lists_vlmeta_names_and_values_after_the_metalayers() {
    let path = common::data_path("values/blosc2-4.14.1/vlmeta_small.b2nd");
    let human = show(&["--human".as_ref(), path.as_os_str()]);
    let lines: Vec<&str> = human.lines().collect();
    assert!(lines[1].starts_with("  b2nd (b2nd-v1): "), "{human}");
    // python: arr.vlmeta["str"] = "hello", ["int"] = 42, ..., one line each.
    assert_eq!(
        lines[2..5],
        [
            r#"  vlmeta str: "hello""#,
            "  vlmeta int: 42",
            "  vlmeta neg: -1099511627776"
        ]
    );
    assert!(
        lines.contains(&r#"  vlmeta dict: {"units":"m","scale":[1,2]}"#),
        "{human}"
    );
    assert!(
        lines.contains(&r#"  vlmeta bytes: {"$bin":"000102"}"#),
        "{human}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("  vlmeta ")).count(),
        14
    );
}

#[test]
fn human_cuts_long_values_and_shows_errors() {
    let path = common::data_path("values/blosc2-4.14.1/vlmeta_codecs.b2nd");
    let human = show(&["--human".as_ref(), path.as_os_str()]);
    let line = |name: &str| {
        let prefix = format!("  vlmeta {name}: ");
        human
            .lines()
            .find_map(|l| l.strip_prefix(&prefix).map(str::to_owned))
            .unwrap_or_else(|| panic!("{name}: {human}"))
    };
    // Compact JSON cut at 200 characters, as user metalayers are.
    let clevel0 = line("clevel0");
    assert!(
        clevel0.starts_with(r#"{"codec test":[0,1,2,"#) && clevel0.ends_with("..."),
        "{clevel0}"
    );
    assert_eq!(clevel0.chars().count(), 203);
    // A chunk compressed with lz4 decodes like any other.
    let lz4 = line("lz4");
    assert!(lz4.starts_with('{'), "{lz4}");
}

#[test]
fn a_vlmeta_chunk_declaring_2_gib_is_an_error_not_an_allocation() {
    let source = common::data_path("values/blosc2-4.14.1/vlmeta_small.b2nd");
    let trailer = b2nd_meta::frame::open(&source).unwrap().trailer().unwrap();
    // python: arr.vlmeta["str40"] = "c" * 40, a zstd chunk; its nbytes (bytes 4..8,
    // little-endian) now claims 2 GiB - 1.
    let at = trailer.vlmetalayer("str40").unwrap().content_offset() as usize + 4;
    let mut bytes = std::fs::read(&source).unwrap();
    bytes[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let path = std::env::temp_dir().join(format!(
        "b2nd-meta-cli-vlmeta-{}-huge.b2nd",
        std::process::id()
    ));
    std::fs::write(&path, &bytes).unwrap();
    let json = show(&[path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    let doc: Value = serde_json::from_str(&json).unwrap();
    let str40 = &doc["vlmeta"]["str40"];
    let error = str40["error"].as_str().unwrap();
    assert!(error.contains("vlmetalayer \"str40\""), "{error}");
    assert!(error.contains("2147483647"), "{error}");
    assert_eq!(
        str40["raw_hex"].as_str().unwrap().len(),
        2 * trailer.vlmetalayer("str40").unwrap().content.len()
    );
    // The others still decode.
    assert_eq!(doc["vlmeta"]["str"], "hello");
}
