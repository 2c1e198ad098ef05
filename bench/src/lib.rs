//! Benchmarks of the hashes crates (see `benches/`).
