//! Arrays: (so far) the choices python-blosc2 makes when it writes a new one.

pub mod write;
