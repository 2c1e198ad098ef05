//! `cargo xtask bench`.

/// Run `cargo xtask bench` with the arguments after the command name.
pub(crate) fn run(_args: &[String]) -> Result<(), String> {
    Err("`cargo xtask bench` is being written (see the issue tracker)".to_string())
}
