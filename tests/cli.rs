//! The `b2nd-meta` command-line tool, run as a separate process: `show` on every corpus
//! file against tests/data/manifest.json, `decode`/`encode` against the C vector, and
//! every kind of bad input giving one line on stderr and a non-zero exit, never a panic.

mod common;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use b2nd_meta::Meta;
use common::frame::Fixed;
use common::{data_path, hex, manifest, unhex};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

/// The 53 bytes C-Blosc2's `b2nd_serialize_meta` writes for shape (3, 4), chunks
/// (2, 4), blocks (1, 2), dtype `<i4`.
const C_VECTOR: &str = "97 00 02 92 d3 00 00 00 00 00 00 00 03 d3 00 00 00 00 00 00 00 04 \
     92 d2 00 00 00 02 d2 00 00 00 04 92 d2 00 00 00 01 d2 00 00 00 02 00 db 00 00 00 03 3c 69 34";
const C_VECTOR_JSON: &str = r#"{"layout":"b2nd-v1","version":0,"ndim":2,"shape":[3,4],"chunkshape":[2,4],"blockshape":[1,2],"dtype_format":0,"dtype":"<i4"}"#;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn stdout_lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    fn json_lines(&self) -> Vec<Value> {
        self.stdout_lines()
            .into_iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
            .collect()
    }

    /// Success, nothing on stderr.
    fn assert_ok(&self) -> &Self {
        assert_eq!(self.code, Some(0), "stderr: {}", self.stderr);
        assert_eq!(self.stderr, "");
        self
    }

    /// Exit status 1 and exactly one line on stderr, in our format, containing `needle`.
    fn assert_one_error(&self, needle: &str) -> &Self {
        assert_eq!(
            self.code,
            Some(1),
            "stdout: {}\nstderr: {}",
            self.stdout,
            self.stderr
        );
        assert_no_panic(&self.stderr);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "stderr: {:?}", self.stderr);
        assert!(
            lines[0].starts_with("b2nd-meta: "),
            "stderr: {:?}",
            self.stderr
        );
        assert!(
            lines[0].contains(needle),
            "{needle:?} not in stderr {:?}",
            self.stderr
        );
        self
    }
}

fn assert_no_panic(stderr: &str) {
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "stderr: {stderr}");
}

fn run_with<I, S>(args: I, stdin: Option<&str>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn b2nd-meta");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(input.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn run<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_with(args, None)
}

/// A path in the temporary directory, unique to this process and test.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("b2nd-meta-cli-{}-{name}", std::process::id()))
}

fn corpus_file(name: &str) -> Value {
    manifest()["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in the manifest"))
        .clone()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a u64: {v}"))
}

