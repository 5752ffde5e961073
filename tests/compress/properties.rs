//! Random inputs and parameters.
