//! `cargo xtask kat`.

/// Run `cargo xtask kat` with the arguments after the command name.
pub(crate) fn run(_args: &[String]) -> Result<(), String> {
    Err("`cargo xtask kat` is being written (see the issue tracker)".to_string())
}
