//! `show` failures: truncated, cut short, not a frame, missing paths, corrupt
//! metalayers; one line on stderr and exit status 1, or problems reported without
//! failing.

use std::ffi::OsStr;

use crate::common::{data_path, unhex};
use crate::{corpus_file, run, temp_path, u};

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
fn an_empty_directory_is_one_error_line() {
    let dir = temp_path("empty-dir.b2nd");
    std::fs::create_dir_all(&dir).unwrap();
    let out = run([OsStr::new("show"), dir.as_os_str()]);
    std::fs::remove_dir(&dir).unwrap();
    out.assert_one_error(
        "nothing here is a Blosc2 frame, store or bundle (no chunks.b2frame: not a sparse \
         frame; -r looks in subdirectories)",
    );
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

/// Issue 10: a FIFO, a socket, a device or a directory that is not a sparse frame
/// answers at once, with one line naming the path and exit status 1 (`show` used to
/// block forever on a FIFO).
#[test]
fn special_files_answer_at_once() {
    use std::os::unix::net::UnixListener;
    use std::path::Path;
    use std::time::{Duration, Instant};

    let fifo = temp_path("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    // Were `show` to block on the FIFO again, this writer unblocks it after 10 s, so the
    // test fails on the time taken instead of hanging.
    let unblock = fifo.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(10));
        let _ = std::fs::OpenOptions::new().write(true).open(unblock);
    });
    let socket = temp_path("socket");
    let _ = std::fs::remove_file(&socket);
    let _listener = UnixListener::bind(&socket).unwrap();
    let dir = temp_path("not-a-sparse-frame");
    std::fs::create_dir_all(&dir).unwrap();

    let cases: [(&Path, &str); 4] = [
        (&fifo, "a FIFO, not a frame file"),
        (&socket, "a socket, not a frame file"),
        (
            Path::new("/dev/null"),
            "a character device, not a frame file",
        ),
        (
            &dir,
            "nothing here is a Blosc2 frame, store or bundle (no chunks.b2frame",
        ),
    ];
    for (path, needle) in cases {
        let start = Instant::now();
        let out = run([OsStr::new("show"), path.as_os_str()]);
        assert!(start.elapsed() < Duration::from_secs(5), "{path:?}");
        out.assert_one_error(needle);
        // The path once.
        let name = path.to_str().unwrap();
        assert_eq!(out.stderr.matches(name).count(), 1, "{}", out.stderr);
    }
    let _ = std::fs::remove_file(&fifo);
    let _ = std::fs::remove_file(&socket);
    let _ = std::fs::remove_dir(&dir);
}
