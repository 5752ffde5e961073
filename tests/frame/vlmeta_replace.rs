//! A vlmeta write to a frame without data (`nbytes` 0) replaces the file by a rename
//! (`src/vlmeta/replace.rs`): what that must keep. A writer that waited on the
//! old file's lock writes into the new file, not into the one no path names any more;
//! the new file keeps the old one's mode; a symlink stays a symlink; a file with other
//! hard links is refused, untouched.

use std::fs::File;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::Duration;

use b2nd_meta::frame::{self, FrameErrorKind, VlmetaRefusal};
use b2nd_meta::vlmeta;

use super::c_vlmeta::c_read;
use crate::common::scratch::Scratch;

#[test]
fn writers_blocked_during_a_replacement_write_into_the_new_file() {
    for base in ["4.14.1_empty.b2nd", "3.0.0_empty_sparse.b2nd"] {
        let copy = Scratch::of(&format!("vlmeta_write/base/{base}"), "vlreplace-race");
        let header = copy.header_file();
        let ino = std::fs::metadata(&header).unwrap().ino();
        // Another writer of ours holds the lock: both writers below wait on the file
        // the path names now.
        let held = File::options()
            .read(true)
            .write(true)
            .open(&header)
            .unwrap();
        held.lock().unwrap();
        let writers: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|name| {
                let path = copy.0.clone();
                std::thread::spawn(move || vlmeta::set_vlmeta(&path, name, name).map(|_| ()))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            writers.iter().all(|w| !w.is_finished()),
            "{base}: the writers wait for the lock"
        );
        held.unlock().unwrap();
        for w in writers {
            w.join().unwrap().unwrap();
        }
        // The first replaced the file; the second, woken on the old one, started over
        // on the new one: both changes are there.
        assert_ne!(std::fs::metadata(&header).unwrap().ino(), ino, "{base}");
        let f = frame::open(&copy.0).unwrap();
        assert_eq!(f.vlmeta::<String>("a").unwrap(), "a", "{base}");
        assert_eq!(f.vlmeta::<String>("b").unwrap(), "b", "{base}");
        let c = c_read(&copy.0, false);
        let both = c.vlmeta().iter().filter(|(n, _)| n == "a" || n == "b");
        assert_eq!(both.count(), 2, "{base}: C reads both");
    }
}

#[test]
fn the_new_file_keeps_the_mode_and_a_symlink_stays_one() {
    let copy = Scratch::of("vlmeta_write/base/4.14.1_empty.b2nd", "vlreplace-mode");
    std::fs::set_permissions(&copy.0, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = copy.0.with_extension("link.b2nd");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&copy.0, &link).unwrap();
    vlmeta::set_vlmeta(&link, "units", "m/s").unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let md = std::fs::metadata(&copy.0).unwrap();
    assert_eq!(md.permissions().mode() & 0o7777, 0o640);
    assert_eq!(
        frame::open(&copy.0)
            .unwrap()
            .vlmeta::<String>("units")
            .unwrap(),
        "m/s"
    );
    std::fs::remove_file(&link).unwrap();
}

#[test]
fn a_file_with_other_hard_links_is_refused_untouched() {
    let copy = Scratch::of("vlmeta_write/base/4.14.1_empty.b2nd", "vlreplace-links");
    let other = copy.0.with_extension("other.b2nd");
    let _ = std::fs::remove_file(&other);
    std::fs::hard_link(&copy.0, &other).unwrap();
    let before = std::fs::read(&copy.0).unwrap();
    let e = vlmeta::set_vlmeta(&copy.0, "units", "m/s").unwrap_err();
    match e.kind() {
        FrameErrorKind::VlmetaChange {
            reason: VlmetaRefusal::NotReplaceable { why },
        } => assert!(why.contains("2 hard links"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("holds no data"), "{e}");
    assert_eq!(std::fs::read(&copy.0).unwrap(), before);
    std::fs::remove_file(&other).unwrap();
}
