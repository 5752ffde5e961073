//! [`Steps`]: every change the crate makes to files goes through it, one counted step at a
//! time (a positioned write, a sync, a length set, a rename, a removal), so that the
//! crash tests can stop a writer between any two of its steps, or in the middle of a
//! write, and look at what is left.
//!
//! Stopping is for tests only. A library test gives a writer `Steps::stop_after(n)`: the
//! `n`-th step fails with an error, as a crash would, and [`Steps::stopped`] tells the
//! writer's cleanup to leave things as they are. With the `repo-tests` feature the
//! command line reads `B2ND_META_CRASH_AFTER=n` and aborts the process at the `n`-th
//! step instead (no destructor runs: what is left is what `kill -9` would leave). A write
//! is two steps: stopped at the first nothing is written, at the second its first half
//! is (a torn write).

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use super::write_at::WriteAt;

/// How a stop shows itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The step fails with an error; the writer leaves what it wrote.
    Error,
    /// The process aborts (`B2ND_META_CRASH_AFTER`, with the `repo-tests` feature only).
    #[cfg_attr(not(feature = "repo-tests"), allow(dead_code))]
    Abort,
}

#[derive(Debug)]
struct Countdown {
    left: AtomicU64,
    stop: Stop,
    stopped: AtomicBool,
    /// Nanoseconds spent waiting in syncs and renames ([`Steps::timed`]).
    waited: AtomicU64,
}

/// The steps of one write (shared by the threads that carry it out).
#[derive(Debug, Clone, Default)]
pub struct Steps(Option<Arc<Countdown>>);

/// The threads [`Steps::sync_data_together`] issues syncs from: they wait on the disk,
/// not on a core.
pub(crate) const SYNC_THREADS: usize = 16;

/// New files written and not yet synced, synced together
/// ([`Steps::sync_data_together`]) once [`Unsynced::CAP`] are open and when
/// [`Unsynced::sync`] is called, before anything names them.
#[derive(Debug, Default)]
pub(crate) struct Unsynced(std::vec::Vec<File>);

impl Unsynced {
    /// The most files kept open (well under the usual limit of 1024).
    const CAP: usize = 64;

    /// Keeps `file` to sync with the others, syncing them all when there are enough.
    pub(crate) fn push(&mut self, file: File, steps: &Steps) -> io::Result<()> {
        self.0.push(file);
        match self.0.len() >= Unsynced::CAP {
            true => self.sync(steps),
            false => Ok(()),
        }
    }

    /// Makes the data of every file kept durable, together.
    pub(crate) fn sync(&mut self, steps: &Steps) -> io::Result<()> {
        let files = core::mem::take(&mut self.0);
        steps.sync_data_together(&files)
    }
}

/// The variable the command line reads, with the `repo-tests` feature.
#[cfg(feature = "repo-tests")]
const CRASH_AFTER: &str = "B2ND_META_CRASH_AFTER";

impl Steps {
    /// Steps that never stop.
    pub(crate) const fn unlimited() -> Steps {
        Steps(None)
    }

    /// Steps that fail from the `n`-th on (counting from 0), as a crash would (tests).
    #[doc(hidden)]
    pub fn stop_after(n: u64) -> Steps {
        Steps(Some(Arc::new(Countdown {
            left: AtomicU64::new(n),
            stop: Stop::Error,
            stopped: AtomicBool::new(false),
            waited: AtomicU64::new(0),
        })))
    }

    /// Steps that never stop and count the time spent in syncs and renames (what makes
    /// a write durable), for benchmarks that report it apart: [`Steps::waited`].
    #[doc(hidden)]
    pub fn timed() -> Steps {
        Steps::stop_after(u64::MAX)
    }

    /// The time spent so far in syncs and renames (wall time: syncs issued together
    /// count once); zero unless made by [`Steps::timed`] or [`Steps::stop_after`].
    #[doc(hidden)]
    pub fn waited(&self) -> std::time::Duration {
        let nanos = self
            .0
            .as_ref()
            .map_or(0, |c| c.waited.load(Ordering::Relaxed));
        std::time::Duration::from_nanos(nanos)
    }

    /// `wait` run, its time added to [`Steps::waited`] when counted.
    fn waiting<T>(&self, wait: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
        let Some(c) = &self.0 else { return wait() };
        let start = std::time::Instant::now();
        let result = wait();
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        c.waited.fetch_add(nanos, Ordering::Relaxed);
        result
    }

    /// The process's steps: with the `repo-tests` feature, `B2ND_META_CRASH_AFTER=n`
    /// aborts the process at its `n`-th step; otherwise they never stop.
    #[doc(hidden)]
    pub fn of_process() -> Steps {
        #[cfg(feature = "repo-tests")]
        if let Some(n) = std::env::var(CRASH_AFTER).ok().and_then(|v| v.parse().ok()) {
            return Steps(Some(Arc::new(Countdown {
                left: AtomicU64::new(n),
                stop: Stop::Abort,
                stopped: AtomicBool::new(false),
                waited: AtomicU64::new(0),
            })));
        }
        Steps(None)
    }

