//! The messages the audit found wrong, one line each: what the line now says.

use std::os::unix::process::CommandExt;
use std::process::Command;

use super::{failed, npy_i4, npy_u1, ok, run, Dir, BIN};

/// The line a failed run of `args` printed.
fn line<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    failed(&run(args))
}

#[test]
fn a_write_that_runs_out_of_room_says_it_cannot_write() {
    let dir = Dir::new("full");
    // 400 KB that do not compress.
    let mut noise = 0x2545_f491u32;
    let values: Vec<u8> = (0..400_000)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            noise as u8
        })
        .collect();
    npy_u1(&dir.join("in.npy"), &values);
    for sparse in [false, true] {
        let mut c = Command::new(BIN);
        c.arg("import")
            .arg(dir.join("in.npy"))
            .arg(dir.join("a.b2nd"));
        if sparse {
            c.arg("--sparse");
        }
        // A disk with 4 KiB left: no file may grow past it (EFBIG, SIGXFSZ ignored).
        // SAFETY: async-signal-safe calls only, between fork and exec.
        unsafe {
            c.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let limit = libc::rlimit {
                    rlim_cur: 4096,
                    rlim_max: 4096,
                };
                match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            });
        }
        let line = failed(&c.output().unwrap());
        let out = dir.join("a.b2nd").display().to_string();
        let chunk = if sparse { " 00000000.chunk" } else { "" };
        assert!(
            line.starts_with(&format!(
                "b2nd-meta: {out}: cannot write{chunk}: File too large"
            )),
            "{line}"
        );
        assert_eq!(dir.others(&["in.npy"]), Vec::<String>::new());
    }
}

#[test]
fn each_message_says_what_it_means() {
    let dir = Dir::new("messages");
    npy_i4(&dir.join("in.npy"), &[3]);
    let a = dir.join("a.b2nd");
    ok(&[
        "import".as_ref(),
        dir.join("in.npy").as_os_str(),
        a.as_os_str(),
    ]);
    let esc = dir.join("e\u{1b}x.b2nd");
    std::fs::write(&esc, "").unwrap();
    let (npy, out) = (dir.join("in.npy"), dir.join("o.b2nd"));
    let (npy, out, a) = (
        npy.to_str().unwrap(),
        out.to_str().unwrap(),
        a.to_str().unwrap(),
    );
    let cases: &[(&[&str], &str)] = &[
        (
            &["show", "--slice", "x", a],
            "b2nd-meta: show: --slice \"x\": expected an integer",
        ),
        (
            &["import", npy, out, "--chunks", "2,2"],
            "chunks should have as many dimensions as the shape (1), found 2",
        ),
    ];
    for (args, said) in cases {
        let line = line(args);
        assert!(line.contains(said), "{args:?}: {line}");
    }
    assert!(
        line(&[esc.as_os_str()].map(|p| ["show".as_ref(), p]).concat()).contains("e\\u001bx.b2nd")
    );
}
