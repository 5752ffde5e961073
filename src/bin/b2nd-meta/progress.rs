//! Progress of a directory scan, on stderr, for a person waiting at a terminal: one line
//! (`b2nd-meta: looking: 120 entries in 3 directories, 2 shown`), redrawn in place,
//! drawn only once nothing has been printed for a second (so a fast scan shows none),
//! and erased before the next output line or error. Nothing when stderr is not a
//! terminal (a pipe, a file, a test's capture).

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

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
