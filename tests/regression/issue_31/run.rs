//! The command line run as a child whose peak memory and time are measured.

use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What every case must stay under: 256 MB resident, and seconds.
pub const MAX_RSS: u64 = 256 << 20;
pub const MAX_TIME: Duration = Duration::from_secs(20);

/// How a run ended, with what it cost.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The child's peak resident set, in bytes.
    pub peak_rss: u64,
    pub time: Duration,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The run ended in time, under the memory bound, with exit status `code`; says
    /// its figures on stderr (shown with `--nocapture`).
    pub fn within_bounds(&self, what: &str, code: i32) -> &Self {
        eprintln!(
            "issue 31 {what}: exit {:?}, peak RSS {:.1} MB, {:.2} s",
            self.code,
            self.peak_rss as f64 / 1e6,
            self.time.as_secs_f64()
        );
        assert!(
            self.peak_rss < MAX_RSS,
            "{what}: peak RSS {} bytes",
            self.peak_rss
        );
        assert!(self.time < MAX_TIME, "{what}: {:?}", self.time);
        assert_eq!(self.code, Some(code), "{what}: {}", self.stderr);
        self
    }
}

/// Runs `b2nd-meta args...` (stdin empty, environment as given).
pub fn b2nd_meta<S: AsRef<OsStr>>(args: &[S], env: &[(&str, &str)]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut v = Vec::new();
        out.read_to_end(&mut v).map(|_| v).unwrap()
    });
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s).unwrap()
    });
    let (code, peak_rss) = wait(child.id());
    let time = start.elapsed();
    // The child is reaped: forget it (std would wait for it again).
    std::mem::forget(child);
    Run {
        code,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        peak_rss,
        time,
    }
}

/// Waits for the child `pid`: its exit code and peak resident set (bytes).
fn wait(pid: u32) -> (Option<i32>, u64) {
    let mut status = 0;
    // SAFETY: plain C structs, zero is a valid value; wait4 fills them.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(got, pid as libc::pid_t, "wait4");
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    // Linux gives ru_maxrss in KiB.
    (code, usage.ru_maxrss as u64 * 1024)
}
