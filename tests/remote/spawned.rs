//! The servers the remote tests start (moto, Caterva2, Azurite, the GCS emulator): found
//! where `.ci/servers` installs them, started on a free port of 127.0.0.1 and waited
//! for, stopped when dropped (with the directory they keep their state in).

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server process, killed (and its state directory removed) when dropped.
pub struct Spawned {
    child: Child,
    pub port: u16,
    dir: Option<PathBuf>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The installed `path` (`var`, else `cached` under `$XDG_CACHE_HOME` or `~/.cache`),
/// when it exists; else `None`, said loudly, or a failure in CI (`CI=true`): `what`
/// names it and `test` the test file.
pub fn installed(var: &str, cached: &str, what: &str, test: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var).map(PathBuf::from).or_else(|| {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| Some(PathBuf::from(std::env::var_os("HOME")?).join(".cache")))?;
        Some(cache.join(cached))
    });
    match path.filter(|p| p.exists()) {
        Some(path) => Some(path),
        None => not_installed(what, test),
    }
}

/// `None`, said loudly; a failure in CI (`CI=true`), where `.ci/servers` ran.
pub fn not_installed<T>(what: &str, test: &str) -> Option<T> {
    let why = format!("{what} is not installed: `bash .ci/servers` installs it ({test})");
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("\n!!! SKIPPED: {why}\n");
    None
}

/// A port of 127.0.0.1 nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `command` (told to listen on `port`) started, its output dropped, and waited for
/// until the port answers (60 s at most); `dir`, its state, removed with it.
pub fn start(mut command: Command, port: u16, dir: Option<PathBuf>, what: &str) -> Spawned {
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let spawned = Spawned { child, port, dir };
    let since = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "{what} did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    spawned
}
