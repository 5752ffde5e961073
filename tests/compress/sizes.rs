//! Sizes against C.
