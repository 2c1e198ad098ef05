//! Known-answer test runner for the vector files under each crate's
//! `tests/data/` (written by `cargo xtask kat`).
