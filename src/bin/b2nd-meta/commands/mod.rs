//! One module per subcommand; each returns whether all it was given went well, having
//! said on stderr what did not.

pub mod completions;
pub mod decode;
pub mod edit;
pub mod encode;
pub mod export;
pub mod import;
pub mod open;
pub mod scan;
pub mod set_meta;
pub mod set_shape;
pub mod set_vlmeta;
pub mod show;
pub mod show_store;
pub mod show_values;
pub mod stdin;
pub mod store;
