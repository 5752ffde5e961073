//! How the command shows things: the report `show` prints about a frame ([`report`]),
//! its summary for a terminal ([`human`]), a store's listing ([`listing`]), an array's
//! values ([`values`], floats laid out as numpy does by [`float_layout`]), and the one
//! voice of its error messages ([`messages`]).

pub mod float_layout;
pub mod human;
pub mod listing;
pub mod messages;
pub mod report;
pub mod values;

/// `1 chunk`, `2 chunks`: a count and its noun, singular for one.
pub fn count(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
