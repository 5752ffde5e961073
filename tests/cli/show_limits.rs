//! `show` on awkward inputs (issue 10.8, 10.9): a non-UTF-8 file name comes back
//! exactly through "path_bytes_hex"; a frame with a 256 MiB user metalayer is shown
//! within 64 MB of resident memory, with a bounded hex prefix, and a 96 MiB one in full
//! with --full-hex, streamed.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("b2nd-meta-limits-{}-{name}", std::process::id()))
}

#[cfg(unix)]
#[test]
fn a_non_utf8_name_is_recoverable_from_path_bytes_hex() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = temp("names");
    std::fs::create_dir_all(&dir).unwrap();
    let name = OsStr::from_bytes(b"caf\xe9-\xff.b2nd");
    let path = dir.join(name);
    std::fs::copy(common::data_path("corpus/ndim2_i4.b2nd"), &path).unwrap();
    let utf8 = dir.join("plain.b2nd");
    std::fs::copy(common::data_path("corpus/ndim2_i4.b2nd"), &utf8).unwrap();

    let out = Command::new(BIN)
        .arg("show")
        .arg(&path)
        .arg(&utf8)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    let expected_hex: String = path
        .as_os_str()
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(first["path"], path.to_string_lossy().as_ref());
    assert!(first["path"]
        .as_str()
        .unwrap()
        .ends_with("caf\u{fffd}-\u{fffd}.b2nd"));
    assert_eq!(first["path_bytes_hex"], expected_hex.as_str());
    // Right after "path", before "frame".
    assert!(lines[0].contains(&format!("\"path_bytes_hex\":\"{expected_hex}\",\"frame\":")));
    // A UTF-8 path has no path_bytes_hex.
    assert!(!lines[1].contains("path_bytes_hex"), "{}", lines[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A contiguous frame holding only a header with one user metalayer `big` of `len`
/// zero bytes, written sparse (the content is a hole).
fn big_metalayer_frame(len: u32, tag: &str) -> PathBuf {
    let path = temp(&format!("big-{len}-{tag}.b2nd"));
    let content_at: u32 = 111;
    let header_len = content_at + len;
    let mut h: Vec<u8> = vec![0x9e, 0xa8];
    h.extend_from_slice(b"b2frame\0");
    h.push(0xd2);
    h.extend_from_slice(&(header_len as i32).to_be_bytes());
    h.push(0xcf);
    h.extend_from_slice(&u64::from(header_len).to_be_bytes()); // frame_len: header only
    h.extend_from_slice(&[0xa4, 0x12, 0x00, 0x15, 0x03]);
    h.push(0xd3);
    h.extend_from_slice(&0i64.to_be_bytes());
    h.push(0xd3);
    h.extend_from_slice(&0i64.to_be_bytes());
    for v in [8i32, 0, 0] {
        h.push(0xd2);
        h.extend_from_slice(&v.to_be_bytes());
    }
    h.extend_from_slice(&[0xd1, 0, 1, 0xd1, 0, 1, 0xc2]);
    h.extend_from_slice(&[0xd8, 6, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(h.len(), 87);
    h.extend_from_slice(&[0x93, 0xcd, 0, 16, 0xde, 0, 1]);
    h.extend_from_slice(&[0xa3, b'b', b'i', b'g', 0xd2, 0, 0, 0, 106]);
    h.extend_from_slice(&[0xdc, 0, 1, 0xc6]);
    h.extend_from_slice(&len.to_be_bytes());
    assert_eq!(h.len(), content_at as usize);
    std::fs::write(&path, &h).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(u64::from(header_len)).unwrap();
    path
}

/// The child's peak resident memory so far (VmHWM of /proc/<pid>/status), in bytes;
/// `None` once it has exited.
#[cfg(target_os = "linux")]
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `b2nd-meta args`, handing each piece of its stdout to `consume`; returns the
/// exit status, the child's peak resident memory in bytes and its stderr.
///
/// The peak is the child's own VmHWM, sampled after each read while it is blocked
/// writing to the full pipe (rusage's ru_maxrss would also count this test process's
/// memory, which the child's exec inherits in the accounting); the output must be
/// larger than a pipe holds (64 KiB) so that the child is still alive to be sampled.
#[cfg(target_os = "linux")]
fn run_measured(args: &[&std::ffi::OsStr], mut consume: impl FnMut(&[u8])) -> (i32, u64, String) {
    use std::io::Read;
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let pid = child.id();
    let (mut peak, mut samples) = (0u64, 0u32);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        if let Some(hwm) = vm_hwm(pid) {
            peak = peak.max(hwm);
            samples += 1;
        }
        consume(&buf[..n]);
    }
    let status = child.wait().unwrap();
    assert!(samples > 10, "the child was sampled {samples} times only");
    (status.code().unwrap_or(-1), peak, errors.join().unwrap())
}

const MB: u64 = 1_000_000;
const BIG: u32 = 256 << 20;

#[cfg(target_os = "linux")]
#[test]
fn show_of_a_256_mib_metalayer_prints_a_bounded_prefix_within_64_mb() {
    // The same path 40 times: 40 lines of 8 KiB of hex each, more than a pipe holds.
    let path = big_metalayer_frame(BIG, "prefix");
    let mut args: Vec<&std::ffi::OsStr> = vec!["show".as_ref()];
    args.extend(std::iter::repeat_n(path.as_os_str(), 40));
    let mut out = Vec::new();
    let (code, peak, stderr) = run_measured(&args, |piece| out.extend_from_slice(piece));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{stderr}");
    eprintln!(
        "show, 256 MiB metalayer: peak resident {:.1} MB",
        peak as f64 / 1e6
    );
    assert!(peak < 64 * MB, "peak resident {peak} bytes");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 40);
    let doc: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let big = &doc["metalayers"]["big"];
    assert_eq!(big["raw_hex"].as_str().unwrap(), "00".repeat(4096));
    assert_eq!(big["raw_len"], u64::from(BIG));
}

#[cfg(target_os = "linux")]
#[test]
fn show_full_hex_streams_all_of_a_96_mib_metalayer_within_64_mb() {
    // 96 MiB: more than the bound whether the content or its hex were held, and a
    // quarter of the time 256 MiB takes in a debug build (about 60 s).
    const FULL: u32 = 96 << 20;
    let path = big_metalayer_frame(FULL, "full");
    let args = ["show".as_ref(), "--full-hex".as_ref(), path.as_os_str()];
    // Count the output and its zeros without keeping it.
    let (mut total, mut zeros, mut tail) = (0u64, 0u64, Vec::new());
    let (code, peak, stderr) = run_measured(&args, |piece| {
        total += piece.len() as u64;
        zeros += piece.iter().filter(|&&b| b == b'0').count() as u64;
        // The last 4 KiB of the output, whatever the pieces.
        tail.extend_from_slice(piece);
        let excess = tail.len().saturating_sub(4096);
        tail.drain(..excess);
    });
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{stderr}");
    eprintln!(
        "show --full-hex, 96 MiB metalayer: peak resident {:.1} MB",
        peak as f64 / 1e6
    );
    assert!(peak < 64 * MB, "peak resident {peak} bytes");
    assert!(
        total > 2 * u64::from(FULL) && zeros >= 2 * u64::from(FULL),
        "{total} {zeros}"
    );
    let tail = String::from_utf8_lossy(&tail);
    // The hex ends with the content; a value this large is not decoded (memory stays
    // bounded), which the report says after the hex. Then the vlmeta: this header-only
    // frame has no trailer, which vlmeta_error says.
    let (metalayers, vlmeta) = tail.split_once(",\"vlmeta\":").expect(&tail);
    assert!(
        metalayers.ends_with("00\",\"error\":\"not decoded: 100663296 bytes, more than the 1048576 read into memory\"}}"),
        "{tail:?}"
    );
    assert!(vlmeta.starts_with("{},\"vlmeta_error\":\""), "{vlmeta:?}");
    assert!(vlmeta.ends_with("\"}\n"), "{vlmeta:?}");
}

#[test]
fn header_notes_are_shown_only_when_there_are_some() {
    // A negative blocksize: C-Blosc2 does not check it (python-blosc2 4.14.1 opens the
    // file, tests/data/mutations/cases.json), so show reads it and notes it.
    let mut bytes = std::fs::read(common::data_path("corpus/ndim2_i4.b2nd")).unwrap();
    bytes[53..57].copy_from_slice(&(-1i32).to_be_bytes());
    let path = temp("negative-blocksize.b2nd");
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(BIN).arg("show").arg(&path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["frame"]["blocksize"], -1);
    let notes = doc["frame"]["notes"].as_array().unwrap();
    assert!(!notes.is_empty());
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().ends_with(" at byte 53")),
        "{notes:?}"
    );
    let human = Command::new(BIN)
        .args(["show", "--human"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(
        text.contains("\n  note: ") && text.contains(" at byte 53"),
        "{text}"
    );
    std::fs::remove_file(&path).unwrap();

    let plain = Command::new(BIN)
        .arg("show")
        .arg(common::data_path("corpus/ndim2_i4.b2nd"))
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(doc["frame"].get("notes").is_none());
}

#[test]
fn a_user_caterva_beside_b2nd_is_user_data_and_a_grid_mismatch_is_a_problem() {
    // blosc2.zeros(..., meta={"caterva": [0, 1, 2]}): python-blosc2 reads the array
    // through b2nd; the caterva metalayer is user data, shown raw, never an error.
    let b2nd = std::fs::read(common::data_path("corpus/ndim2_i4.b2nd")).unwrap();
    let header = b2nd_meta::frame::parse_header(&b2nd).unwrap();
    let content = header.array_metalayer().unwrap().content.clone();
    let bytes = common::frame::frame_with(
        common::frame::Fixed::empty(4),
        &[("b2nd", &content), ("caterva", b"\x93\x00\x01\x02")],
    );
    let path = temp("user-caterva.b2nd");
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(BIN).arg("show").arg(&path).output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["metalayers"]["caterva"],
        serde_json::json!({"value": [0, 1, 2], "raw_hex": "93000102"})
    );
    assert_eq!(doc["array"]["metalayer"], "b2nd");

    // (10, 7) in chunks of (4, 4) written as (13, 8) without new chunks: 4 x 2 chunks
    // in the grid, 3 x 2 in nbytes.
    let mut bytes = std::fs::read(common::data_path("corpus/rewrite_2d_before.b2nd")).unwrap();
    let mut meta = b2nd_meta::frame::parse_header(&bytes)
        .unwrap()
        .array_meta()
        .unwrap();
    if let b2nd_meta::Meta::B2ndV1(m) = &mut meta {
        m.shape = vec![13, 8].into();
    }
    let encoded = b2nd_meta::to_vec(&meta).unwrap();
    b2nd_meta::frame::rewrite_metalayer(
        b2nd_meta::frame::Target::bytes(&mut bytes),
        "b2nd",
        &encoded,
    )
    .unwrap();
    let path = temp("across-grid.b2nd");
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(BIN).arg("show").arg(&path).output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "problems are reported, not failures"
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = doc["array"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0]
        .as_str()
        .unwrap()
        .starts_with("nbytes: the array metalayer implies"));
}

#[test]
fn a_2_4_mb_user_metalayer_is_decoded_as_python_reads_it() {
    use std::io::{Seek, SeekFrom, Write};
    // A msgpack str8 of 2.4 MB (python's `schunk.meta["big"] = "x" * 2_400_000`).
    let text_len: u32 = 2_400_000;
    let path = big_metalayer_frame(text_len + 5, "str");
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::Start(111)).unwrap();
    let mut content = vec![0xdb];
    content.extend_from_slice(&text_len.to_be_bytes());
    content.extend(std::iter::repeat_n(b'x', text_len as usize));
    file.write_all(&content).unwrap();
    drop(file);
    let out = Command::new(BIN).arg("show").arg(&path).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let big = &doc["metalayers"]["big"];
    assert_eq!(big.get("error"), None);
    let value = big.get("value").expect("the value decodes");
    let Some(text) = value.as_str() else {
        panic!("not a string: {value:?}")
    };
    assert_eq!(text.len(), text_len as usize);
    std::fs::remove_file(&path).unwrap();
}
