//! `kill -9` during `write`, `resize` and `append` on an 8 MB array (contiguous and
//! sparse), ten times each at growing delays: the array is the one before the edit or
//! the one after it, whole (every value read back), and the next edit works and leaves
//! a sparse frame's directory holding the chunk files its index names, no others.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::frame::{chunk_file_name, ChunkLocation};

use super::{temp_path, BIN};
use crate::common::scratch::sha256_hex;

/// A `.npy` of `shape`'s int32 values `start`, `start + 7919`, ...
fn npy_i4(path: &Path, shape: &[usize], start: i32) {
    crate::common::npy::write_i4(path, shape, |i| start.wrapping_add(i.wrapping_mul(7919)));
}

/// The array's shape and values, as one digest.
fn state(path: &Path) -> String {
    let a = Array::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = a.read_bytes(&Selection::all()).unwrap();
    format!("{:?} {}", a.shape(), sha256_hex(&bytes))
}

/// The chunk files in a sparse frame's directory, by name.
fn chunk_files(dir: &Path) -> BTreeSet<String> {
    let names = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name());
    let names = names.map(|n| n.into_string().unwrap());
    names.filter(|n| n.ends_with(".chunk")).collect()
}

/// The chunk files a sparse frame's index names: what an edit leaves in its directory,
/// whatever a killed edit before it left.
fn indexed_files(dir: &Path) -> BTreeSet<String> {
    let frame = b2nd_meta::frame::open(dir).unwrap();
    let data = frame.data_reader().unwrap();
    let files = data.index().locations.iter().filter_map(|l| match l {
        ChunkLocation::File(n) => Some(chunk_file_name(*n)),
        _ => None,
    });
    files.collect()
}

fn run(args: &[&str]) -> std::process::ExitStatus {
    Command::new(BIN)
        .args(args)
        .stderr(Stdio::null())
        .status()
        .unwrap()
}

#[test]
fn an_edit_killed_at_any_moment_leaves_the_array_before_or_after() {
    let dir = temp_path("edit-kill");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let npy = dir.join("in.npy");
    npy_i4(&npy, &[2000, 1000], 1);
    npy_i4(&dir.join("box.npy"), &[900, 1000], -5);
    npy_i4(&dir.join("rows.npy"), &[300, 1000], 9);
    npy_i4(&dir.join("one.npy"), &[], 3);
    for sparse in [false, true] {
        let base = dir.join(format!("base-{sparse}.b2nd"));
        let mut import = vec!["import", npy.to_str().unwrap(), base.to_str().unwrap()];
        import.extend(["--chunks", "100,1000", "--force"]);
        if sparse {
            import.push("--sparse");
        }
        assert!(run(&import).success());
        let edits: [Vec<String>; 3] = [
            vec![
                "write".into(),
                "--slice".into(),
                "50:950".into(),
                s(&dir.join("box.npy")),
            ],
            vec!["resize".into(), "1333,1200".into()],
            vec!["append".into(), s(&dir.join("rows.npy"))],
        ];
        for edit in &edits {
            let a = dir.join("a.b2nd");
            let fresh = || {
                let _ = std::fs::remove_dir_all(&a);
                let _ = std::fs::remove_file(&a);
                let copied = Command::new("cp").arg("-r").arg(&base).arg(&a).status();
                assert!(copied.unwrap().success());
            };
            let args = |a: &Path| -> Vec<String> {
                let mut v = vec![edit[0].clone(), s(a)];
                v.extend(edit[1..].iter().cloned());
                v
            };
            fresh();
            let old = state(&a);
            let argv = args(&a);
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            assert!(run(&argv).success(), "{argv:?}");
            let new = state(&a);
            assert_ne!(old, new, "{argv:?}");
            for i in 0..10u64 {
                fresh();
                let mut child = Command::new(BIN)
                    .args(&argv)
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                std::thread::sleep(Duration::from_millis(5 * i));
                let _ = child.kill();
                let _ = child.wait();
                let now = state(&a);
                assert!(
                    now == old || now == new,
                    "{argv:?} killed after {} ms: {now}",
                    5 * i
                );
                // The array takes the next edit (a write, whatever the killed one was).
                let one = s(&dir.join("one.npy"));
                assert!(run(&["write", a.to_str().unwrap(), "--slice", "0:300", &one]).success());
                if sparse {
                    assert_eq!(chunk_files(&a), indexed_files(&a), "{argv:?} killed");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