fn numpy_kind(word: &str) -> &'static str {
    match word {
        "bool" => "b",
        "int" => "i",
        "uint" => "u",
        "float" => "f",
        "complex" => "c",
        "bytes" => "S",
        "unicode" => "U",
        "void" | "struct" | "subarray" => "V",
        "datetime" => "M",
        "timedelta" => "m",
        "object" => "O",
        other => panic!("unknown kind {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// show on the corpus
// ---------------------------------------------------------------------------

/// Checks one `show` document against its manifest entry.
fn check_against_manifest(doc: &Value, file: &Value) {
    let name = file["name"].as_str().unwrap();
    let fr = &doc["frame"];
    let expected_kind = if file["contiguous"] == true {
        "contiguous"
    } else {
        "sparse"
    };
    assert_eq!(fr["kind"], expected_kind, "{name}");
    for key in [
        "header_len",
        "frame_len",
        "typesize",
        "blocksize",
        "chunksize",
        "nbytes",
        "cbytes",
        "codec_code",
        "clevel",
    ] {
        assert_eq!(u(&fr[key]), u(&file[key]), "{name}: {key}");
    }
    assert_eq!(
        fr["codec"].as_str().unwrap().to_uppercase(),
        file["codec"].as_str().unwrap(),
        "{name}: codec"
    );
    let header_file_len = std::fs::metadata(data_path(file["header_path"].as_str().unwrap()))
        .unwrap()
        .len();
    assert_eq!(u(&fr["file_len"]), header_file_len, "{name}: file_len");
    assert_eq!(fr["truncated"], false, "{name}");
    assert_eq!(fr["metalayer_names"], file["metalayer_names"], "{name}");

    // Key order: the document is written by hand, so check it is as documented.
    let keys: Vec<&String> = fr.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 14, "{name}: frame keys {keys:?}");

    let layers = doc["metalayers"].as_object().unwrap();
    let names: Vec<&str> = layers.keys().map(String::as_str).collect();
    let mut expected_names: Vec<&str> = file["metalayer_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    expected_names.sort_unstable(); // serde_json's Map sorts keys
    assert_eq!(names, expected_names, "{name}");
    for m in file["metalayers"].as_array().unwrap() {
        let mname = m["name"].as_str().unwrap();
        let raw_hex = m["raw_hex"].as_str().unwrap();
        let shown = &layers[mname];
        if mname == "b2nd" {
            // The library's own JSON of the raw bytes, and the manifest's facts.
            let meta: Meta = b2nd_meta::from_slice(&unhex(raw_hex)).unwrap();
            let lib_json: Value =
                serde_json::from_str(&serde_json::to_string(&meta).unwrap()).unwrap();
            assert_eq!(shown, &lib_json, "{name}: b2nd");
            assert_eq!(shown["layout"], "b2nd-v1", "{name}");
            assert_eq!(shown["version"], file["b2nd_version"], "{name}");
            assert_eq!(shown["ndim"], file["ndim"], "{name}");
            assert_eq!(shown["shape"], file["shape"], "{name}");
            assert_eq!(shown["chunkshape"], file["chunks"], "{name}");
            assert_eq!(shown["blockshape"], file["blocks"], "{name}");
            assert_eq!(shown["dtype_format"], file["dtype_format"], "{name}");
            assert_eq!(shown["dtype"], file["dtype_stored"], "{name}");
        } else {
            assert_eq!(shown["raw_hex"], raw_hex, "{name}: {mname}");
            // A user metalayer: its raw bytes and their msgpack value.
            let value = b2nd_meta::value::Value::from_msgpack(&unhex(raw_hex)).unwrap();
            assert_eq!(
                shown["value"],
                serde_json::to_value(&value).unwrap(),
                "{name}: {mname}"
            );
            assert_eq!(shown.as_object().unwrap().len(), 2, "{name}: {mname}");
        }
    }

    if file["is_ndarray"] == true {
        let array = &doc["array"];
        assert_eq!(array["metalayer"], "b2nd", "{name}");
        let dtype = &array["dtype"];
        assert!(dtype.get("error").is_none(), "{name}: {dtype}");
        assert!(dtype.get("assumed").is_none(), "{name}: {dtype}");
        assert_eq!(
            u(&dtype["itemsize"]),
            u(&file["dtype_itemsize"]),
            "{name}: itemsize"
        );
        assert_eq!(
            numpy_kind(dtype["kind"].as_str().unwrap()),
            file["dtype_kind"].as_str().unwrap(),
            "{name}: kind"
        );
        // NumPy's dtype.str, except for structs, which are shown as str(dtype).
        let expected_str = if dtype["kind"] == "struct" {
            b2nd_meta::dtype::Dtype::parse(file["dtype_stored"].as_str().unwrap())
                .unwrap()
                .to_string()
        } else {
            file["dtype_numpy_str"].as_str().unwrap().to_owned()
        };
        assert_eq!(dtype["str"], expected_str.as_str(), "{name}: dtype str");
        assert_eq!(array["problems"], serde_json::json!([]), "{name}");
        assert_eq!(
            array["blocks_within_chunks"],
            serde_json::json!([]),
            "{name}"
        );
    } else {
        assert!(doc.get("array").is_none(), "{name}: {doc}");
    }
}

#[test]
fn show_matches_the_manifest_for_every_corpus_file() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    assert!(files.len() >= 50);
    for file in files {
        let path = data_path(file["path"].as_str().unwrap());
        let out = run([OsStr::new("show"), path.as_os_str()]);
        out.assert_ok();
        let docs = out.json_lines();
        assert_eq!(docs.len(), 1, "{}", out.stdout);
        assert_eq!(docs[0]["path"], path.to_str().unwrap());
        check_against_manifest(&docs[0], file);
    }
}

#[test]
fn show_prints_one_line_per_path_in_order() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|f| data_path(f["path"].as_str().unwrap()))
        .collect();
    let out = run(std::iter::once(OsStr::new("show")).chain(paths.iter().map(|p| p.as_os_str())));
    out.assert_ok();
    let docs = out.json_lines();
    assert_eq!(docs.len(), files.len());
    for ((doc, file), path) in docs.iter().zip(files).zip(&paths) {
        assert_eq!(doc["path"], path.to_str().unwrap());
        check_against_manifest(doc, file);
    }
}

