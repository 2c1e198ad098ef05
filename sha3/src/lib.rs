//! Work in progress.
#![no_std]
