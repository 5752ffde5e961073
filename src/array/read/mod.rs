//! Reading an array's values: [`Array`](super::Array)'s read methods (`access`), the
//! decoding of the chunks a selection touches on threads (`reader`), and where their
//! elements land (`sink`: raw bytes or a Rust type). Where each element sits, which
//! chunks and blocks hold it, and how the chunks are cut for threads are the
//! [`geometry`](super::geometry)'s; this module adds the I/O, decoding and threads.

mod access;
mod reader;
mod sink;