#[test]
fn show_keeps_the_documented_key_order() {
    let out = run(["show", "tests/data/corpus/user_meta.b2nd"]);
    out.assert_ok();
    let line = out.stdout.trim_end();
    let order = [
        r#"{"path":"tests/data/corpus/user_meta.b2nd","frame":{"kind":"contiguous","header_len":196,"#,
        r#""frame_len":423,"file_len":423,"truncated":false,"typesize":2,"#,
        r#""nbytes":"#,
        r#""codec":"zstd","codec_code":5,"clevel":5,"metalayer_names":["b2nd","mine","other"]},"#,
        r#""metalayers":{"b2nd":{"layout":"b2nd-v1","#,
        r#""mine":{"value":{"answer":42,"tag":"x"},"raw_hex":"82a6616e737765722aa3746167a178"},"other":{"value":[1,2,3],"raw_hex":"93010203"}},"#,
        r#""array":{"metalayer":"b2nd","dtype":{"str":"<i2","kind":"int","itemsize":2},"problems":[],"blocks_within_chunks":[],"trailing_bytes":0}}"#,
    ];
    let mut at = 0;
    for part in order {
        let found = line[at..]
            .find(part)
            .unwrap_or_else(|| panic!("{part:?} not after byte {at} of {line}"));
        at += found + part.len();
    }
    assert_eq!(at, line.len());
}

#[test]
fn show_on_a_frame_without_an_array() {
    let out = run(["show", "tests/data/corpus/schunk_no_b2nd.b2frame"]);
    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"],
        serde_json::json!({"mine": {"value": "abc", "raw_hex": "a3616263"}})
    );
    assert!(doc.get("array").is_none());
}

// ---------------------------------------------------------------------------
// show: failures
// ---------------------------------------------------------------------------

