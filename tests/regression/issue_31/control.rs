//! `show --human` printed store keys raw: ESC, BEL, NUL and newlines in zip member
//! names and EmbedStore map keys reached the terminal (JSON escaped them). The file:
//! a TreeStore whose names hold them (tests/data/regression/issue31.py).

#![cfg(feature = "cli")]

use super::run::b2nd_meta;
use crate::common::data_path;

const STORE: &str = "regression/issue31/keys_control.b2z";

/// Whether `text` holds a control character other than the newlines ending its lines.
fn has_control(text: &str) -> bool {
    text.lines().any(|l| l.chars().any(char::is_control))
}

#[test]
fn human_output_escapes_control_characters_in_keys_as_json_does() {
    let path = data_path(STORE);
    let run = b2nd_meta(&["show", "--human", path.to_str().unwrap()], &[]);
    run.within_bounds("keys with control characters, show --human", 0);
    let text = run.stdout();
    assert!(!has_control(&text), "{text:?}");
    // The store's line, then one per entry: no line faked by a newline in a key.
    assert_eq!(text.lines().count(), 1 + 7, "{text}");
    for shown in [
        r#""\u001b[2J\u001b]0;title\u0007clear""#,
        r#""bell\u0007"/"#,
        r#""fake\nb2nd-meta: line""#,
        r#""nul\u0000byte""#,
    ] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
    // JSON escapes them (one line per entry), as it did.
    let run = b2nd_meta(&["show", path.to_str().unwrap()], &[]);
    run.within_bounds("keys with control characters, show", 0);
    let json = run.stdout();
    assert_eq!(json.lines().count(), 1 + 7);
    assert!(!has_control(&json));
    assert!(json.contains(r#""key":"/ext/nul\u0000byte""#), "{json}");
}

#[test]
fn error_lines_escape_control_characters_too() {
    let path = data_path(STORE);
    let key = "/ext/fake\nb2nd-meta: line\x1b[2J";
    let run = b2nd_meta(&["show", path.to_str().unwrap(), "--key", key], &[]);
    run.within_bounds("an unknown key with control characters", 1);
    assert_eq!(run.stderr.lines().count(), 1, "{:?}", run.stderr);
    assert!(!has_control(&run.stderr), "{:?}", run.stderr);
}
