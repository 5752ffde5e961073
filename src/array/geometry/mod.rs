//! The geometry of a selection over an array's chunks and blocks: pure arithmetic, no
//! I/O, no decoding. Reading ([`read`](super::read)) and writing ([`write`](super::write))
//! both work from it; it imports nothing of either.
//!
//! - `selection`, `parse`: [`Selection`] and [`Index`], numpy's basic indexing, built in
//!   Rust or parsed from python's text, before it meets a shape.
//! - `resolve`: a selection met with a shape, per axis the positions taken
//!   (`AxisRange`), and where each lands in the result in C order.
//! - `grid`: C-Blosc2's b2nd layout, the one place it is computed: chunks and blocks
//!   per axis, where a position sits in its chunk, the chunks a selection touches.
//! - `stretch`: a chunk as stretches of the array's elements in C order (what a write
//!   gathers from its input).
//! - `plan`: for one chunk, where each position taken sits in the chunk and in the
//!   result (merged into runs), and which blocks hold them ([`Touched`]).
//! - `pieces`: the chunks a selection touches cut into runs of blocks, sized for a
//!   number of threads, and the result cut into regions no two of them share.
//! - `rows`: a selection cut along one axis where that axis crosses a block.

mod grid;
mod parse;
mod pieces;
mod plan;
mod resolve;
mod rows;
mod selection;
mod stretch;

pub(crate) use grid::{each_chunk, Grid, Span};
pub(crate) use pieces::{Piece, Pieces};
pub use plan::Touched;
pub(crate) use plan::{touched, ChunkPlan};
pub(crate) use resolve::{resolve, Resolved};
pub use selection::{Index, Selection};

#[cfg(test)]
mod tests;
