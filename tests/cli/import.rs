//! `import`: `.npy` files as np.save writes them (every fixture of tests/data/arrays as
//! np.save's header recorded by its generator and python's values; tests/data/npy/ for
//! the header versions, Fortran order, padded structs; larger arrays of several chunks
//! under np.save's headers from tests/data/npy/headers.json) imported, then exported: the
//! input's bytes again. Its refusals are one line on stderr and leave nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::unhex;
use crate::BIN;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("b2nd-meta-import-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn names(&self) -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        n.sort();
        n
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `b2nd-meta` with `args` and `stdin`: exit code, stdout, stderr.
fn run(args: &[&str], stdin: Option<&[u8]>) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(bytes);
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Imports `npy` (stdin with `via_stdin`) with `flags`, then exports it: the bytes.
fn round_trip(npy: &[u8], dir: &Path, name: &str, flags: &[&str], via_stdin: bool) -> Vec<u8> {
    let input = dir.join(format!("{name}.npy"));
    std::fs::write(&input, npy).unwrap();
    let out = dir.join(format!("{name}.b2nd"));
    let source = if via_stdin {
        "-"
    } else {
        input.to_str().unwrap()
    };
    let mut args = vec!["import", source, out.to_str().unwrap()];
    args.extend(flags);
    let (code, _, stderr) = run(&args, via_stdin.then_some(npy));
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{name} {flags:?}");
    let (code, stdout, stderr) = run(&["export", out.to_str().unwrap(), "-o", "-"], None);
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{name}");
    stdout
}

#[test]
fn numpys_files_of_every_fixture_come_back_byte_for_byte() {
    let dir = Dir::new("fixtures");
    let mut n = 0;
    for producer in ["blosc2-4.14.1", "blosc2-3.0.0", "blosc2-2.7.1"] {
        let root = data("arrays").join(producer);
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join("manifest.json")).unwrap())
                .unwrap();
        for f in manifest["fixtures"].as_array().unwrap() {
            let id = f["id"].as_str().unwrap();
            let full = &f["slices"][0];
            assert_eq!(full["spec"], "...");
            // np.save's file of python's values: the header its generator recorded.
            let mut npy = unhex(f["npy_header"].as_str().unwrap());
            let values = std::fs::read(root.join(f["values"].as_str().unwrap())).unwrap();
            npy.extend_from_slice(&values[..full["nbytes"].as_u64().unwrap() as usize]);
            let flags: &[&str] = match n % 3 {
                0 => &[],
                1 => &["--codec", "lz4", "--filter", "bitshuffle", "--threads", "3"],
                _ => &["--sparse", "--codec", "blosclz", "--clevel", "9"],
            };
            let back = round_trip(&npy, &dir.0, &format!("{producer}_{id}"), flags, n % 4 == 0);
            assert!(back == npy, "{producer} {id} {flags:?}");
            n += 1;
        }
    }
    assert!(n > 100, "{n}");
}

#[test]
fn header_versions_fortran_order_and_padded_structs() {
    let dir = Dir::new("npy");
    for (file, back) in [
        ("v1_f8.npy", "v1_f8.npy"),
        ("v2_long_header.npy", "v2_long_header.npy"),
        ("v3_utf8_name.npy", "v3_utf8_name.npy"),
        ("fortran_i4.npy", "fortran_i4_as_c.npy"),
        ("padded_struct.npy", "padded_struct.npy"),
        ("aligned_struct.npy", "aligned_struct.npy"),
        ("big_endian.npy", "big_endian.npy"),
        ("scalar.npy", "scalar.npy"),
        ("empty.npy", "empty.npy"),
        ("bool.npy", "bool.npy"),
    ] {
        let npy = std::fs::read(data("npy").join(file)).unwrap();
        let expected = std::fs::read(data("npy").join(back)).unwrap();
        let got = round_trip(&npy, &dir.0, file.trim_end_matches(".npy"), &[], false);
        assert!(got == expected, "{file}");
    }
}

/// Values of `n` bytes for an array of `dtype`: a noisy ramp (booleans 0 or 1).
fn values(dtype: &str, n: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9u32;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if dtype == "|b1" {
                u8::from(x.is_multiple_of(3))
            } else {
                (i / 97) as u8 ^ (x as u8 & 3)
            }
        })
        .collect()
}

