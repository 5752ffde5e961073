//! The command line run as a child whose peak memory and time are measured.
//!
//! A child's peak resident set (`ru_maxrss`) counts the memory of the process that
//! spawned it, up to its `exec` (Linux keeps the larger of the two): spawned from this
//! test binary, whose threads hold other tests' large outputs, it would say more than
//! the child ever used. So the test binary runs itself again as a small runner (the
//! test `runner` below, selected by name), which spawns the command, waits for it with
//! `wait4` and writes its figures to a file.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What every case must stay under: 256 MB resident, and seconds (10 s, on a loaded
/// machine, for what takes well under one in a release build).
pub const MAX_RSS: u64 = 256 << 20;
pub const MAX_TIME: Duration = Duration::from_secs(10);

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

    /// The run ended in [`MAX_TIME`], under the memory bound, with exit status `code`;
    /// says its figures on stderr (shown with `--nocapture`).
    pub fn within_bounds(&self, what: &str, code: i32) -> &Self {
        self.within(what, code, MAX_TIME)
    }

    /// [`Run::within_bounds`] in `time`.
    pub fn within(&self, what: &str, code: i32, time: Duration) -> &Self {
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
        assert!(self.time < time, "{what}: {:?}", self.time);
        assert_eq!(self.code, Some(code), "{what}: {}", self.stderr);
        self
    }
}

const RUNNER: &str = "B2ND_META_ISSUE31_RUNNER";

/// Runs `b2nd-meta args...` (stdin empty, `env` added) through the runner.
pub fn b2nd_meta<S: AsRef<OsStr>>(args: &[S], env: &[(&str, &str)]) -> Run {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let base =
        std::env::temp_dir().join(format!("b2nd-meta-issue31-run-{}-{n}", std::process::id()));
    let files = ["out", "err", "figures"].map(|f| base.with_extension(f));
    // The runner's instructions, one argument a line: the files, then the arguments.
    let mut spec = files
        .each_ref()
        .map(|f| f.to_string_lossy().into_owned())
        .join("\n");
    for a in args {
        spec.push('\n');
        spec.push_str(a.as_ref().to_str().expect("UTF-8 arguments"));
    }
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "issue_31::run::runner",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(RUNNER, &spec)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "the runner failed");
    let read = |p: &Path| std::fs::read(p).unwrap();
    let figures = String::from_utf8(read(&files[2])).unwrap();
    let [code, rss, nanos] = figures
        .split_whitespace()
        .map(|f| f.parse::<i64>().unwrap())
        .collect::<Vec<_>>()[..]
    else {
        panic!("{figures}")
    };
    let run = Run {
        code: (code >= 0).then_some(code as i32),
        stdout: read(&files[0]),
        stderr: String::from_utf8_lossy(&read(&files[1])).into_owned(),
        peak_rss: rss as u64,
        time: Duration::from_nanos(nanos as u64),
    };
    for f in &files {
        let _ = std::fs::remove_file(f);
    }
    run
}

/// The runner: with its instructions in the environment, spawns `b2nd-meta`, its
/// stdout and stderr into files, and writes its exit code (-1 when killed), peak
/// resident set (bytes) and time (ns); without them, nothing.
#[test]
fn runner() {
    let Ok(spec) = std::env::var(RUNNER) else {
        return;
    };
    let mut lines = spec.split('\n');
    let mut file = || PathBuf::from(lines.next().unwrap());
    let (out, err, figures) = (file(), file(), file());
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(lines)
        .env_remove(RUNNER)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let (code, rss) = wait(child.id());
    let time = start.elapsed();
    // Reaped already: std must not wait for it again.
    std::mem::forget(child);
    let line = format!("{} {rss} {}", code.unwrap_or(-1), time.as_nanos());
    std::fs::write(figures, line).unwrap();
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
