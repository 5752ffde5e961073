//! What the published crate holds: the crate root opens with the README's first example,
//! every file a doctest or unit test reads ships with it (Cargo.toml's `include`), and
//! the manifest says where the crate lives. `cargo package` and `cargo test` in the
//! unpacked crate are the full check (README, "Publishing").

use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(ROOT).join(path)).unwrap()
}

/// The code blocks of a markdown text whose opening fence is `fence` (e.g. "```rust").
fn code_blocks<'a>(text: &'a str, fence: &str) -> Vec<&'a str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&format!("{fence}\n")) {
        let body = &rest[at + fence.len() + 1..];
        let end = body.find("```\n").unwrap();
        blocks.push(&body[..end]);
        rest = &body[end + 4..];
    }
    blocks
}

/// The crate docs of lib.rs (its `//!` lines), as markdown.
fn crate_docs() -> String {
    read("src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn the_crate_root_opens_with_the_readmes_first_example() {
    let docs = crate_docs();
    let readme = read("README.md");
    let first_in_docs = code_blocks(&docs, "```")[0];
    let first_in_readme = code_blocks(&readme, "```rust")[0];
    assert_eq!(first_in_docs, first_in_readme);
    // It opens a file and reads metadata and values.
    for step in [
        "Array::open(",
        "array.shape()",
        "array.dtype()",
        "array.read(",
    ] {
        assert!(first_in_docs.contains(step), "{step}");
    }
    // Nothing but a sentence comes before it.
    let before = &docs[..docs.find("```").unwrap()];
    assert!(before.lines().count() < 10, "{before}");
}

/// Every `tests/data/...` file named in the library's sources (doctests, unit tests)
/// and in the README's Rust examples.
fn files_the_docs_read() -> Vec<String> {
    fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                // The binary's help names paths a user has; its tests are not packaged.
                if !path.ends_with("bin") {
                    rust_files(&path, found);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    let mut sources = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut sources);
    let mut texts: Vec<String> = sources
        .iter()
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    let readme = read("README.md");
    texts.extend(
        code_blocks(&readme, "```rust")
            .into_iter()
            .map(str::to_owned),
    );
    let mut files = Vec::new();
    for text in &texts {
        for (at, _) in text.match_indices("tests/data/") {
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "_./-".contains(*c))
                .collect();
            // A file, or a sparse frame's directory; not a directory named in passing.
            let full = Path::new(ROOT).join(&path);
            if full.is_file() || full.join("chunks.b2frame").is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files.dedup();
    files
}

/// Cargo.toml's `include` patterns.
fn included() -> Vec<String> {
    let manifest = read("Cargo.toml");
    let list = &manifest[manifest.find("\ninclude = [").unwrap()..];
    let list = &list[..list.find(']').unwrap()];
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_file_the_docs_read_ships_with_the_crate() {
    let included = included();
    let files = files_the_docs_read();
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let whole = format!("/{file}");
        let under = format!("/{file}/**");
        assert!(
            included.contains(&whole) || included.contains(&under),
            "{file} is read by a doctest or unit test: add \"{whole}\" to Cargo.toml's include"
        );
    }
    // And nothing else of tests/data: the crate stays small.
    for pattern in included.iter().filter(|p| p.starts_with("/tests/data/")) {
        let file = pattern.trim_start_matches('/').trim_end_matches("/**");
        assert!(
            files.iter().any(|f| f == file),
            "{pattern} is read by no doctest"
        );
    }
}

#[test]
fn the_manifest_and_readme_say_where_the_crate_lives() {
    let manifest = read("Cargo.toml");
    let repository = "https://github.com/b2nd-meta/b2nd-meta";
    assert!(manifest.contains(&format!("repository = \"{repository}\"")));
    assert!(manifest.contains("[package.metadata.docs.rs]\n"));
    let readme = read("README.md");
    // Until it is published: a git (or path) dependency, not crates.io's.
    assert!(readme.contains(&format!("b2nd-meta = {{ git = \"{repository}\" }}")));
    assert!(readme.contains("b2nd-meta = { path = "));
}
