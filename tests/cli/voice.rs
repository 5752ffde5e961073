//! One voice on the command line: every command that takes a PATH says the same thing,
//! the same way, for a missing file, a directory without chunks.b2frame, a file that is
//! not a frame and a read-only file; malformed arguments count axes from 0; `show -`
//! reads stdin; the pattern is the one `--help` and README list.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{run, temp_path, Run, BIN};

/// A scratch directory for one test, removed (immutable files first made mutable).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = temp_path(&format!("voice-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn copy(&self, corpus: &str, name: &str) -> PathBuf {
        let to = self.0.join(name);
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/corpus")
            .join(corpus);
        fs::copy(from, &to).unwrap();
        to
    }

    /// A copy of a frame that cannot be opened for writing: read-only, and, where the
    /// tests run as root (whom permissions do not stop), immutable (`chattr +i`).
    /// `None` where neither is possible.
    fn read_only(&self) -> Option<PathBuf> {
        let path = self.copy("user_meta.b2nd", "read-only.b2nd");
        let mut perms = fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&path, perms).unwrap();
        let writable = |p: &Path| fs::OpenOptions::new().write(true).open(p).is_ok();
        if writable(&path) {
            let _ = Command::new("chattr")
                .arg("+i")
                .arg(&path)
                .stderr(Stdio::null())
                .status();
        }
        if writable(&path) {
            eprintln!("cannot make a file read-only here (root without chattr): case skipped");
            return None;
        }
        Some(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = Command::new("chattr")
            .arg("-i")
            .arg(self.0.join("read-only.b2nd"))
            .stderr(Stdio::null())
            .status();
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Each command that takes a PATH, with the rest of its arguments.
fn commands(path: &Path) -> Vec<(&'static str, Vec<String>)> {
    let p = path.display().to_string();
    vec![
        ("show", vec!["show".into(), p.clone()]),
        ("set-shape", vec!["set-shape".into(), p.clone(), "3".into()]),
        (
            "set-meta",
            vec![
                "set-meta".into(),
                p.clone(),
                "other".into(),
                "[3, 2, 1]".into(),
            ],
        ),
        (
            "set-vlmeta",
            vec![
                "set-vlmeta".into(),
                p.clone(),
                "units".into(),
                "\"m/s\"".into(),
            ],
        ),
        ("del-vlmeta", vec!["del-vlmeta".into(), p, "note".into()]),
    ]
}

/// Exit status 1 and exactly the one line `b2nd-meta: <path>: <message>`.
fn assert_line(out: &Run, path: &Path, starts: &str, command: &str) -> String {
    assert_eq!(out.code, Some(1), "{command}: {}", out.stderr);
    assert_eq!(out.stdout, "", "{command}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{command}: {:?}", out.stderr);
    let prefix = format!("b2nd-meta: {}: {starts}", path.display());
    assert!(
        lines[0].starts_with(&prefix),
        "{command}: {:?} does not start with {prefix:?}",
        lines[0]
    );
    lines[0].to_string()
}

#[test]
fn a_missing_file_reads_the_same_in_every_command() {
    let scratch = Scratch::new("missing");
    let path = scratch.0.join("missing.b2nd");
    for (command, args) in commands(&path) {
        let line = assert_line(&run(&args), &path, "cannot open: ", command);
        assert!(line.ends_with("(os error 2)"), "{command}: {line}");
    }
}

#[test]
fn a_directory_without_chunks_b2frame_is_named_in_every_command() {
    let scratch = Scratch::new("dir");
    let dir = scratch.0.join("plain");
    fs::create_dir(&dir).unwrap();
    let header = dir.join("chunks.b2frame");
    // show looks into a plain directory instead (tests/cli/scan.rs).
    for (command, args) in commands(&dir).into_iter().filter(|(c, _)| *c != "show") {
        let want = format!(
            "a directory without chunks.b2frame, so not a sparse frame: cannot open {}: ",
            header.display()
        );
        assert_line(&run(&args), &dir, &want, command);
    }
}

#[test]
fn a_file_that_is_not_a_frame_is_said_once_in_every_command() {
    let scratch = Scratch::new("text");
    let path = scratch.0.join("notes.txt");
    fs::write(&path, "hello, not a frame\n").unwrap();
    for (command, args) in commands(&path) {
        let line = assert_line(&run(&args), &path, "not a Blosc2 frame: ", command);
        assert_eq!(line.matches("not a").count(), 1, "{command}: {line}");
        assert!(line.ends_with("found 0x6c at byte 2"), "{command}: {line}");
        assert_eq!(fs::read(&path).unwrap(), b"hello, not a frame\n");
    }
}

#[test]
fn a_read_only_file_is_shown_and_refused_for_writing_untouched() {
    let scratch = Scratch::new("read-only");
    let Some(path) = scratch.read_only() else {
        return;
    };
    let before = fs::read(&path).unwrap();
    for (command, args) in commands(&path) {
        let out = run(&args);
        if command == "show" {
            out.assert_ok();
            continue;
        }
        assert_line(&out, &path, "cannot open for writing: ", command);
    }
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn malformed_arguments_say_which_and_count_axes_from_0() {
    let scratch = Scratch::new("args");
    let path = scratch.copy("ndim2_i4.b2nd", "a.b2nd");
    let before = fs::read(&path).unwrap();
    let p = path.display().to_string();

    // set-shape: a usage error (exit 2), the axis counted from 0.
    let out = run(["set-shape", &p, "12,x"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(r#"axis 1 ("x") is not an integer"#),
        "{}",
        out.stderr
    );
    // show: --full-hex is JSON's; with --human it is refused, not ignored.
    let out = run(["show", "--human", "--full-hex", &p]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    // set-meta: the JSON, on the line of its path.
    let out = run(["set-meta", &p, "m", "{x"]);
    assert_line(&out, &path, "the new value is not JSON", "set-meta");
    let out = run(["set-vlmeta", &p, "m", "{x"]);
    assert_line(&out, &path, "the new value is not JSON", "set-vlmeta");
    // decode and encode: their argument, on the line of the command.
    let out = run(["decode", "9z"]);
    out.assert_one_error("b2nd-meta: decode: expected a hex digit (0-9, a-f), found 'z' at byte 1");
    let out = run(["encode", "{x"]);
    out.assert_one_error("b2nd-meta: encode: invalid JSON");
    assert_eq!(fs::read(&path).unwrap(), before);
}

/// `show -` shows a frame from stdin as `show PATH` does, named "-"; a non-frame on
/// stdin reads as one in a file does.
#[test]
fn show_dash_reads_stdin() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/user_meta.b2nd");
    let piped = |args: &[&str], input: &[u8]| {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for human in [false, true] {
        let mut args = vec!["show"];
        if human {
            args.push("--human");
        }
        let from_file = run(args.iter().copied().chain([path.to_str().unwrap()]));
        from_file.assert_ok();
        let (code, stdout, stderr) = piped(
            &[args.as_slice(), &["-"]].concat(),
            &fs::read(&path).unwrap(),
        );
        assert_eq!((code, stderr.as_str()), (Some(0), ""));
        assert_eq!(
            stdout,
            from_file.stdout.replace(path.to_str().unwrap(), "-")
        );
    }
    let (code, stdout, stderr) = piped(&["show", "-"], b"hello, not a frame\n");
    assert_eq!((code, stdout.as_str()), (Some(1), ""));
    assert!(
        stderr.starts_with("b2nd-meta: -: not a Blosc2 frame: "),
        "{stderr}"
    );
}

/// The pattern is listed where a user looks: `--help`, and README with the command's
/// reference it links (docs/cli.md), which holds the example lines.
#[test]
fn the_pattern_is_listed_in_help_and_readme() {
    let help = run(["--help"]);
    help.assert_ok();
    let read = |doc: &str| fs::read_to_string(format!("{}/{doc}", env!("CARGO_MANIFEST_DIR")));
    let readme = read("README.md").unwrap();
    assert!(readme.contains("b2nd-meta: <PATH as given>: <what>[ at byte N]"));
    assert!(readme.contains("](docs/cli.md)"));
    let docs = readme + &read("docs/cli.md").unwrap();
    for text in [&help.stdout, &docs] {
        for needle in [
            "b2nd-meta: <PATH as given>: <what>[ at byte N]",
            "cannot open: No such file or directory",
            "a directory without chunks.b2frame, so not a sparse frame",
            "cannot open for writing",
            "prints nothing",
        ] {
            assert!(text.contains(needle), "{needle:?}");
        }
    }
}
