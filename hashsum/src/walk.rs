//! `-r`: the files under a directory, in the order `hashsum` reports them.

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::engine::Source;

/// `-r`: the regular files under `dir`, depth first, each directory's
/// entries sorted by name (bytewise). Symbolic links to files are
/// hashed; links to directories are not followed (no cycles). An
/// unreadable directory becomes an error in its place; a FIFO, socket
/// or device (reading could block or never end) is reported in its
/// place and skipped.
pub(crate) fn walk(dir: &Path, name: Vec<u8>, names: &mut Vec<Vec<u8>>, sources: &mut Vec<Source>) {
    use std::os::unix::fs::FileTypeExt;
    let fail = |e: io::Error| Source::Failed(e.raw_os_error().unwrap_or(0));
    // Names and types only: a `DirEntry` keeps its directory's
    // descriptor open, which would hold one per level while walking.
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd.map(|e| e.map(|e| (e.file_name(), e.path(), e.file_type()))).collect(),
        Err(e) => Err(e),
    };
    let mut entries: Vec<_> = match entries {
        Ok(entries) => entries,
        Err(e) => {
            names.push(name);
            sources.push(fail(e));
            return;
        }
    };
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (file_name, path, file_type) in entries {
        let mut child = name.clone();
        if !child.ends_with(b"/") {
            child.push(b'/');
        }
        child.extend_from_slice(file_name.as_bytes());
        let kind = match file_type {
            Ok(t) if t.is_symlink() => match fs::metadata(&path) {
                Ok(m) if m.is_dir() => continue,
                Ok(m) => m.file_type(),
                // A dangling link: opening it says why.
                Err(_) => t,
            },
            Ok(t) => t,
            Err(e) => {
                names.push(child);
                sources.push(fail(e));
                continue;
            }
        };
        let skipped = |what| Source::Skipped(what);
        let source = if kind.is_dir() {
            walk(&path, child, names, sources);
            continue;
        } else if kind.is_fifo() {
            skipped("FIFO")
        } else if kind.is_socket() {
            skipped("socket")
        } else if kind.is_char_device() {
            skipped("character device")
        } else if kind.is_block_device() {
            skipped("block device")
        } else {
            Source::Path(path)
        };
        names.push(child);
        sources.push(source);
    }
}
