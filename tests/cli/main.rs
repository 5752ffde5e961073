//! The `b2nd-meta` command-line tool, run as a separate process: `show` on every corpus
//! file against tests/data/manifest.json, `decode`/`encode` against the C vector, and
//! every kind of bad input giving one line on stderr and a non-zero exit, never a panic.
//!
//! One module per concern, declared below; the helpers they share are here, and
//! `crate::common` is `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod built_frames;
mod completions;
mod crash;
mod decode_encode;
mod edit;
mod edit_kill;
mod export;
mod hints;
mod human;
mod import;
mod package;
mod paths;
mod pipeline;
mod scan;
mod set_meta;
mod set_shape;
mod set_vlmeta;
mod show_errors;
mod show_json;
mod show_limits;
mod show_values;
mod store;
mod terminal;
mod usage;
mod user_files;
mod vlmeta;
mod vlmeta_kill;
mod vlmeta_lock;

/// C-Blosc2 reading a frame file, shared with tests/frame.
#[path = "../c_ffi/mod.rs"]
mod c_ffi;
#[path = "../frame/c_vlmeta.rs"]
mod c_vlmeta;
mod voice;

use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use b2nd_meta::Meta;
use common::frame::Fixed;
use common::manifest;
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

// ---------------------------------------------------------------------------
// Frames built by hand
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