/// Arrays of several chunks, edge chunks and blocks on every axis (numpy's headers from
/// tests/data/npy/headers.json, values made here) come back byte for byte.
#[test]
fn larger_arrays_of_several_chunks_come_back_byte_for_byte() {
    let dir = Dir::new("larger");
    let headers: Value =
        serde_json::from_str(&std::fs::read_to_string(data("npy/headers.json")).unwrap()).unwrap();
    let flags: [&[&str]; 7] = [
        &["--chunks", "128,100", "--blocks", "16,25"],
        &[],
        &[
            "--chunks",
            "3,64,100",
            "--blocks",
            "2,16,50",
            "--codec",
            "lz4hc",
            "--filter",
            "bitshuffle",
        ],
        &[
            "--codec", "zlib", "--clevel", "1", "--sparse", "--chunks", "6999",
        ],
        &[
            "--chunks",
            "100,3,100",
            "--codec",
            "blosclz",
            "--filter",
            "delta",
        ],
        &[
            "--chunks",
            "1,2,3,4,5,6",
            "--filter",
            "bytedelta",
            "--threads",
            "3",
        ],
        &[
            "--chunks", "50000", "--blocks", "7777", "--codec", "lz4", "--clevel", "9",
        ],
    ];
    let cases = headers.as_array().unwrap();
    assert_eq!(cases.len(), flags.len());
    for (i, (case, flags)) in cases.iter().zip(flags).enumerate() {
        let dtype = case["dtype"].as_str().unwrap();
        let itemsize: usize = dtype[2..].parse().unwrap();
        let items: u64 = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .product();
        let mut npy = unhex(case["header"].as_str().unwrap());
        npy.extend(values(dtype, items as usize * itemsize));
        let back = round_trip(&npy, &dir.0, &format!("larger{i}"), flags, i % 3 == 1);
        assert!(back == npy, "{dtype} {flags:?}");
    }
}

/// Refusals: one line naming the problem, exit 1, and nothing left behind.
#[test]
fn refusals_are_one_line_and_leave_nothing() {
    let dir = Dir::new("refusals");
    let v1 = std::fs::read(data("npy/v1_f8.npy")).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let pickled = data("npy/pickled.npy").to_str().unwrap().to_string();
    let short_header = write("short_header.npy", &v1[..100]);
    let short_data = write("short_data.npy", &v1[..500]);
    let not_npy = write("not.npy", b"PK\x03\x04 a zip, not a .npy");
    let good = data("npy/v1_f8.npy").to_str().unwrap().to_string();
    let out = dir.0.join("out.b2nd").to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec![&pickled, &out], format!("{pickled}: expected a .npy without Python objects (numpy pickles them; Blosc2 arrays hold none), found a pickled .npy of dtype |O at byte 10")),
        (vec![&short_header, &out], format!("{short_header}: expected 118 bytes of header, found the end of the input after 90 at byte 100")),
        (vec![&short_data, &out], format!("{short_data}: truncated: expected 480 bytes of data after the 128-byte header, found 372")),
        (vec![&not_npy, &out], format!("{not_npy}: expected the magic \\x93NUMPY of a .npy file, found [50, 4b, 03, 04, 20, 61] at byte 0")),
        (vec![&good, &out, "--chunks", "3"], format!("{out}: chunks should have as many dimensions as the shape (2), found 1")),
        (vec![&good, &out, "--chunks", "3,0"], format!("{out}: chunks cannot be 0 on axis 1, where the shape is not")),
        (vec![&good, &out, "--chunks", "3,5", "--blocks", "4,5"], format!("{out}: blocks cannot be greater than chunks (axis 0)")),
        (vec![&good, &out, "--codec", "gzip"], format!("{out}: --codec \"gzip\": expected blosclz, lz4, lz4hc, zlib or zstd")),
        (vec![&good, &out, "--codec", "ndlz"], format!("{out}: --codec \"ndlz\": expected blosclz, lz4, lz4hc, zlib or zstd")),
        (vec![&good, &out, "--filter", "crc"], format!("{out}: --filter \"crc\": expected nofilter (or none), shuffle, bitshuffle, delta, trunc_prec or bytedelta")),
        (vec![&good, &out, "--clevel", "10"], format!("{out}: expected a compression level from 0 to 9, found 10")),
        (vec![&good, &out, "--meta", "units"], format!("{out}: --meta \"units\": expected NAME=JSON")),
        (vec![&good, &out, "--vlmeta", "n={"], format!("{out}: --vlmeta \"n={{\": the value is not JSON: EOF while parsing an object at line 1 column 1")),
    ];
    for (args, message) in cases {
        let mut all = vec!["import"];
        all.extend(args.iter().copied());
        let (code, stdout, stderr) = run(&all, None);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr, format!("b2nd-meta: {message}\n"), "{args:?}");
        assert!(!Path::new(&out).exists(), "{args:?}");
    }
    assert_eq!(
        dir.names(),
        ["not.npy", "short_data.npy", "short_header.npy"]
    );
}

#[test]
fn an_existing_target_is_kept_unless_forced() {
    let dir = Dir::new("force");
    let out = dir.0.join("a.b2nd");
    std::fs::write(&out, b"precious").unwrap();
    let good = data("npy/v1_f8.npy");
    let args = ["import", good.to_str().unwrap(), out.to_str().unwrap()];
    let (code, _, stderr) = run(&args, None);
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        format!(
            "b2nd-meta: {}: exists: --force replaces it\n",
            out.display()
        )
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    let (code, _, stderr) = run(&[&args[..], &["--force"]].concat(), None);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    let (_, exported, _) = run(&["export", out.to_str().unwrap(), "-o", "-"], None);
    assert!(exported == std::fs::read(&good).unwrap());
    assert_eq!(dir.names(), ["a.b2nd"]);
}
