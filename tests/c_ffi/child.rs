//! Running C-Blosc2 on hostile bytes in a forked child: C-Blosc2 2.15.3 corrupts its own
//! heap ("double free or corruption") on some inputs, which must be a verdict, not the
//! end of the test run.

use std::ffi::{c_int, c_void};
use std::io::Read;
use std::os::fd::FromRawFd;

/// Runs `work` in a forked child and returns the bytes it answers, or `Err(signal)` when
/// the child died of a signal (`Err(0)`: it did not answer within `seconds`).
pub fn in_child(seconds: u32, work: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, i32> {
    let mut fds = [0 as c_int; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // The child: only async-signal-safe work after fork would be strictly correct;
        // this child runs C-Blosc2 and writes its answer, then _exits.
        unsafe {
            libc::close(fds[0]);
            libc::alarm(seconds);
            let out = work();
            let mut written = 0;
            while written < out.len() {
                let n = libc::write(
                    fds[1],
                    out.as_ptr().add(written) as *const c_void,
                    out.len() - written,
                );
                if n <= 0 {
                    break;
                }
                written += n as usize;
            }
            libc::_exit(0);
        }
    }
    unsafe { libc::close(fds[1]) };
    let mut answer = Vec::new();
    let mut pipe = unsafe { std::fs::File::from_raw_fd(fds[0]) };
    let _ = pipe.read_to_end(&mut answer);
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        return Err(if sig == libc::SIGALRM { 0 } else { sig });
    }
    Ok(answer)
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
