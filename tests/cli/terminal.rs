//! What `show` prints depends on where it goes, as ripgrep's output does: a summary when
//! stdout is a terminal, JSON when it is piped, `--human`/`--json` forcing either; and
//! the progress of a directory scan on stderr only when stderr is a terminal. The
//! terminals are real pseudo-terminals (openpty), so the command's own isatty decides.

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::thread;

use crate::user_files::{UserFiles, SHOWN};
use crate::BIN;

/// A pseudo-terminal: its master side (what a terminal would display) and its slave
/// side (what the command writes to).
fn openpty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors, which we then own; no name, termios or
    // window size is given.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by no one else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// What a terminal shows of the output written to it (the terminal's `\r\n` as `\n`).
fn read_terminal(master: OwnedFd) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        // The read ends with EIO once every writer has closed the slave side.
        let _ = File::from(master).read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).replace("\r\n", "\n")
    })
}

/// Runs `show ARGS` in `user`'s directory with stdout and/or stderr on terminals (the
/// other piped); returns stdout, stderr and the exit status.
fn run(user: &UserFiles, args: &[&str], out_tty: bool, err_tty: bool) -> (String, String, i32) {
    run_after(user, args, out_tty, err_tty, "0")
}

/// [`run`], with progress lines drawn after `after_ms` milliseconds.
fn run_after(
    user: &UserFiles,
    args: &[&str],
    out_tty: bool,
    err_tty: bool,
    after_ms: &str,
) -> (String, String, i32) {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(&user.0)
        .env("B2ND_META_PROGRESS_AFTER", after_ms)
        .stdin(Stdio::null());
    let mut terminals = Vec::new();
    for (on_tty, is_out) in [(out_tty, true), (err_tty, false)] {
        let stdio = if on_tty {
            let (master, slave) = openpty();
            terminals.push((is_out, read_terminal(master)));
            Stdio::from(slave)
        } else {
            Stdio::piped()
        };
        if is_out {
            command.stdout(stdio);
        } else {
            command.stderr(stdio);
        }
    }
    let child = command.spawn().expect("spawn b2nd-meta");
    // The slave sides go with the command, so the terminals see their end.
    drop(command);
    let output = child.wait_with_output().unwrap();
    let (mut stdout, mut stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    for (is_out, reader) in terminals {
        let text = reader.join().unwrap();
        if is_out {
            stdout = text
        } else {
            stderr = text
        }
    }
    (stdout, stderr, output.status.code().unwrap())
}

fn is_json(text: &str) -> bool {
    !text.is_empty()
        && text
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
}

#[test]
fn a_terminal_gets_the_summary_and_a_pipe_gets_json() {
    let user = UserFiles::new("tty");
    let (on_terminal, _, code) = run(&user, &["show", "array.b2nd"], true, false);
    assert_eq!(code, 0);
    assert!(
        on_terminal.starts_with("array.b2nd: contiguous frame, 872 bytes"),
        "{on_terminal:?}"
    );
    assert!(
        on_terminal.contains("shape (10, 7), chunks (4, 4)"),
        "{on_terminal}"
    );
    let (piped, _, code) = run(&user, &["show", "array.b2nd"], false, false);
    assert_eq!(code, 0);
    assert!(is_json(&piped), "{piped}");
    assert_eq!(piped.lines().count(), 1);
}

#[test]
fn json_and_human_force_either() {
    let user = UserFiles::new("tty-force");
    for (args, tty) in [
        (&["show", "--json", "array.b2nd"][..], true),
        (&["show", "-j", "array.b2nd"], true),
        (&["show", "--full-hex", "array.b2nd"], true),
    ] {
        let (out, _, code) = run(&user, args, tty, false);
        assert_eq!(code, 0, "{args:?}");
        assert!(is_json(&out), "{args:?}: {out}");
    }
    for args in [
        &["show", "--human", "array.b2nd"][..],
        &["show", "-H", "array.b2nd"],
    ] {
        let (out, _, code) = run(&user, args, false, false);
        assert_eq!(code, 0, "{args:?}");
        assert!(
            out.starts_with("array.b2nd: contiguous frame"),
            "{args:?}: {out}"
        );
    }
    // Both at once is a usage error.
    let (_, err, code) = run(
        &user,
        &["show", "--json", "--human", "array.b2nd"],
        false,
        false,
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_scan_draws_its_progress_on_a_terminal_and_erases_it() {
    let user = UserFiles::new("tty-progress");
    // B2ND_META_PROGRESS_AFTER=0: the line is drawn as soon as the scan starts.
    let (out, err, code) = run(&user, &["show", "--json", "-r", "data"], false, true);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("\r\x1b[Kb2nd-meta: looking: 0 entries in 1 directory, 0 shown"),
        "{err:?}"
    );
    // Erased before each output and at the end: the terminal is left clean.
    assert!(err.ends_with("\r\x1b[K"), "{err:?}");
    let printed: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paths: Vec<&str> = printed
        .iter()
        .filter(|l| l.get("key").is_none())
        .filter_map(|l| l["path"].as_str())
        .collect();
    assert_eq!(paths[..SHOWN.len()], SHOWN);
    // Not on a pipe: stderr stays empty.
    let (_, err, code) = run(&user, &["show", "--json", "-r", "data"], false, false);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn values_on_a_terminal_are_few_or_refused() {
    let user = UserFiles::new("tty-values");
    let zeros = crate::common::data_path("corpus/bigaxis_zeros_1d.b2nd");
    let zeros = zeros.to_str().unwrap();
    let (out, err, code) = run(&user, &["show", "--slice", "-5:", zeros], true, false);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!("{zeros} [-5:]: shape (5,), dtype |i1\n[0 0 0 0 0]\n")
    );
    // Three billion values: refused on a terminal, with what to do instead.
    let (out, err, code) = run(&user, &["show", "--slice", "...", zeros], true, false);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("is 3000000000 values (shape (3000000000,)), more than a terminal")
            && err.contains("--slice")
            && err.contains("b2nd-meta export"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn import_and_export_draw_their_progress_on_a_terminal_and_erase_it() {
    let user = UserFiles::new("tty-transfer");
    let src = crate::common::data_path("arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    let src = src.to_str().unwrap();
    // 286 bytes of data.
    let export = ["export", src, "-o", "x.npy", "--force"];
    let import = ["import", "x.npy", "y.b2nd", "--force"];
    for (args, verb) in [(&export[..], "exporting"), (&import[..], "importing")] {
        // B2ND_META_PROGRESS_AFTER=0: the line is drawn as soon as bytes move.
        let (_, err, code) = run(&user, args, false, true);
        assert_eq!(code, 0, "{err:?}");
        assert!(
            err.starts_with(&format!("\r\x1b[Kb2nd-meta: {verb}: ")),
            "{err:?}"
        );
        assert!(err.contains(" of 286 B ("), "{err:?}");
        assert!(err.contains("/s, "), "{err:?}");
        // Erased at the end: the terminal is left clean, on one line.
        assert!(err.ends_with("\r\x1b[K"), "{err:?}");
        assert!(!err.contains('\n'), "{err:?}");
        // Not on a pipe.
        let (_, err, code) = run(&user, args, false, false);
        assert_eq!((code, err.as_str()), (0, ""));
        // Nor on a terminal when the work takes less than the wait (a second).
        let (_, err, code) = run_after(&user, args, false, true, "1000");
        assert_eq!((code, err.as_str()), (0, ""));
    }
    // An error after the line was drawn erases it first: one line, as always.
    let (_, err, code) = run(&user, &["import", "x.npy", "y.b2nd"], false, true);
    assert_eq!(code, 1);
    assert_eq!(err, "b2nd-meta: y.b2nd: exists: --force replaces it\n");
}
