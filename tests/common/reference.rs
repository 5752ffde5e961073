//! Where the references the tests compare against are: python-blosc2 4.14.1's venv (its
//! wheel ships C-Blosc2 3.3.5 as `blosc2/lib/libblosc2.so`), installed by
//! `.ci/references` under `${XDG_CACHE_HOME:-~/.cache}/b2nd-meta/venvs/blosc2-4.14.1`,
//! or where `B2ND_VENV_BLOSC2_4_14_1` says. Included by path from tests and benches.
#![allow(dead_code)]

use std::path::PathBuf;

/// The variable naming python-blosc2 4.14.1's venv.
pub const VENV_ENV: &str = "B2ND_VENV_BLOSC2_4_14_1";

/// The venv's directory: `B2ND_VENV_BLOSC2_4_14_1`, else `.ci/references`'s place.
pub fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(VENV_ENV) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("b2nd-meta/venvs/blosc2-4.14.1")
}

/// The venv's python, when it is there.
pub fn python() -> Option<PathBuf> {
    Some(venv_dir().join("bin/python")).filter(|p| p.exists())
}

/// The wheel's `libblosc2.so` in the venv, when it is there.
pub fn libblosc2() -> Option<PathBuf> {
    let lib = venv_dir().join("lib");
    let pythons = std::fs::read_dir(&lib).ok()?;
    pythons
        .filter_map(Result::ok)
        .map(|e| e.path().join("site-packages/blosc2/lib/libblosc2.so"))
        .find(|p| p.exists())
}

/// Whether a test that needs a reference must fail without it: in CI (`CI=true`),
/// where `.ci/run` installs every reference before the first test.
pub fn required() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// The venv's python; without it `None`, said loudly, or a failure in CI ([`required`]).
pub fn python_or_skip() -> Option<PathBuf> {
    let python = python();
    if python.is_none() {
        assert!(
            !required(),
            "python-blosc2 4.14.1 is required in CI (.ci/references)"
        );
        eprintln!("skipped: no python-blosc2 4.14.1 venv (run .ci/references)");
    }
    python
}
