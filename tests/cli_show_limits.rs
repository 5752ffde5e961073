//! `show` on awkward inputs (issue 10.8, 10.9): a non-UTF-8 file name comes back
//! exactly through "path_bytes_hex"; a frame with a 256 MiB user metalayer is shown
//! within 64 MB of resident memory, with a bounded hex prefix unless --full-hex.

mod common;

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
