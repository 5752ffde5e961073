//! The array a command reads (`export`, `show --slice`): PATH itself, or the node KEY of
//! the store or bundle PATH holds (a key given without its leading `/` finds the node
//! that has one); when PATH holds something else than an array, what it holds and what
//! to give instead.

use std::path::Path;

use b2nd_meta::array::Array;
use b2nd_meta::container::{self, Kind, Role};

use super::export::message;
use super::show_store;
use crate::render::messages;

/// The keys named in the message for a store given without `--key`.
const KEYS_NAMED: usize = 3;

/// The array at `path` (its node `key`, when given); else the message for `context`.
pub fn array(path: &Path, key: Option<&str>, context: &str) -> Result<Array, String> {
    let source = crate::output::source(path);
    let Some(key) = key else {
        return Array::open(source).map_err(|e| {
            messages::not_a_frame(path)
                .or_else(|| store_without_key(path))
                .unwrap_or_else(|| message(path, context, e))
        });
    };
    let store = container::open(source).map_err(|e| message(path, context, e.into()))?;
    Array::open_node(&store, &show_store::node_key(&store, key))
        .map_err(|e| message(path, context, e))
}

/// When `path` is a store or bundle: what it is, and some of the keys of its arrays
/// (NDArrays) `--key` takes.
fn store_without_key(path: &Path) -> Option<String> {
    let c = container::open(crate::output::source(path)).ok()?;
    if !show_store::is_store(&c.kind) {
        return None;
    }
    let keys: Vec<&str> = c
        .entries()
        .iter()
        .filter(|e| e.role == Role::Leaf)
        .filter(|e| c.entry_info(e).is_ok_and(|i| i.kind == Kind::NDArray))
        .map(|e| e.key.as_str())
        .collect();
    let kind = c.kind.name();
    let article = match kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
        true => "an",
        false => "a",
    };
    if keys.is_empty() {
        return Some(format!("{article} {kind} holding no arrays, not an array"));
    }
    let more = match keys.len().saturating_sub(KEYS_NAMED) {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    let named = keys[..keys.len().min(KEYS_NAMED)].join(", ");
    Some(format!(
        "{article} {kind}, not an array: give --key, one of {named}{more}"
    ))
}
