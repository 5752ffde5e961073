//! Running C-Blosc2 on hostile bytes in a forked child: C-Blosc2 2.15.3 corrupts its own
//! heap ("double free or corruption") on some inputs, which must be a verdict, not the
//! end of the test run.

use std::ffi::{c_int, c_void};
use std::io::Read;
use std::os::fd::FromRawFd;

/// Runs `work` in a forked child and returns the bytes it answers, or `Err(signal)` when
/// the child died of a signal (`Err(0)`: it did not answer within `seconds`).
pub fn in_child(seconds: u32, work: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, i32> {
    let (mut pipe, pid) = fork_piped(seconds, |fd| write_all(fd, &work()));
    let mut answer = Vec::new();
    let _ = pipe.read_to_end(&mut answer);
    reap(pid).map(|()| answer)
}

/// A forked child that runs `answer` with the write end of a pipe, then `_exit`s (an
/// alarm after `seconds` ends one that hangs); the parent gets the read end and the
/// child's pid, for [`reap`].
pub fn fork_piped(seconds: u32, answer: impl FnOnce(c_int)) -> (std::fs::File, libc::pid_t) {
    let mut fds = [0 as c_int; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // The child: only async-signal-safe work after fork would be strictly correct;
        // this child runs C and writes its answer, then _exits.
        unsafe {
            libc::close(fds[0]);
            libc::alarm(seconds);
        }
        answer(fds[1]);
        unsafe { libc::_exit(0) };
    }
    unsafe { libc::close(fds[1]) };
    (unsafe { std::fs::File::from_raw_fd(fds[0]) }, pid)
}

/// Waits for the child `pid`: `Err(signal)` when it died of one (`Err(0)`: its alarm).
pub fn reap(pid: libc::pid_t) -> Result<(), i32> {
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        return Err(if sig == libc::SIGALRM { 0 } else { sig });
    }
    Ok(())
}

/// `bytes` to the pipe `fd`, in a child: a failed write ends the child (status 3).
pub fn write_all(fd: c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        let n = unsafe { libc::write(fd, bytes.as_ptr() as *const c_void, bytes.len()) };
        if n <= 0 {
            unsafe { libc::_exit(3) };
        }
        bytes = &bytes[n as usize..];
    }
}

/// The next `n` bytes of a child's answer, moving past them; `None` when it is shorter.
pub fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, rest) = (b.get(..n)?, b.get(n..)?);
    *b = rest;
    Some(head)
}

/// A length in a child's answer: a big-endian `u32`.
pub fn len(b: &mut &[u8]) -> Option<usize> {
    let s = take(b, 4)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]) as usize)
}
