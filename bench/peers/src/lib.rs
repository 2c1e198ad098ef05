//! The peer implementations for the speed comparison (OpenSSL, `ring`,
//! RustCrypto's two lines), as `bench::Subject`s beside our own.
//!
//! Used by the `peers` program (which `cargo xtask bench` drives) and by the
//! criterion benches of this package
//! (`cargo bench --manifest-path bench/peers/Cargo.toml`).

#[cfg(feature = "openssl")]
mod openssl;
pub mod peers;
