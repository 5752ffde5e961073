//! `import`: what OUT may be, the lock, staging left by a killed run, a FIFO input, the
//! pipelines refused, the memory whatever `--chunks` claims, and a file of 2^24 chunks.

use std::os::unix::fs::FileTypeExt;

use super::{failed, npy_i4, ok, run, values, Dir};
use crate::common::data_path;
use crate::issue_31::run::b2nd_meta;

#[test]
fn force_over_a_directory_that_is_no_sparse_frame_is_refused_and_keeps_it() {
    let dir = Dir::new("dir-force");
    npy_i4(&dir.join("in.npy"), &[3, 4]);
    std::fs::create_dir(dir.join("photos")).unwrap();
    std::fs::write(dir.join("photos/cat.jpg"), "meow").unwrap();
    let line = failed(&run(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        dir.join("photos").as_os_str(),
        "--force".as_ref(),
    ]));
    assert!(line.contains("not a sparse frame"), "{line}");
    assert_eq!(std::fs::read(dir.join("photos/cat.jpg")).unwrap(), b"meow");
}

#[test]
fn a_fifo_out_is_refused_and_stays_a_fifo() {
    let dir = Dir::new("fifo-out");
    npy_i4(&dir.join("in.npy"), &[3, 4]);
    let fifo = dir.join("out.b2nd");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    failed(&run(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        fifo.as_os_str(),
        "--force".as_ref(),
    ]));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_fifo_input_given_by_path_is_read_as_stdin_is() {
    let dir = Dir::new("fifo-in");
    npy_i4(&dir.join("in.npy"), &[3, 4]);
    let fifo = dir.join("pipe.npy");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let writer = {
        let (fifo, npy) = (fifo.clone(), std::fs::read(dir.join("in.npy")).unwrap());
        std::thread::spawn(move || std::fs::write(fifo, npy).unwrap())
    };
    ok(&[
        "import".as_ref(),
        fifo.as_os_str(),
        dir.join("a.b2nd").as_os_str(),
    ]);
    writer.join().unwrap();
    assert_eq!(values(&dir.join("a.b2nd"), "1"), "[4, 5, 6, 7]");
}

#[test]
fn import_force_waits_for_the_b2lock_python_holds() {
    let dir = Dir::new("lock");
    npy_i4(&dir.join("in.npy"), &[3, 4]);
    let a = dir.join("a.b2nd");
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        a.as_os_str(),
    ]);
    let before = std::fs::read(&a).unwrap();
    // python-blosc2's locked handle writing: C's sidecar, held exclusively.
    let sidecar = std::fs::File::create(dir.join("a.b2nd.b2lock")).unwrap();
    sidecar.lock().unwrap();
    let line = failed(&run(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        a.as_os_str(),
        "--force".as_ref(),
        "--chunks".as_ref(),
        "1,4".as_ref(),
        "--lock-timeout".as_ref(),
        "0.2".as_ref(),
    ]));
    assert!(line.contains("waiting for the lock"), "{line}");
    assert_eq!(std::fs::read(&a).unwrap(), before);
    drop(sidecar);
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        a.as_os_str(),
        "--force".as_ref(),
        "--chunks".as_ref(),
        "1,4".as_ref(),
    ]);
    assert_ne!(std::fs::read(&a).unwrap(), before);
}

#[test]
fn staging_a_killed_import_left_is_passed_over_then_swept() {
    let dir = Dir::new("stale");
    npy_i4(&dir.join("in.npy"), &[3, 4]);
    // What a killed import leaves: a staged file and a staged sparse directory, their
    // writer (pid 1 never runs us) gone, so their locks free.
    std::fs::write(dir.join(".a.b2nd.b2nd-meta.1.0.tmp"), "torn").unwrap();
    std::fs::create_dir(dir.join(".a.b2nd.b2nd-meta.1.1.tmp")).unwrap();
    std::fs::write(dir.join(".a.b2nd.b2nd-meta.1.1.tmp/chunks.b2frame"), "torn").unwrap();
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        dir.join("b.b2nd").as_os_str(),
    ]);
    let listed = ok(&["show".as_ref(), "-r".as_ref(), dir.0.as_os_str()]);
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 1);
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        dir.join("a.b2nd").as_os_str(),
    ]);
    assert_eq!(
        dir.others(&["in.npy", "a.b2nd", "b.b2nd"]),
        Vec::<String>::new()
    );
}

/// One line a pipeline python-blosc2 does not read back exactly (or cannot open).
#[test]
fn pipelines_that_do_not_read_back_are_refused_before_anything_is_written() {
    let refused: &[&[&str]] = &[
        &["delta", "bytedelta", "delta", "shuffle"],
        &["delta", "delta"],
        &["shuffle:200"],
    ];
    let dir = Dir::new("pipelines");
    npy_i4(&dir.join("in.npy"), &[100]);
    for filters in refused {
        let mut args = vec![
            "import".to_string(),
            dir.join("in.npy").display().to_string(),
            dir.join("out.b2nd").display().to_string(),
        ];
        for f in *filters {
            args.extend(["--filter".to_string(), f.to_string()]);
        }
        failed(&run(&args));
        assert_eq!(dir.others(&["in.npy"]), Vec::<String>::new(), "{filters:?}");
    }
}

/// A chunk far larger than the array costs no more than the array (python pads it).
#[test]
fn memory_is_bounded_by_the_input_whatever_the_chunks_claim() {
    let dir = Dir::new("chunks");
    npy_i4(&dir.join("row.npy"), &[13]);
    npy_i4(&dir.join("grid.npy"), &[8, 10]);
    let cases: &[(&str, &[&str], &str, &str)] = &[
        ("row.npy", &["--chunks", "268435000"], "12", "12"),
        ("grid.npy", &["--chunks", "1,100000000"], "7,8:", "[78, 79]"),
        (
            "grid.npy",
            &["--chunks", "1,100000000", "--threads", "16"],
            "7,8:",
            "[78, 79]",
        ),
    ];
    for (input, flags, slice, want) in cases {
        let out = dir.join("out.b2nd");
        let mut args = vec![
            "import".to_string(),
            dir.join(input).display().to_string(),
            out.display().to_string(),
            "--force".to_string(),
        ];
        args.extend(flags.iter().map(|f| f.to_string()));
        b2nd_meta(&args, &[]).within_bounds(&format!("import {flags:?}"), 0);
        assert_eq!(values(&out, slice), *want, "{flags:?}");
    }
}

#[test]
fn a_file_of_2_24_chunks_opens() {
    let many = data_path("regression/issue44/many.b2nd");
    let shown = ok(&["show".as_ref(), many.as_os_str()]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("\"nchunks\":16777216"));
    assert_eq!(values(&many, "-1"), "0");
}
