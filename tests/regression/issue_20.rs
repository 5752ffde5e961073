//! Issue 20 (one owner for each rule): which metalayer is the array's was decided by
//! offset in the library and by name in the command line, and they disagreed.
//!
//! The frames are python-blosc2 4.14.1's (tests/data/regression/generate.py):
//! `blosc2.zeros((10,), dtype="f8", chunks=(10,), blocks=(10,), meta={"caterva": [0, 1, 2]})`,
//! and the same file after python-blosc2's own `schunk.meta["caterva"] = [1, 0, 3]`.

use crate::common;

use b2nd_meta::frame::{self, parse_header, FrameErrorKind};
use common::scratch::Scratch;

const BEFORE: &str = "regression/caterva_beside_b2nd.b2nd";
const AFTER: &str = "regression/caterva_beside_b2nd_after.b2nd";

fn read(relative: &str) -> Vec<u8> {
    std::fs::read(common::data_path(relative)).unwrap()
}

/// python's file with the four bytes of its `caterva` metalayer (`[0, 1, 2]`, at frame
/// byte 164) replaced by `content`.
#[cfg(feature = "cli")]
fn with_caterva(content: &[u8; 4]) -> Vec<u8> {
    let mut bytes = read(BEFORE);
    let header = parse_header(&bytes).unwrap();
    let at = header.metalayer("caterva").unwrap().content_offset() as usize;
    assert_eq!((at, &bytes[at..at + 4]), (164, &[0x93, 0, 1, 2][..]));
    bytes[at..at + 4].copy_from_slice(content);
    bytes
}

#[test]
fn the_library_refuses_the_array_metalayer_and_rewrites_a_caterva_beside_b2nd_as_python() {
    let header = parse_header(&read(BEFORE)).unwrap();
    let array: Vec<bool> = header
        .metalayers
        .iter()
        .map(|m| header.is_array_metalayer(m))
        .collect();
    assert_eq!(array, [true, false]);

    // A file: the array's metalayer is not user data, and the file is left as it was.
    let copy = Scratch::of(BEFORE, "issue20-lib");
    let err = frame::set_user_meta(&copy.0, "b2nd", &[1, 0, 3]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::NotUserMetalayer { name } if name == "b2nd"),
        "{err}"
    );
    assert_eq!(std::fs::read(&copy.0).unwrap(), read(BEFORE));
    // `caterva` beside `b2nd` is user data: python's own rewrite, byte for byte.
    frame::set_user_meta(&copy.0, "caterva", &[1, 0, 3]).unwrap();
    assert_eq!(std::fs::read(&copy.0).unwrap(), read(AFTER));

    // The same in memory.
    let mut bytes = read(BEFORE);
    let err = frame::set_user_meta(
        b2nd_meta::frame::Target::bytes(&mut bytes),
        "b2nd",
        &[1, 0, 3],
    )
    .unwrap_err();
    assert!(matches!(
        err.kind(),
        FrameErrorKind::NotUserMetalayer { .. }
    ));
    assert_eq!(bytes, read(BEFORE));
    frame::set_user_meta(
        b2nd_meta::frame::Target::bytes(&mut bytes),
        "caterva",
        &[1, 0, 3],
    )
    .unwrap();
    assert_eq!(bytes, read(AFTER));

    // Without `b2nd`, `caterva` is the array's (the first so named), and is refused.
    let caterva = b2nd_meta::to_vec(&b2nd_meta::MetaV0Caterva::default()).unwrap();
    let mut alone = common::frame::frame_with(
        common::frame::Fixed::empty(8),
        &[("caterva", &caterva), ("user", b"\x01")],
    );
    let err = frame::set_user_meta(b2nd_meta::frame::Target::bytes(&mut alone), "caterva", &())
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        FrameErrorKind::NotUserMetalayer { .. }
    ));
}

#[cfg(feature = "cli")]
fn b2nd_meta(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(args)
        .output()
        .unwrap()
}

#[cfg(feature = "cli")]
#[test]
fn show_a_caterva_beside_b2nd_that_is_not_msgpack_exits_0_with_the_error_as_data() {
    // 0xc1 is never msgpack: as user data it is shown raw with an "error", and `show`
    // succeeds, as it does for the same bytes under any other name.
    let dir = std::env::temp_dir();
    let mut shown = Vec::new();
    for (name, human) in [("caterva", false), ("caterva", true), ("other", false)] {
        let mut bytes = with_caterva(&[0xc1, 0, 1, 2]);
        if name == "other" {
            // Same length, same place in the index: "caterva" becomes "catervb".
            let at = bytes.windows(7).position(|w| w == b"caterva").unwrap();
            bytes[at + 6] = b'b';
        }
        let path = dir.join(format!(
            "b2nd-meta-issue20-{}-{name}-{human}.b2nd",
            std::process::id()
        ));
        std::fs::write(&path, &bytes).unwrap();
        let mut args = vec!["show".as_ref(), path.as_os_str()];
        if human {
            args.push("--human".as_ref());
        }
        let out = b2nd_meta(&args);
        std::fs::remove_file(&path).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name} human={human}: {stderr}");
        assert_eq!(stderr, "", "{name} human={human}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        if human {
            assert!(!stdout.contains("DOES NOT DECODE"), "{stdout}");
            assert!(stdout.contains("caterva: 4 bytes: c1000102"), "{stdout}");
            continue;
        }
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(doc["array"]["metalayer"], "b2nd");
        let layer = doc["metalayers"]
            .as_object()
            .unwrap()
            .values()
            .nth(1)
            .unwrap()
            .clone();
        assert_eq!(layer["raw_hex"], "c1000102");
        assert!(layer.get("value").is_none(), "{layer}");
        assert!(
            layer["error"]
                .as_str()
                .unwrap()
                .starts_with("not one msgpack value: "),
            "{layer}"
        );
        shown.push(layer);
    }
    assert_eq!(shown[0], shown[1], "the same under any name");

    // The array's own metalayer that does not decode still fails `show`.
    let caterva_only = common::frame::frame_with(
        common::frame::Fixed::empty(8),
        &[("caterva", b"\xc1\x00\x01\x02")],
    );
    let path = dir.join(format!(
        "b2nd-meta-issue20-{}-array.b2nd",
        std::process::id()
    ));
    std::fs::write(&path, &caterva_only).unwrap();
    let out = b2nd_meta(&["show".as_ref(), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("metalayer \"caterva\" does not decode"));
}

#[cfg(feature = "cli")]
#[test]
fn set_meta_rewrites_a_caterva_beside_b2nd_as_python_does() {
    let copy = Scratch::of(BEFORE, "issue20-cli");
    let out = b2nd_meta(&[
        "set-meta".as_ref(),
        copy.0.as_os_str(),
        "caterva".as_ref(),
        "[1, 0, 3]".as_ref(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(std::fs::read(&copy.0).unwrap(), read(AFTER));
    // The array's metalayer is refused, by the library's rule, with one line.
    let out = b2nd_meta(&[
        "set-meta".as_ref(),
        copy.0.as_os_str(),
        "b2nd".as_ref(),
        "[1, 0, 3]".as_ref(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("\"b2nd\" is the array metalayer"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&copy.0).unwrap(), read(AFTER));
}
