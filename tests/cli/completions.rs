//! `completions SHELL`: clap_complete's script for each shell, naming every command.

use crate::run;

#[test]
fn each_shell_gets_a_script_naming_every_command() {
    let commands = [
        "show",
        "decode",
        "encode",
        "set-shape",
        "set-meta",
        "set-vlmeta",
        "del-vlmeta",
        "export",
        "completions",
    ];
    for (shell, marker) in [
        ("bash", "complete -F _b2nd__meta"),
        ("zsh", "#compdef b2nd-meta"),
        ("fish", "complete -c b2nd-meta"),
        ("elvish", "edit:completion:arg-completer[b2nd-meta]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = run(["completions", shell]);
        out.assert_ok();
        assert!(out.stdout.contains(marker), "{shell}: no {marker:?}");
        for command in commands {
            assert!(out.stdout.contains(command), "{shell}: no {command}");
        }
        // show's options too.
        assert!(out.stdout.contains("recursive"), "{shell}");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let out = run(["completions", "cmd.exe"]);
    assert_eq!(out.code, Some(2));
    assert!(out
        .stderr
        .contains("[possible values: bash, elvish, fish, powershell, zsh]"));
    assert_eq!(out.stdout, "");
}
