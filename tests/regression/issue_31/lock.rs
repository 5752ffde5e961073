//! A write behind another process's exclusive `flock` on `<file>.b2lock` waited
//! silently as long as the other held it (59 s in the audit), with no way to give up;
//! `show` likewise. Now the wait is said on stderr after a second, and
//! `--lock-timeout SECONDS` gives up with exit 1.

#![cfg(feature = "cli")]

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::run::b2nd_meta;
use crate::common::scratch::Scratch;

const FRAME: &str = "regression/issue31/double_meta.b2nd";

fn sidecar(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".b2lock");
    PathBuf::from(s)
}

/// The sidecar of `path`, created and held exclusively by this process (as a python
/// writer holds it), until dropped.
fn held(path: &Path) -> std::fs::File {
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(sidecar(path))
        .unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn lock_timeout_gives_up_on_a_held_lock_and_says_which() {
    let copy = Scratch::of(FRAME, "issue31-lock-timeout");
    let before = std::fs::read(&copy.0).unwrap();
    let _held = held(&copy.0);
    let path = copy.0.to_str().unwrap();
    let lock = sidecar(&copy.0).to_string_lossy().into_owned();
    for args in [
        &["set-vlmeta", "--lock-timeout", "1.5", path, "k", "1"][..],
        &["show", path, "--lock-timeout", "1.5"],
        &["set-meta", path, "x", "0.25", "--lock-timeout", "1.5"],
    ] {
        let run = b2nd_meta(args, &[("BLOSC_LOCKING", "1")]);
        run.within_bounds(&format!("{} behind a held lock", args[0]), 1);
        assert!(run.time >= Duration::from_millis(1500), "{:?}", run.time);
        let lines: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{}", run.stderr);
        assert_eq!(
            lines[0],
            format!("b2nd-meta: {lock}: waiting for the lock another process holds on it (--lock-timeout SECONDS gives up)")
        );
        assert!(lines[1].starts_with(&format!("b2nd-meta: {path}: gave up after 1.5 s waiting for the lock another process holds on {lock}")), "{}", lines[1]);
        assert!(run.stdout.is_empty());
    }
    assert_eq!(std::fs::read(&copy.0).unwrap(), before, "nothing written");
}

#[test]
fn without_a_timeout_a_write_waits_says_so_once_and_goes_on() {
    let copy = Scratch::of(FRAME, "issue31-lock-wait");
    let lock = held(&copy.0);
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(2));
        drop(lock);
    });
    let path = copy.0.to_str().unwrap();
    let run = b2nd_meta(&["set-vlmeta", path, "k", "1"], &[("BLOSC_LOCKING", "1")]);
    release.join().unwrap();
    run.within_bounds("set-vlmeta waiting for a held lock", 0);
    // The release thread's 2 s start before the command's clock does: a wait of most of
    // them shows the command waited (an unheld lock takes milliseconds).
    assert!(run.time >= Duration::from_millis(1500), "{:?}", run.time);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run
        .stderr
        .contains("waiting for the lock another process holds"));
    let value = b2nd_meta::frame::open(&copy.0)
        .unwrap()
        .vlmeta_value("k")
        .unwrap();
    assert_eq!(value, b2nd_meta::value::Value::Int(1));
}
