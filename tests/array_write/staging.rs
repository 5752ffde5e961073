//! A new array is written to python-blosc2's staging name, `<name>.<pid>.tmp`, beside
//! the target and renamed over it: until then the target is untouched; an existing
//! target is refused unless overwriting is asked for; a writer that does not finish
//! leaves nothing.

use b2nd_meta::array::write::NewArray;
use b2nd_meta::array::{Array, ArrayErrorKind, Selection};

use crate::cases::fixed_caches;
use crate::TempDir;

fn array(sparse: bool) -> NewArray {
    NewArray::new(&[30, 20], "<i2")
        .unwrap()
        .chunks(&[10, 20])
        .caches(fixed_caches())
        .sparse(sparse)
}

fn values(seed: i16) -> Vec<i16> {
    (0..600).map(|i| i as i16 * seed).collect()
}

fn staging(path: &std::path::Path) -> std::path::PathBuf {
    path.with_file_name(format!(
        "{}.{}.tmp",
        path.file_name().unwrap().to_str().unwrap(),
        std::process::id()
    ))
}

fn names(dir: &TempDir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn the_frame_is_staged_beside_the_target_until_it_is_finished() {
    for sparse in [false, true] {
        let dir = TempDir::new(&format!("stage{sparse}"));
        let path = dir.0.join("a.b2nd");
        let mut w = array(sparse).create(&path).unwrap();
        w.write_typed(&values(1)).unwrap();
        assert!(staging(&path).exists() && !path.exists());
        w.finish().unwrap();
        assert_eq!(names(&dir), ["a.b2nd"]);
        assert_eq!(path.is_dir(), sparse);
        // Dropped before finishing: nothing is left.
        let other = dir.0.join("b.b2nd");
        let mut w = array(sparse).create(&other).unwrap();
        w.write_typed(&values(2)[..300]).unwrap();
        drop(w);
        assert_eq!(names(&dir), ["a.b2nd"]);
    }
}

#[test]
fn an_existing_target_is_refused_unless_overwriting_is_asked_for() {
    let dir = TempDir::new("exists");
    for (first, second) in [(false, false), (false, true), (true, false), (true, true)] {
        let path = dir.0.join(format!("{first}{second}.b2nd"));
        array(first).write_typed(&path, &values(1)).unwrap();
        let err = array(second).write_typed(&path, &values(2)).unwrap_err();
        assert!(matches!(err.kind(), ArrayErrorKind::Exists), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: exists, and overwriting it was not asked for",
                path.display()
            )
        );
        let read = |path| {
            Array::open(path)
                .unwrap()
                .read::<i16>(&Selection::all())
                .unwrap()
        };
        assert_eq!(read(&path), values(1));
        array(second)
            .overwrite(true)
            .write_typed(&path, &values(3))
            .unwrap();
        assert_eq!(read(&path), values(3));
        assert_eq!(path.is_dir(), second);
    }
    assert_eq!(names(&dir).len(), 4, "{:?}", names(&dir));
}

#[test]
fn a_staging_name_in_use_is_refused_and_left_alone() {
    let dir = TempDir::new("busy");
    let path = dir.0.join("a.b2nd");
    std::fs::write(staging(&path), b"someone else's").unwrap();
    let err = array(false).write_typed(&path, &values(1)).unwrap_err();
    assert!(err.to_string().contains("File exists"), "{err}");
    assert_eq!(std::fs::read(staging(&path)).unwrap(), b"someone else's");
    assert!(!path.exists());
}