    /// Whether a step stopped (the writer then cleans nothing up: a crash would not).
    pub(crate) fn stopped(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|c| c.stopped.load(Ordering::SeqCst))
    }

    /// Takes one step; an error when the countdown is over.
    fn step(&self) -> io::Result<()> {
        let Some(c) = &self.0 else { return Ok(()) };
        let taken = c
            .left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        if taken.is_ok() {
            return Ok(());
        }
        c.stopped.store(true, Ordering::SeqCst);
        match c.stop {
            Stop::Abort => std::process::abort(),
            Stop::Error => Err(io::Error::other("stopped (crash test)")),
        }
    }

    /// Writes all of `buf` at `offset` of `sink`: two steps, the second a torn write.
    pub(crate) fn write<W: WriteAt + ?Sized>(
        &self,
        sink: &W,
        buf: &[u8],
        offset: u64,
    ) -> io::Result<()> {
        self.step()?;
        if let Err(e) = self.step() {
            let half = buf.len() / 2;
            let _ = sink.write_all_at(&buf[..half], offset);
            return Err(e);
        }
        sink.write_all_at(buf, offset)
    }

    /// Writes `buf` at `offset` in one `pwrite`: one step, all or nothing, when it lies
    /// within one 4 KiB page of the file (a killed process cannot stop the kernel's copy
    /// of a page half way); torn as [`Steps::write`] otherwise.
    pub(crate) fn write_in_page<W: WriteAt + ?Sized>(
        &self,
        sink: &W,
        buf: &[u8],
        offset: u64,
    ) -> io::Result<()> {
        const PAGE: u64 = 4096;
        let last = offset.saturating_add(buf.len().saturating_sub(1) as u64);
        if offset / PAGE != last / PAGE {
            return self.write(sink, buf, offset);
        }
        self.step()?;
        sink.write_all_at(buf, offset)
    }

    /// Writes 8 bytes at an 8-aligned offset of a file's first sector: one step, all
    /// or nothing (storage tears writes at sector boundaries, not inside one).
    pub(crate) fn flip<W: WriteAt + ?Sized>(
        &self,
        sink: &W,
        bytes: &[u8; 8],
        offset: u64,
    ) -> io::Result<()> {
        self.step()?;
        sink.write_all_at(bytes, offset)
    }

    /// Makes a file's data durable (`fdatasync`).
    pub(crate) fn sync_data<W: WriteAt + ?Sized>(&self, sink: &W) -> io::Result<()> {
        self.step()?;
        self.waiting(|| sink.sync_data())
    }

    /// Makes the data of several new files durable, their `fdatasync`s issued together
    /// from up to [`SYNC_THREADS`] threads: the file system commits them in one journal
    /// transaction or a few, where one after another each waits for its own.
    pub(crate) fn sync_data_together(&self, files: &[File]) -> io::Result<()> {
        if files.len() < 2 {
            return files.iter().try_for_each(|f| self.sync_data(f));
        }
        let per = files.len().div_ceil(SYNC_THREADS);
        let sync = |f: &File| self.step().and_then(|()| f.sync_data());
        self.waiting(|| {
            std::thread::scope(|s| {
                let handles: std::vec::Vec<_> = files
                    .chunks(per)
                    .map(|part| s.spawn(move || part.iter().try_for_each(sync)))
                    .collect();
                let mut first = Ok(());
                for h in handles {
                    let r = h
                        .join()
                        .unwrap_or_else(|_| Err(io::Error::other("a sync thread panicked")));
                    if first.is_ok() {
                        first = r;
                    }
                }
                first
            })
        })
    }

    /// Makes a new file durable, data and metadata (its length, mode and owner).
    pub(crate) fn sync_all(&self, file: &File) -> io::Result<()> {
        self.step()?;
        self.waiting(|| file.sync_all())
    }

    /// Sets a file's length.
    pub(crate) fn set_len<W: WriteAt + ?Sized>(&self, sink: &W, len: u64) -> io::Result<()> {
        self.step()?;
        sink.set_len(len)
    }

    /// Renames `from` over `to` (atomic for a file, or a directory onto nothing).
    pub(crate) fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.step()?;
        self.waiting(|| std::fs::rename(from, to))
    }

    /// Makes the entries of `dir` (a rename, a new or removed file) durable.
    pub(crate) fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.step()?;
        self.waiting(|| super::file::sync_dir(dir))
    }

    /// Removes a file.
    pub(crate) fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.step()?;
        std::fs::remove_file(path)
    }

    /// Opens a file as `options` say (one step: it may create one).
    pub(crate) fn open(&self, options: &std::fs::OpenOptions, path: &Path) -> io::Result<File> {
        self.step()?;
        options.open(path)
    }

    /// Creates a directory.
    pub(crate) fn create_dir(&self, path: &Path) -> io::Result<()> {
        self.step()?;
        std::fs::create_dir(path)
    }

    /// Removes an empty directory.
    pub(crate) fn remove_dir(&self, path: &Path) -> io::Result<()> {
        self.step()?;
        std::fs::remove_dir(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_two_steps_the_second_torn() {
        let path = std::env::temp_dir().join(std::format!("b2nd-steps-{}", std::process::id()));
        let file = File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        for (n, expect) in [(0, &b""[..]), (1, b"ab"), (2, b"abcd")] {
            file.set_len(0).unwrap();
            let steps = Steps::stop_after(n);
            let r = steps.write(&file, b"abcd", 0);
            assert_eq!(r.is_ok(), n == 2, "{n}");
            assert_eq!(steps.stopped(), n < 2);
            assert_eq!(std::fs::read(&path).unwrap(), expect, "{n}");
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn steps_shared_by_clones_count_once() {
        let steps = Steps::stop_after(3);
        let other = steps.clone();
        assert!(steps.step().is_ok() && other.step().is_ok() && steps.step().is_ok());
        assert!(other.step().is_err() && steps.stopped());
        assert!(Steps::unlimited().step().is_ok() && !Steps::unlimited().stopped());
    }
}
