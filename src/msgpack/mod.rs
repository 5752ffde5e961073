//! The byte layer: the one reader ([`read`]) and the one writer ([`wire`]) of the
//! msgpack values this crate meets, over the marker table of [`crate::marker`]. Nothing
//! here knows about serde; every read error carries the offset of the offending value.

pub(crate) mod read;
pub(crate) mod wire;
