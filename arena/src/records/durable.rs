//! Writes that survive a kill at any moment: a whole file is written beside its target under
//! a temporary name, synced, then renamed into place, so a reader sees either the old file (or
//! none) or the complete new one.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The temporary name `path` is written under before the rename: hidden, in the same folder
/// (a rename within one file system is atomic), and naming the process so that two writers
/// never share it.
#[must_use]
pub fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.partial", std::process::id()))
}

/// Writes `bytes` to `path` by write-then-rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, |file| file.write_all(bytes))
}

/// Fills a temporary file with `fill`, syncs it and renames it to `path`. If `fill` or any
/// step fails, the temporary file is removed and `path` is untouched.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut File) -> std::io::Result<()>) -> Result<()> {
    let temporary = temporary_path(path);
    let result = (|| {
        let mut file = File::create(&temporary)?;
        fill(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        Error::io("write", path, &e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_fill_leaves_neither_the_target_nor_the_temporary_file() {
        let dir = std::env::temp_dir().join(format!("ringside-durable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.csv");
        let _ = std::fs::remove_file(&target);
        let err = write_with(&target, |file| {
            file.write_all(b"id\n0\n")?;
            Err(std::io::Error::other("killed"))
        })
        .unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::Io);
        assert!(!target.exists());
        assert!(!temporary_path(&target).exists());
        write_atomically(&target, b"whole\n").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"whole\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
