//! Help, usage errors (exit status 2) and a closed stdout.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::{data_path, manifest};
use crate::user_files::UserFiles;
use crate::{assert_no_panic, run, BIN};

const COMMANDS: [&str; 13] = [
    "show",
    "write",
    "resize",
    "append",
    "decode",
    "encode",
    "set-shape",
    "set-meta",
    "set-vlmeta",
    "del-vlmeta",
    "export",
    "import",
    "completions",
];

#[test]
fn help_documents_every_command_with_an_example() {
    let out = run(["--help"]);
    out.assert_ok();
    let help = &out.stdout;
    for command in COMMANDS {
        assert!(help.contains(command), "{command} not in {help}");
    }
    for example in [
        "b2nd-meta show array.b2nd",
        "b2nd-meta show -r data/",
        "b2nd-meta decode 97000090909000db000000033c6934",
        "b2nd-meta encode '{",
        "b2nd-meta completions bash",
    ] {
        assert!(help.contains(example), "{example} not in {help}");
    }
    for command in COMMANDS {
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

/// `-h` fits a 24-line terminal; `--help` keeps the detail.
#[test]
fn short_help_fits_a_screen_and_long_help_has_the_detail() {
    for command in std::iter::once("").chain(COMMANDS) {
        let args = |flag| [command, flag].into_iter().filter(|a| !a.is_empty());
        let short = run(args("-h"));
        short.assert_ok();
        assert!(
            short.stdout.lines().count() <= 24,
            "{command} -h:\n{}",
            short.stdout
        );
        let long = run(args("--help"));
        long.assert_ok();
        assert!(long.stdout.len() > short.stdout.len(), "{command}");
    }
    let top = run(["-h"]).stdout;
    assert!(top.contains("b2nd-meta show -r data/"), "{top}");
    let show = run(["show", "--help"]).stdout;
    for detail in [
        "\"raw_hex\"",
        "-r (--recursive)",
        "B2ND_META_PROGRESS_AFTER",
        "--key KEY",
    ] {
        assert!(show.contains(detail), "{detail} not in show --help");
    }
    // The top-level help says what show takes: every kind it lists.
    assert!(top.contains("show         Show what Blosc2 files hold: frames, stores, bundles, directories of them"), "{top}");
}

/// The examples name a user's files (array.b2nd, data/), not this repository's.
#[test]
fn no_help_names_the_repositorys_test_data() {
    for command in std::iter::once("").chain(COMMANDS) {
        for flag in ["-h", "--help"] {
            let args = [command, flag].into_iter().filter(|a| !a.is_empty());
            let out = run(args);
            assert!(
                !out.stdout.contains("tests/data"),
                "{command} {flag}:\n{}",
                out.stdout
            );
        }
    }
}

/// An example line's arguments: its words, one '...' quote kept whole, without the
/// description after two spaces (`-h`'s examples) or a `> FILE` redirection.
fn example_args(line: &str) -> Vec<String> {
    let mut rest = line.trim().strip_prefix("b2nd-meta ").unwrap();
    if !rest.contains('\'') {
        rest = rest.split("  ").next().unwrap();
    }
    rest = rest.split(" > ").next().unwrap();
    match rest.split_once('\'') {
        Some((words, quoted)) => {
            let mut args: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
            args.push(quoted.strip_suffix('\'').unwrap().to_owned());
            args
        }
        None => rest.split_whitespace().map(str::to_owned).collect(),
    }
}

/// Every example of `-h`, `--help` and `show --help`, run where a user's files have the
/// names they use.
#[test]
fn the_examples_in_the_help_work() {
    let user = UserFiles::new("examples");
    let mut examples = Vec::new();
    for args in [&["-h"][..], &["--help"], &["show", "--help"]] {
        let help = run(args).stdout;
        examples.extend(
            help.lines()
                .filter(|l| l.trim_start().starts_with("b2nd-meta "))
                .map(str::to_owned),
        );
    }
    assert!(examples.len() >= 12, "{examples:?}");
    for line in examples {
        let args = example_args(&line);
        // A second example writing the same name would be refused (no --force).
        if args[0] == "import" {
            let _ = std::fs::remove_file(user.0.join(&args[2]));
        }
        if let Some(at) = args.iter().position(|a| a == "-o") {
            let _ = std::fs::remove_file(user.0.join(&args[at + 1]));
        }
        let out = user.run(&args);
        out.assert_ok();
        match args.iter().position(|a| a == "-o") {
            // export -o FILE writes the file, and nothing on stdout.
            Some(at) => assert!(user.0.join(&args[at + 1]).is_file(), "{line}"),
            // import IN OUT writes OUT, and nothing on stdout.
            None if args[0] == "import" => {
                assert!(user.0.join(&args[2]).is_file(), "{line}");
                assert_eq!(out.stdout, "", "{line}");
            }
            None => assert!(!out.stdout.is_empty(), "{line}"),
        }
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