#[test]
fn a_truncated_file_is_printed_then_reported() {
    let src = data_path("corpus/ndim2_i4.b2nd");
    let bytes = std::fs::read(&src).unwrap();
    let path = temp_path("truncated.b2nd");
    let keep = bytes.len() - 100;
    std::fs::write(&path, &bytes[..keep]).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_one_error(&format!(
        "truncated: the header declares {} bytes, the file has {keep}",
        bytes.len()
    ));
    let docs = out.json_lines();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["frame"]["truncated"], true);
    assert_eq!(u(&docs[0]["frame"]["file_len"]), keep as u64);
    assert_eq!(u(&docs[0]["frame"]["frame_len"]), bytes.len() as u64);
    // What could be read is still there.
    assert_eq!(
        docs[0]["metalayers"]["b2nd"]["shape"],
        serde_json::json!([10, 7])
    );

    // --human says so too, and fails the same way.
    let path = temp_path("truncated-human.b2nd");
    std::fs::write(&path, &bytes[..keep]).unwrap();
    let out = run([OsStr::new("show"), OsStr::new("--human"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();
    out.assert_one_error("truncated");
    assert!(out.stdout.contains("TRUNCATED"), "{}", out.stdout);
}

#[test]
fn a_header_cut_short_is_one_error_line() {
    let bytes = std::fs::read(data_path("corpus/ndim2_i4.b2nd")).unwrap();
    for keep in [0, 1, 10, 86, 87, 100, 164] {
        let path = temp_path(&format!("cut-{keep}.b2nd"));
        std::fs::write(&path, &bytes[..keep]).unwrap();
        let out = run([OsStr::new("show"), path.as_os_str()]);
        std::fs::remove_file(&path).unwrap();
        out.assert_one_error(path.to_str().unwrap());
        assert_eq!(out.stdout, "", "cut at {keep}");
    }
}

#[test]
fn not_a_frame_is_one_error_line() {
    let path = temp_path("not-a-frame.txt");
    std::fs::write(&path, "hello, this is not a Blosc2 frame at all, but long enough to fill the 87-byte fixed header of one\n").unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();
    // The magic is what C-Blosc2 checks: "b2frame\0" from byte 2.
    out.assert_one_error("at byte 2");
    assert_eq!(out.stdout, "");
}

#[test]
fn a_missing_path_is_one_error_line() {
    let out = run(["show", "tests/data/corpus/does-not-exist.b2nd"]);
    out.assert_one_error("tests/data/corpus/does-not-exist.b2nd: ");
    assert_eq!(out.stdout, "");
}

#[test]
fn a_directory_without_chunks_b2frame_is_one_error_line() {
    let dir = temp_path("empty-dir.b2nd");
    std::fs::create_dir_all(&dir).unwrap();
    let out = run([OsStr::new("show"), dir.as_os_str()]);
    std::fs::remove_dir(&dir).unwrap();
    out.assert_one_error("chunks.b2frame");
    assert_eq!(out.stdout, "");
}

#[test]
fn several_paths_go_on_after_a_failure() {
    let out = run([
        "show",
        "tests/data/corpus/ndim1_f8.b2nd",
        "tests/data/corpus/does-not-exist.b2nd",
        "tests/data/corpus/sparse_2d.b2nd",
    ]);
    out.assert_one_error("does-not-exist");
    let docs = out.json_lines();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["path"], "tests/data/corpus/ndim1_f8.b2nd");
    assert_eq!(docs[1]["path"], "tests/data/corpus/sparse_2d.b2nd");
    assert_eq!(docs[1]["frame"]["kind"], "sparse");
}

#[test]
fn a_corrupt_b2nd_metalayer_shows_its_hex_and_the_error() {
    let file = corpus_file("ndim2_i4");
    let meta = &file["metalayers"][0];
    assert_eq!(meta["name"], "b2nd");
    // Byte 4 of the content is the marker (0xd3) of the first shape entry.
    let at = usize::try_from(u(&meta["content_offset"])).unwrap() + 4;
    let mut bytes = std::fs::read(data_path(file["path"].as_str().unwrap())).unwrap();
    assert_eq!(bytes[at], 0xd3);
    bytes[at] = 0x03;
    let path = temp_path("corrupt.b2nd");
    std::fs::write(&path, &bytes).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_one_error("at byte 4");
    let docs = out.json_lines();
    assert_eq!(docs.len(), 1);
    let b2nd = &docs[0]["metalayers"]["b2nd"];
    let mut expected_hex = unhex(meta["raw_hex"].as_str().unwrap());
    expected_hex[4] = 0x03;
    let expected_hex: String = expected_hex.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(b2nd["raw_hex"], expected_hex.as_str());
    let error = b2nd["error"].as_str().unwrap();
    assert!(error.contains("at byte 4"), "{error}");
    assert!(error.contains("0xd3"), "{error}");
    assert!(docs[0].get("array").is_none());
}

#[test]
fn validation_problems_are_reported_but_do_not_fail() {
    // ndim1_f8: shape (10,), chunks (4,), blocks (2,). Make the shape -1 and the block 5.
    let file = corpus_file("ndim1_f8");
    let meta = &file["metalayers"][0];
    let content = usize::try_from(u(&meta["content_offset"])).unwrap();
    let mut bytes = std::fs::read(data_path(file["path"].as_str().unwrap())).unwrap();
    // shape[0]: 0xd3 at content + 4, its value at 5..13.
    bytes[content + 5..content + 13].copy_from_slice(&(-1i64).to_be_bytes());
    // blockshape[0]: array header at 4 + 9 + 1 + 5 = 19, 0xd2 at 20, value at 21..25.
    assert_eq!(bytes[content + 20], 0xd2);
    bytes[content + 21..content + 25].copy_from_slice(&5i32.to_be_bytes());
    let path = temp_path("invalid.b2nd");
    std::fs::write(&path, &bytes).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("--human"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(doc["metalayers"]["b2nd"]["shape"], serde_json::json!([-1]));
    let problems = doc["array"]["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.as_str().unwrap().contains("axis 0: shape is -1")),
        "{problems:?}"
    );
    assert_eq!(
        doc["array"]["blocks_within_chunks"],
        serde_json::json!(["axis 0: blockshape 5 exceeds chunkshape 4"])
    );

    human.assert_ok();
    assert!(
        human.stdout.contains("  problem: axis 0: shape is -1"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains("blockshape 5 exceeds chunkshape 4"),
        "{}",
        human.stdout
    );
}

// ---------------------------------------------------------------------------
// show: a caterva metalayer, in a frame built by hand
// ---------------------------------------------------------------------------

/// A contiguous frame holding only a header (zstd, clevel 1, the given typesize, no
/// data) with the given metalayers.
fn frame_with(typesize: i32, metalayers: &[(&str, &[u8])]) -> Vec<u8> {
    // Header facts that agree with the array metalayer, as python-blosc2 writes them
    // (blocksize, chunksize and nbytes from the shapes), so that show reports no
    // metalayer-against-frame mismatch.
    let mut fixed = Fixed::empty(typesize);
    let array = ["b2nd", "caterva"]
        .iter()
        .find_map(|name| metalayers.iter().find(|(n, _)| n == name));
    if let Some((meta, _)) = array.and_then(|(_, c)| b2nd_meta::take_from_slice::<Meta>(c).ok()) {
        let ts = i64::from(typesize);
        let blocks: i64 = meta.blockshape().iter().map(|&b| i64::from(b)).product();
        let chunk: i64 = meta
            .chunkshape()
            .iter()
            .zip(meta.blockshape())
            .map(|(&c, &b)| (i64::from(c) + i64::from(b) - 1) / i64::from(b) * i64::from(b))
            .product();
        let grid: i64 = meta
            .shape()
            .iter()
            .zip(meta.chunkshape())
            .map(|(&s, &c)| (s + i64::from(c) - 1) / i64::from(c))
            .product();
        fixed.blocksize = (blocks * ts) as i32;
        fixed.chunksize = (chunk * ts) as i32;
        fixed.nbytes = grid * chunk * ts;
    }
    common::frame::frame_with(fixed, metalayers)
}

#[test]
fn a_caterva_frame_gets_the_assumed_dtype() {
    let caterva = hex("95 00 01 91 d3 00 00 00 00 00 00 00 0a 91 d2 00 00 00 05 91 d2 00 00 00 05");
    let path = temp_path("caterva.b2frame");
    std::fs::write(
        &path,
        frame_with(8, &[("caterva", &caterva), ("x", b"\x01")]),
    )
    .unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("-H"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"],
        serde_json::json!({
            "caterva": {"layout": "caterva-v0", "version": 0, "ndim": 1, "shape": [10],
                        "chunkshape": [5], "blockshape": [5]},
            "x": {"value": 1, "raw_hex": "01"}
        })
    );
    assert_eq!(doc["frame"]["codec"], "zstd");
    assert_eq!(doc["frame"]["typesize"], 8);
    assert_eq!(doc["array"]["metalayer"], "caterva");
    assert_eq!(
        doc["array"]["dtype"],
        serde_json::json!({"str": "|S8", "kind": "bytes", "itemsize": 8, "assumed": true})
    );
    assert_eq!(doc["array"]["problems"], serde_json::json!([]));

    human.assert_ok();
    assert!(
        human
            .stdout
            .contains("caterva (caterva-v0): shape (10,), chunks (5,), blocks (5,), dtype |S8"),
        "{}",
        human.stdout
    );
}

#[test]
fn stale_bytes_after_the_metalayer_are_ignored_as_c_blosc2_does() {
    // blosc2_meta_update can leave old bytes after shorter content; C reads the
    // metalayer from the start of the content and ignores them.
    let meta = b2nd_meta::MetaB2ndV1::new(vec![10], vec![4], vec![2], "<i4");
    let mut content = b2nd_meta::to_vec(&meta).unwrap();
    content.extend_from_slice(&[0xde, 0xad]);
    let frame = frame_with(4, &[("b2nd", &content)]);
    let path = temp_path("stale.b2frame");
    std::fs::write(&path, &frame).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("-H"), path.as_os_str()]);

    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(doc["metalayers"]["b2nd"]["shape"], serde_json::json!([10]));
    assert_eq!(doc["array"]["trailing_bytes"], 2);
    human.assert_ok();
    assert!(human.stdout.contains("2 stale byte(s)"), "{}", human.stdout);

    // The library reads it, and a resize keeps the stale bytes where they were.
    let header = b2nd_meta::frame::open(&path).unwrap().header;
    assert_eq!(header.array_meta().unwrap().shape(), [10]);
    b2nd_meta::frame::set_shape(&path, &[12]).unwrap();
    let after = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let changed: Vec<usize> = (0..frame.len()).filter(|&i| frame[i] != after[i]).collect();
    assert_eq!(changed.len(), 1, "only the low byte of shape[0]");
    assert_eq!(after[after.len() - 2..], [0xde, 0xad]);
}

#[test]
fn an_unparsable_dtype_is_reported_in_the_array() {
    let meta = b2nd_meta::MetaB2ndV1::new(vec![4], vec![2], vec![1], "<i3");
    let content = b2nd_meta::to_vec(&meta).unwrap();
    let path = temp_path("bad-dtype.b2frame");
    std::fs::write(&path, frame_with(4, &[("b2nd", &content)])).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    let dtype = &out.json_lines()[0]["array"]["dtype"];
    assert_eq!(dtype["str"], "<i3");
    assert!(
        dtype["error"].as_str().unwrap().contains("at byte"),
        "{dtype}"
    );
    assert!(dtype.get("itemsize").is_none());
}

// ---------------------------------------------------------------------------
// show --human
// ---------------------------------------------------------------------------

#[test]
fn human_view_is_compact_and_readable() {
    let out = run([
        "show",
        "--human",
        "tests/data/corpus/ndim2_i4.b2nd",
        "tests/data/corpus/ndim1_f8.b2nd",
        "tests/data/corpus/ndim0_i8.b2nd",
        "tests/data/corpus/user_meta.b2nd",
        "tests/data/corpus/sparse_2d.b2nd",
    ]);
    out.assert_ok();
    let text = &out.stdout;
    assert!(
        text.contains(
            "tests/data/corpus/ndim2_i4.b2nd: contiguous frame, 856 bytes, zstd level 5, typesize 4\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  b2nd (b2nd-v1): shape (10, 7), chunks (4, 4), blocks (2, 2), dtype <i4 (int, 4 bytes)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("shape (10,), chunks (4,), blocks (2,)"),
        "{text}"
    );
    assert!(text.contains("shape (), chunks (), blocks ()"), "{text}");
    // User metalayers print their msgpack value (issue 14), as compact JSON.
    assert!(
        text.contains("  mine: {\"answer\":42,\"tag\":\"x\"} (15 bytes)\n"),
        "{text}"
    );
    assert!(text.contains("  other: [1,2,3] (4 bytes)\n"), "{text}");
    assert!(text.contains("sparse_2d.b2nd: sparse frame"), "{text}");
    assert!(
        !text.contains("\"layout\""),
        "no report JSON in the human view: {text}"
    );
}

// ---------------------------------------------------------------------------
// decode and encode
// ---------------------------------------------------------------------------

#[test]
fn decode_the_c_vector() {
    for input in [
        C_VECTOR.to_owned(),
        C_VECTOR.replace(' ', ""),
        format!("0x{}", C_VECTOR.replace(' ', "").to_uppercase()),
        format!("  {C_VECTOR}\n"),
    ] {
        let out = run(["decode", input.as_str()]);
        out.assert_ok();
        assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"), "input {input:?}");
    }
    // Several arguments are joined; - reads stdin.
    let words: Vec<&str> = C_VECTOR.split(' ').collect();
    let out = run(std::iter::once("decode").chain(words.iter().copied()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"));
    let out = run_with(["decode", "-"], Some(C_VECTOR));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"));
}

#[test]
fn encode_the_c_vector() {
    let out = run(["encode", C_VECTOR_JSON]);
    out.assert_ok();
    assert_eq!(out.stdout, format!("{}\n", C_VECTOR.replace(' ', "")));
    let out = run_with(["encode", "-"], Some(C_VECTOR_JSON));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{}\n", C_VECTOR.replace(' ', "")));
}

#[test]
fn encode_then_decode_round_trips_every_layout() {
    let sixteen = format!("[{}]", vec!["1"; 16].join(","));
    let cases = [
        (
            r#"{"layout":"caterva-v0","version":0,"ndim":1,"shape":[10],"chunkshape":[5],"blockshape":[5]}"#.to_owned(),
            Some("950001"),
        ),
        (
            r#"{"layout":"caterva-v0","version":0,"ndim":0,"shape":[],"chunkshape":[],"blockshape":[]}"#.to_owned(),
            Some("950000909090"),
        ),
        (
            r#"{"layout":"b2nd","version":0,"ndim":2,"shape":[5,6],"chunkshape":[2,3],"blockshape":[1,1],"dtype":"int32"}"#.to_owned(),
            Some("960002"),
        ),
        (
            r#"{"layout":"b2nd-v1","version":0,"ndim":0,"shape":[],"chunkshape":[],"blockshape":[],"dtype_format":0,"dtype":"<i4"}"#.to_owned(),
            Some("97000090909000db000000033c6934"),
        ),
        (
            format!(
                r#"{{"layout":"b2nd-v1","version":0,"ndim":16,"shape":{sixteen},"chunkshape":{sixteen},"blockshape":{sixteen},"dtype_format":0,"dtype":"|u1"}}"#
            ),
            Some("970010a0"),
        ),
        (
            r#"{"layout":"b2nd-v1","version":0,"ndim":1,"shape":[-1],"chunkshape":[2147483647],"blockshape":[-2147483648],"dtype_format":127,"dtype":"caf\u00e9 \"quoted\""}"#.to_owned(),
            None,
        ),
    ];
    for (json, prefix) in cases {
        let enc = run(["encode", json.as_str()]);
        enc.assert_ok();
        let hex_out = enc.stdout.trim_end().to_owned();
        assert!(
            hex_out
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{hex_out}"
        );
        if let Some(prefix) = prefix {
            assert!(hex_out.starts_with(prefix), "{json}: {hex_out}");
        }
        let dec = run(["decode", hex_out.as_str()]);
        dec.assert_ok();
        let back: Value = serde_json::from_str(dec.stdout.trim_end()).unwrap();
        let original: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, original, "{json}");
    }
}

#[test]
fn bad_hex_is_one_error_line() {
    for (input, needle) in [
        ("970", "odd number of hex digits"),
        ("zz", "position 0"),
        ("97 00 0g", "position 7"),
        ("0x", ""),
        ("97 00 02 92 03", "at byte 4"),
        ("950000909090ff", "at byte 6"),
        ("98", "at byte 0"),
    ] {
        let out = run(["decode", input]);
        out.assert_one_error(needle);
        assert!(out.stdout_lines().is_empty(), "{input}: {}", out.stdout);
        assert!(
            out.stderr.starts_with("b2nd-meta: decode: "),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn bad_json_is_one_error_line() {
    let seventeen = format!("[{}]", vec!["1"; 17].join(","));
    for json in [
        "{".to_owned(),
        "not json".to_owned(),
        "[]".to_owned(),
        format!(
            r#"{{"layout":"b2nd-v1","version":0,"ndim":17,"shape":{seventeen},"chunkshape":{seventeen},"blockshape":{seventeen},"dtype_format":0,"dtype":"|u1"}}"#
        ),
        format!(r#"{{"shape":{seventeen},"chunkshape":{seventeen},"blockshape":{seventeen}}}"#),
        r#"{"layout":"b2nd-v1","shape":[3,4],"chunkshape":[2],"blockshape":[1,2],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","ndim":3,"shape":[3,4],"chunkshape":[2,4],"blockshape":[1,2],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[1],"chunkshape":[1],"blockshape":[1],"dtype_format":128,"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","version":1,"shape":[1],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[1],"chunkshape":[2147483648],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[9223372036854775808],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v2","shape":[1],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
    ] {
        let out = run(["encode", json.as_str()]);
        out.assert_one_error("b2nd-meta: encode: ");
        assert_eq!(out.stdout, "", "{json}");
    }
}

// ---------------------------------------------------------------------------
// help, usage, pipes
// ---------------------------------------------------------------------------

#[test]
fn help_documents_every_command_with_an_example() {
    let out = run(["--help"]);
    out.assert_ok();
    let help = &out.stdout;
    for command in ["show", "decode", "encode", "--human"] {
        assert!(help.contains(command), "{command} not in {help}");
    }
    for example in [
        "b2nd-meta show tests/data/corpus/ndim2_i4.b2nd",
        "b2nd-meta show --human ",
        "b2nd-meta decode 97000090909000db000000033c6934",
        "b2nd-meta encode '{",
    ] {
        assert!(help.contains(example), "{example} not in {help}");
    }
    for command in ["show", "decode", "encode"] {
        let sub = run([command, "--help"]);
        sub.assert_ok();
        assert!(
            sub.stdout.contains(&format!("b2nd-meta {command} ")),
            "no example in {command} --help: {}",
            sub.stdout
        );
    }
    let version = run(["--version"]);
    version.assert_ok();
    assert_eq!(
        version.stdout,
        format!("b2nd-meta {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Splits an example line from the help into arguments: words, and one '...' quote.
fn example_args(line: &str) -> Vec<String> {
    let rest = line.trim().strip_prefix("b2nd-meta ").unwrap();
    match rest.split_once('\'') {
        Some((words, quoted)) => {
            let mut args: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
            args.push(quoted.strip_suffix('\'').unwrap().to_owned());
            args
        }
        None => rest.split_whitespace().map(str::to_owned).collect(),
    }
}

#[test]
fn the_examples_in_the_help_work() {
    let help = run(["--help"]).stdout;
    let examples: Vec<&str> = help
        .lines()
        .filter(|l| l.trim_start().starts_with("b2nd-meta "))
        .collect();
    assert_eq!(examples.len(), 4, "{help}");
    for line in examples {
        let out = run(example_args(line));
        out.assert_ok();
        assert!(!out.stdout.is_empty(), "{line}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["show"][..],
        &["decode"],
        &["encode"],
        &["frobnicate"],
        &[],
        &["show", "--bogus", "x"],
    ] {
        let out = run(args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert_no_panic(&out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    // Far more output than a pipe buffers, so the writes must meet the closed pipe.
    let manifest = manifest();
    let paths: Vec<PathBuf> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| data_path(f["path"].as_str().unwrap()))
        .collect();
    for human in [false, true] {
        let mut args: Vec<&OsStr> = vec![OsStr::new("show")];
        if human {
            args.push(OsStr::new("--human"));
        }
        for _ in 0..40 {
            args.extend(paths.iter().map(|p| p.as_os_str()));
        }
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_no_panic(&stderr);
        assert_ne!(out.status.code(), Some(101), "{stderr}");
        assert_eq!(stderr, "", "human {human}");
    }
}

#[test]
fn paths_are_printed_as_given() {
    // A path with characters JSON must escape.
    let dir = temp_path("we\"ird\\dir");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a \"b\".b2nd");
    std::fs::copy(data_path("corpus/ndim0_i8.b2nd"), &path).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_dir(&dir).unwrap();
    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(Path::new(doc["path"].as_str().unwrap()), path);
}

#[test]
fn odd_metalayer_names_stay_on_their_line() {
    let b2nd = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new(
        vec![4],
        vec![2],
        vec![1],
        "<i4",
    ))
    .unwrap();
    let path = temp_path("odd-names.b2frame");
    std::fs::write(
        &path,
        frame_with(4, &[("b2nd", &b2nd), ("a\nb \"q\"", b"\x01\x02")]),
    )
    .unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("--human"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    assert_eq!(out.stdout_lines().len(), 1);
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"]["a\nb \"q\""],
        serde_json::json!({"raw_hex": "0102", "error": "not one msgpack value: expected the end of the input, found 1 more byte(s) at byte 1"})
    );
    assert_eq!(
        doc["frame"]["metalayer_names"],
        serde_json::json!(["b2nd", "a\nb \"q\""])
    );

    human.assert_ok();
    let lines: Vec<&str> = human.stdout.lines().collect();
    // This header-only frame has no trailer: a 4th line says so (vlmeta).
    assert_eq!(lines.len(), 4, "{}", human.stdout);
    assert_eq!(lines[2], r#"  "a\nb \"q\"": 2 bytes: 0102"#);
    assert!(lines[3].starts_with("  vlmeta: TRAILER DOES NOT READ: "));
}
