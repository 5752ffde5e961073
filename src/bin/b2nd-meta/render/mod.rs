//! How the command shows things: the report `show` prints about a frame ([`report`]),
//! its summary for a terminal ([`human`]), a store's listing ([`listing`]), and the
//! one voice of its error messages ([`messages`]).

pub mod human;
pub mod listing;
pub mod messages;
pub mod report;
