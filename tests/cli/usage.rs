//! Help, usage errors (exit status 2) and a closed stdout.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::{data_path, manifest};
use crate::{assert_no_panic, run, BIN};

#[test]
fn help_documents_every_command_with_an_example() {
    let out = run(["--help"]);
    out.assert_ok();
    let help = &out.stdout;
    for command in ["show", "decode", "encode", "--human"] {
        assert!(help.contains(command), "{command} not in {help}");
    }
    for example in [
        "b2nd-meta show tests/data/corpus/ndim2_i4.b2nd",
        "b2nd-meta show --human ",
        "b2nd-meta decode 97000090909000db000000033c6934",
        "b2nd-meta encode '{",
    ] {
        assert!(help.contains(example), "{example} not in {help}");
    }
    for command in ["show", "decode", "encode"] {
        let sub = run([command, "--help"]);
        sub.assert_ok();
        assert!(
            sub.stdout.contains(&format!("b2nd-meta {command} ")),
            "no example in {command} --help: {}",
            sub.stdout
        );
    }
    let version = run(["--version"]);
    version.assert_ok();
    assert_eq!(
        version.stdout,
        format!("b2nd-meta {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Splits an example line from the help into arguments: words, and one '...' quote.
fn example_args(line: &str) -> Vec<String> {
    let rest = line.trim().strip_prefix("b2nd-meta ").unwrap();
    match rest.split_once('\'') {
        Some((words, quoted)) => {
            let mut args: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
            args.push(quoted.strip_suffix('\'').unwrap().to_owned());
            args
        }
        None => rest.split_whitespace().map(str::to_owned).collect(),
    }
}

#[test]
fn the_examples_in_the_help_work() {
    let help = run(["--help"]).stdout;
    let examples: Vec<&str> = help
        .lines()
        .filter(|l| l.trim_start().starts_with("b2nd-meta "))
        .collect();
    assert_eq!(examples.len(), 4, "{help}");
    for line in examples {
        let out = run(example_args(line));
        out.assert_ok();
        assert!(!out.stdout.is_empty(), "{line}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["show"][..],
        &["decode"],
        &["encode"],
        &["frobnicate"],
        &[],
        &["show", "--bogus", "x"],
    ] {
        let out = run(args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert_no_panic(&out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    // Far more output than a pipe buffers, so the writes must meet the closed pipe.
    let manifest = manifest();
    let paths: Vec<PathBuf> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| data_path(f["path"].as_str().unwrap()))
        .collect();
    for human in [false, true] {
        let mut args: Vec<&OsStr> = vec![OsStr::new("show")];
        if human {
            args.push(OsStr::new("--human"));
        }
        for _ in 0..40 {
            args.extend(paths.iter().map(|p| p.as_os_str()));
        }
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_no_panic(&stderr);
        assert_ne!(out.status.code(), Some(101), "{stderr}");
        assert_eq!(stderr, "", "human {human}");
    }
}
