//! `set-vlmeta` and `del-vlmeta` killed (SIGKILL) at random instants: every result
//! opens in C-Blosc2 2.15.3 (from its path, in a forked child), its vlmeta is exactly
//! the old set or the new one, and the chunks and offsets index are unchanged. On a
//! frame python wrote with data, and on one without (`nbytes` 0), which is replaced by a
//! new file renamed over it: a kill may leave the staging file `<name>.<pid>.tmp` beside
//! it, never a file C cannot open at the path.
//!
//! 200 kills by default (100 on each frame, half set, half delete); `VLMETA_KILLS=2000 cargo test --all-features --test
//! cli vlmeta_kill` for more.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{temp_path, BIN};
use crate::c_vlmeta::{c_read, CRead};
use crate::common::data_path;
use crate::common::scratch::sha256_hex;

fn fresh(base: &str, tag: &str) -> PathBuf {
    let p = temp_path(&format!("vlkill-{tag}"));
    std::fs::copy(data_path(&format!("vlmeta_write/base/{base}")), &p).unwrap();
    p
}

/// sha256 of the chunks and the offsets index: `header_len` .. the index's end (none
/// without data).
fn data_digest(path: &Path) -> String {
    let f = b2nd_meta::frame::open(path).unwrap();
    if f.header.info.nbytes == 0 {
        return sha256_hex(&[]);
    }
    let bytes = std::fs::read(path).unwrap();
    let at = (f.header.info.header_len as i64 + f.header.info.cbytes) as usize;
    let cbytes = u32::from_le_bytes(bytes[at + 12..at + 16].try_into().unwrap()) as usize;
    sha256_hex(&bytes[f.header.info.header_len as usize..at + cbytes])
}

fn kills() -> usize {
    std::env::var("VLMETA_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

fn run_killed(args: &[&str], after: Option<Duration>) {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("BLOSC_LOCKING")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let Some(delay) = after {
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL; it may have finished already
    }
    child.wait().unwrap();
}

/// Removes the staging files a kill left beside `path` (`.<name>.b2nd-meta.<pid>.<n>.tmp`);
/// how many.
fn remove_staging(path: &Path) -> usize {
    let prefix = format!(
        ".{}.b2nd-meta.",
        path.file_name().unwrap().to_str().unwrap()
    );
    let dir = path.parent().unwrap();
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with(&prefix) {
            assert!(b2nd_meta::io::is_staging_name(&name), "{name}");
            std::fs::remove_file(dir.join(&name)).unwrap();
            n += 1;
        }
    }
    n
}

#[test]
fn killed_writes_leave_the_old_vlmeta_or_the_new() {
    let with_data = killed_writes_on("4.14.1.b2nd", "d", kills() / 2);
    assert_eq!(with_data, 0, "no staging file without a replacement");
    killed_writes_on("4.14.1_empty.b2nd", "e", kills() - kills() / 2);
}

/// `kills` kills of writes to a copy of `base`; how many staging files they left.
fn killed_writes_on(base_name: &str, tag: &str, kills: usize) -> usize {
    // A value large enough that the write takes a while: its chunk is ~100 KB.
    let value: String = (0..100_000u32)
        .map(|i| char::from(b'a' + (i.wrapping_mul(2_654_435_761) >> 27) as u8 % 26))
        .collect();
    let json = serde_json::to_string(&value).unwrap();
    let fresh = |what: &str| fresh(base_name, &format!("{tag}-{what}"));
    let base = fresh("base");
    let old = c_read(&base, false);
    let digest = data_digest(&base);
    let set_done = fresh("set-done");
    run_killed(
        &["set-vlmeta", set_done.to_str().unwrap(), "big", &json],
        None,
    );
    let with_big = c_read(&set_done, false);
    let del_done = fresh("del-done");
    run_killed(
        &["del-vlmeta", del_done.to_str().unwrap(), "existing"],
        None,
    );
    let without = c_read(&del_done, false);
    assert_ne!(with_big.vlmeta(), old.vlmeta());
    assert_ne!(without.vlmeta(), old.vlmeta());

    // How long a whole run takes; kills fall in [0, 1.5 x that].
    let probe = fresh("probe");
    let start = Instant::now();
    run_killed(&["set-vlmeta", probe.to_str().unwrap(), "big", &json], None);
    let span = start.elapsed().as_nanos() as u64 * 3 / 2 + 1;

    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut olds, mut news) = (0, 0);
    let mut staged = 0;
    for i in 0..kills {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let delay = Duration::from_nanos(seed % span);
        let p = fresh("victim");
        let ps = p.to_str().unwrap();
        let (args, new): (Vec<&str>, &CRead) = if i % 2 == 0 {
            (vec!["set-vlmeta", ps, "big", &json], &with_big)
        } else {
            (vec!["del-vlmeta", ps, "existing"], &without)
        };
        run_killed(&args, Some(delay));
        staged += remove_staging(&p);
        let c = c_read(&p, false);
        assert!(
            matches!(c, CRead::Opens { .. }),
            "kill {i} after {delay:?}: {c:?}"
        );
        if c.vlmeta() == old.vlmeta() {
            olds += 1;
        } else {
            assert_eq!(c.vlmeta(), new.vlmeta(), "kill {i} after {delay:?}");
            news += 1;
        }
        assert_eq!(c.data(), old.data(), "kill {i}");
        assert_eq!(data_digest(&p), digest, "kill {i}");
        std::fs::remove_file(&p).unwrap();
    }
    eprintln!(
        "{base_name}: {olds} kills left the old vlmeta, {news} the new, {staged} a staging file"
    );
    for p in [base, set_done, del_done, probe] {
        assert_eq!(remove_staging(&p), 0, "a completed write leaves none");
        std::fs::remove_file(p).unwrap();
    }
    staged
}
