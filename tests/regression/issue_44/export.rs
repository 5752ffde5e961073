//! `export -o OUT`: an existing OUT is replaced only whole, never truncated first, never
//! lost on a late error; OUT that is the input is refused; a device is written into.

use std::os::unix::fs::FileTypeExt;
use std::time::Duration;

use super::{failed, npy_i4, ok, run, Dir};
use crate::common::data_path;

fn crafted(name: &str) -> std::path::PathBuf {
    data_path(&format!("regression/issue44/{name}"))
}

/// The file at `path` still holds "precious", and nothing else is left beside it.
fn kept(dir: &Dir, name: &str) {
    assert_eq!(std::fs::read(dir.join(name)).unwrap(), b"precious\n");
    assert_eq!(dir.others(&[name]), Vec::<String>::new());
}

#[test]
fn an_error_after_the_first_values_keeps_the_existing_out() {
    for frame in ["late.b2nd", "bad.b2nd"] {
        let dir = Dir::new(&format!("late-{frame}"));
        std::fs::write(dir.join("keep.npy"), "precious\n").unwrap();
        let out = run(&[
            "export".as_ref(),
            crafted(frame).as_os_str(),
            "-o".as_ref(),
            dir.join("keep.npy").as_os_str(),
            "--force".as_ref(),
        ]);
        failed(&out);
        kept(&dir, "keep.npy");
    }
}

#[test]
fn an_existing_out_is_replaced_only_with_force() {
    let dir = Dir::new("exists");
    std::fs::write(dir.join("keep.npy"), "precious\n").unwrap();
    let frame = data_path("corpus/ndim2_i4.b2nd");
    let out = run(&[
        "export".as_ref(),
        frame.as_os_str(),
        "-o".as_ref(),
        dir.join("keep.npy").as_os_str(),
    ]);
    assert!(failed(&out).contains("--force"));
    kept(&dir, "keep.npy");
}

#[test]
fn out_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = Dir::new("self");
    let a = dir.join("a.b2nd");
    std::fs::copy(data_path("corpus/ndim2_i4.b2nd"), &a).unwrap();
    std::os::unix::fs::symlink(&a, dir.join("link.npy")).unwrap();
    let before = std::fs::read(&a).unwrap();
    for out in ["a.b2nd", "link.npy"] {
        let run = run(&[
            "export".as_ref(),
            a.as_os_str(),
            "-o".as_ref(),
            dir.join(out).as_os_str(),
            "--force".as_ref(),
        ]);
        failed(&run);
        assert_eq!(std::fs::read(&a).unwrap(), before, "-o {out}");
    }
    assert_eq!(dir.others(&["a.b2nd", "link.npy"]), Vec::<String>::new());
}

#[test]
fn a_device_out_is_written_into_and_named_and_never_removed() {
    let frame = data_path("corpus/ndim2_i4.b2nd");
    let out = run(&[
        "export".as_ref(),
        frame.as_os_str(),
        "-o".as_ref(),
        "/dev/full".as_ref(),
    ]);
    let line = failed(&out);
    assert!(
        line.starts_with("b2nd-meta: /dev/full: cannot write: "),
        "{line}"
    );
    let kind = std::fs::metadata("/dev/full").unwrap().file_type();
    assert!(kind.is_char_device());
}

#[test]
fn a_fifo_out_gets_the_values_and_stays_a_fifo() {
    let dir = Dir::new("fifo");
    let fifo = dir.join("out.npy");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    // late.b2nd fails at its 4th chunk, after 30 values went into the FIFO.
    failed(&run(&[
        "export".as_ref(),
        crafted("late.b2nd").as_os_str(),
        "-o".as_ref(),
        fifo.as_os_str(),
    ]));
    let got = reader.join().unwrap();
    assert!(got.starts_with(b"\x93NUMPY"));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

/// `kill -9` at ten moments of an export over an existing .npy: the old file or the
/// whole new one, each time (the staged copy is renamed over OUT only when complete).
#[test]
fn an_export_killed_at_any_moment_leaves_the_old_out_or_the_new() {
    let dir = Dir::new("kill");
    npy_i4(&dir.join("in.npy"), &[2000, 1000]);
    let a = dir.join("a.b2nd");
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        a.as_os_str(),
        "--chunks".as_ref(),
        "100,1000".as_ref(),
    ]);
    let out = dir.join("out.npy");
    let export = |force: bool| {
        let mut c = std::process::Command::new(super::BIN);
        c.args([
            "export".as_ref(),
            a.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        if force {
            c.arg("--force");
        }
        c.stderr(std::process::Stdio::null());
        c
    };
    assert!(export(false).status().unwrap().success());
    let new = std::fs::read(&out).unwrap();
    for i in 0..10u64 {
        std::fs::write(&out, "precious\n").unwrap();
        let mut child = export(true).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(3 * i));
        let _ = child.kill();
        let _ = child.wait();
        let got = std::fs::read(&out).unwrap();
        assert!(
            got == b"precious\n" || got == new,
            "kill {i}: {} bytes",
            got.len()
        );
    }
    // What the killed runs left staged, the next export sweeps.
    assert!(export(true).status().unwrap().success());
    assert_eq!(
        dir.others(&["in.npy", "a.b2nd", "out.npy"]),
        Vec::<String>::new()
    );
}
