//! C-Blosc2 3.3's lock protocol across processes: a holder of the exclusive `flock` on
//! the `.b2lock` sidecar blocks our writes (and `show`, which takes the shared lock)
//! until it lets go, and each write bumps the generation counter at byte 8; no sidecar
//! is created unless `BLOSC_LOCKING` asks. And python-blosc2 4.14.1 itself
//! (tests/data/vlmeta_write/lock_check.py, recorded in lock_check.json; run again here
//! when the venv exists), also on frames without data, which our vlmeta write replaces
//! by a rename: python handles opened before it follow the path to the new file.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::BIN;
use crate::common::scratch::Scratch;
use crate::common::{data_path, reference};

fn copy_of(tag: &str, sparse: bool) -> Scratch {
    let base = if sparse {
        "vlmeta_write/base/4.14.1_sparse.b2nd"
    } else {
        "vlmeta_write/base/4.14.1.b2nd"
    };
    Scratch::of(base, &format!("vllock-{tag}"))
}

fn lock_path(path: &Path, sparse: bool) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(if sparse { "/.b2lock" } else { ".b2lock" });
    PathBuf::from(s)
}

fn counter(sidecar: &Path) -> u64 {
    let b = std::fs::read(sidecar).unwrap();
    b.get(8..16)
        .map_or(0, |s| u64::from_ne_bytes(s.try_into().unwrap()))
}

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .env_remove("BLOSC_LOCKING")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Holds the exclusive lock on the sidecar (created with a counter of 41, as a C writer
/// would leave it), spawns `args`, checks it is still running 300 ms later, lets go,
/// and returns its exit status and the counter after.
fn blocked_until_released(sidecar: &Path, args: &[&str]) -> (bool, u64) {
    let holder: File = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(sidecar)
        .unwrap();
    std::os::unix::fs::FileExt::write_all_at(&holder, &41u64.to_ne_bytes(), 8).unwrap();
    holder.lock().unwrap();
    let mut child = spawn(args);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} finished while the lock was held"
    );
    holder.unlock().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?} hangs");
        std::thread::sleep(Duration::from_millis(5));
    };
    (status.success(), counter(sidecar))
}

#[test]
fn a_held_lock_blocks_our_writes_until_released_and_each_bumps_the_counter() {
    for sparse in [false, true] {
        let scratch = copy_of(&format!("block{sparse}"), sparse);
        let p = &scratch.0;
        let ps = p.to_str().unwrap();
        let sidecar = lock_path(p, sparse);
        for args in [
            vec!["set-vlmeta", ps, "units", r#""m/s""#],
            vec!["del-vlmeta", ps, "units"],
            vec!["set-shape", ps, "5,10"],
        ] {
            let (ok, after) = blocked_until_released(&sidecar, &args);
            assert!(ok, "{args:?}");
            assert_eq!(after, 42, "{args:?}: the generation counter");
        }
        // show takes the shared lock: blocked by a writer, bumps nothing.
        let (ok, after) = blocked_until_released(&sidecar, &["show", ps]);
        assert!(ok);
        assert_eq!(after, 41);
    }
}

#[test]
fn no_sidecar_is_created_unless_blosc_locking_asks() {
    let scratch = copy_of("create", false);
    let p = &scratch.0;
    let ps = p.to_str().unwrap();
    let sidecar = lock_path(p, false);
    let st = Command::new(BIN)
        .args(["set-vlmeta", ps, "k", "1"])
        .env_remove("BLOSC_LOCKING")
        .status()
        .unwrap();
    assert!(st.success());
    assert!(!sidecar.exists());
    for (value, creates) in [("0", false), ("", false), ("1", true)] {
        let st = Command::new(BIN)
            .args(["set-vlmeta", ps, "k", "2"])
            .env("BLOSC_LOCKING", value)
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(sidecar.exists(), creates, "BLOSC_LOCKING={value:?}");
    }
    // Created as C creates it (mode 0666 less the umask), the counter at 1.
    assert_eq!(counter(&sidecar), 1);
    assert_eq!(std::fs::metadata(&sidecar).unwrap().len(), 16);
}

#[test]
fn python_blosc2_4_14_1_recorded_our_writes_under_its_lock() {
    let text = std::fs::read_to_string(data_path("vlmeta_write/lock_check.json")).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(recorded["python_blosc2"], "4.14.1");
    for case in [
        "contiguous",
        "sparse",
        "no_data",
        "no_data_sparse",
        "without_the_bump_python_misses_the_change",
    ] {
        assert_eq!(recorded[case]["ok"], true, "{case}: {}", recorded[case]);
    }
}

#[test]
fn python_blosc2_4_14_1_live_when_its_venv_exists() {
    let Some(python) = reference::python_or_skip() else {
        return;
    };
    let out = Command::new(&python)
        .arg(data_path("vlmeta_write/lock_check.py"))
        .arg(BIN)
        .env_remove("BLOSC_LOCKING")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let live: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for case in [
        "contiguous",
        "sparse",
        "no_data",
        "no_data_sparse",
        "without_the_bump_python_misses_the_change",
    ] {
        assert_eq!(live[case]["ok"], true, "{case}: {}", live[case]);
    }
}
