//! Progress on stderr: of a directory scan ([`Progress`]), of `import` and `export`
//! ([`Transfer`]). Progress of a directory scan, on stderr, for a person waiting at a terminal: one line
//! (`b2nd-meta: looking: 120 entries in 3 directories, 2 shown`), redrawn in place,
//! drawn only once nothing has been printed for a second (so a fast scan shows none),
//! and erased before the next output line or error. Nothing when stderr is not a
//! terminal (a pipe, a file, a test's capture).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use b2nd_meta::io::ReadAt;

use crate::render::count;

/// How long a terminal waits before the line appears: `B2ND_META_PROGRESS_AFTER`
/// (milliseconds; the tests set 0), else a second.
fn delay() -> Duration {
    let ms = std::env::var("B2ND_META_PROGRESS_AFTER")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    Duration::from_millis(ms)
}

/// Time between two redraws of the line.
const REDRAW: Duration = Duration::from_millis(100);

pub struct Progress {
    on: bool,
    after: Duration,
    /// Since when nothing was printed.
    quiet_since: Instant,
    last_draw: Option<Instant>,
    drawn: bool,
    dirs: u64,
    entries: u64,
    shown: u64,
}

impl Progress {
    /// Progress for this run: on when stderr is a terminal.
    pub fn new() -> Progress {
        Progress {
            on: io::stderr().is_terminal(),
            after: delay(),
            quiet_since: Instant::now(),
            last_draw: None,
            drawn: false,
            dirs: 0,
            entries: 0,
            shown: 0,
        }
    }

    /// A directory was opened.
    pub fn dir(&mut self) {
        self.dirs += 1;
        self.tick();
    }

    /// An entry of a directory was looked at.
    pub fn entry(&mut self) {
        self.entries += 1;
        self.tick();
    }

    /// Erases the line before something is printed (on stdout or stderr).
    pub fn clear(&mut self) {
        if self.drawn {
            let _ = write!(io::stderr().lock(), "\r\x1b[K");
            self.drawn = false;
        }
    }

    /// Something was shown: the wait starts again.
    pub fn shown(&mut self) {
        self.shown += 1;
        self.quiet_since = Instant::now();
    }

    fn tick(&mut self) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.quiet_since) < self.after
            || self
                .last_draw
                .is_some_and(|t| now.duration_since(t) < REDRAW)
        {
            return;
        }
        self.last_draw = Some(now);
        self.drawn = true;
        let dirs = count(self.dirs, "directory", "directories");
        let _ = write!(
            io::stderr().lock(),
            "\r\x1b[Kb2nd-meta: looking: {} in {dirs}, {} shown",
            count(self.entries, "entry", "entries"),
            self.shown
        );
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Progress of `import` or `export`, on stderr, for a person waiting at a terminal:
/// one line (`b2nd-meta: importing: 120.0 MiB of 1.2 GiB (10%), 85.3 MiB/s, 12 s left`),
/// redrawn in place, drawn only once the work has taken a second (so a small file
/// shows none), and erased at the end or before an error line. Nothing when stderr is
/// not a terminal. Counted from any thread (the threads compressing `import`'s chunks
/// read them).
pub struct Transfer {
    on: bool,
    verb: &'static str,
    total: u64,
    done: AtomicU64,
    start: Instant,
    after: Duration,
    /// The last draw, and whether a line is on the terminal.
    drawn: Mutex<(Option<Instant>, bool)>,
}

impl Transfer {
    /// Progress of `verb` (`importing`) over `total` bytes: on when stderr is a terminal.
    pub fn new(verb: &'static str, total: u64) -> Transfer {
        Transfer {
            on: io::stderr().is_terminal(),
            verb,
            total,
            done: AtomicU64::new(0),
            start: Instant::now(),
            after: delay(),
            drawn: Mutex::new((None, false)),
        }
    }

    /// `n` more bytes are done.
    pub fn add(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if !self.on {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.start);
        if elapsed < self.after {
            return;
        }
        // Another thread drawing: this count shows next time.
        let Ok(mut drawn) = self.drawn.try_lock() else {
            return;
        };
        if drawn.0.is_some_and(|t| now.duration_since(t) < REDRAW) {
            return;
        }
        *drawn = (Some(now), true);
        let done = done.min(self.total);
        let secs = elapsed.as_secs_f64();
        let rate = done as f64 / secs.max(1e-3);
        let percent = match self.total {
            0 => 100,
            t => (u128::from(done) * 100 / u128::from(t)) as u64,
        };
        let left = match rate > 0.0 {
            true => format!(", {} left", seconds((self.total - done) as f64 / rate)),
            false => String::new(),
        };
        let _ = write!(
            io::stderr().lock(),
            "\r\x1b[Kb2nd-meta: {}: {} of {} ({percent}%), {}/s{left}",
            self.verb,
            bytes(done as f64),
            bytes(self.total as f64),
            bytes(rate),
        );
    }

    /// Erases the line (before an error line, and at the end).
    pub fn clear(&self) {
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        if drawn.1 {
            let _ = write!(io::stderr().lock(), "\r\x1b[K");
            drawn.1 = false;
        }
    }
}

impl Drop for Transfer {
    fn drop(&mut self) {
        self.clear();
    }
}

/// A size in bytes as a person reads it: `812 B`, `120.0 MiB`, `1.2 GiB`.
fn bytes(n: f64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024.0 {
        return format!("{n:.0} B");
    }
    let mut value = n / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A duration as a person reads it: `12 s`, `3 min 05 s`, `2 h 10 min`.
fn seconds(s: f64) -> String {
    let s = s.ceil().min(u64::MAX as f64) as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// A writer that counts what goes through it into a [`Transfer`].
pub struct CountingWriter<'p, W> {
    pub inner: W,
    pub progress: &'p Transfer,
}

impl<W: Write> Write for CountingWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.progress.add(n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that counts what comes through it into a [`Transfer`].
pub struct CountingReader<'p, R> {
    pub inner: R,
    pub progress: &'p Transfer,
}

impl<R: io::Read> io::Read for CountingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.add(n as u64);
        Ok(n)
    }
}

/// A source read at offsets (by the threads compressing `import`'s chunks) that counts
/// what is read of it into a [`Transfer`].
pub struct CountingAt<'p, S> {
    pub inner: &'p S,
    pub progress: &'p Transfer,
}

impl<S: ReadAt> ReadAt for CountingAt<'_, S> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let n = self.inner.read_at(buf, offset)?;
        self.progress.add(n as u64);
        Ok(n)
    }

    fn size(&self) -> io::Result<u64> {
        self.inner.size()
    }

    fn size_up_to(&self, want: u64) -> io::Result<u64> {
        self.inner.size_up_to(want)
    }
}
