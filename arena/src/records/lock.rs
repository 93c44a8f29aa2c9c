//! One writer per output. A process that writes a file (a run's games CSV, a tuning record, a
//! merged file) first takes an exclusive OS advisory lock on it (`flock` on Unix,
//! `LockFileEx` on Windows, through the `fs4` crate) and holds it until it is done. A second
//! writer is refused at once with [`ErrorKind::Busy`], naming the file, instead of appending
//! beside the first. The OS drops the lock with the process, so a killed run leaves nothing
//! behind that blocks the next. Readers (`summary`, `replay`) take no lock and keep working
//! while a run writes.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use fs4::TryLockError;

use crate::error::{Error, ErrorKind, Result};

/// An exclusive lock on an output file, held until it is dropped.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
    path: PathBuf,
}

impl OutputLock {
    /// Locks `path` for writing, creating it empty if it does not exist (its content is never
    /// changed here). Refuses with [`ErrorKind::Busy`] if another process holds the lock.
    pub fn take(path: &Path) -> Result<OutputLock> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io("open", path, &e))?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(OutputLock {
                _file: file,
                path: path.to_path_buf(),
            }),
            Err(TryLockError::WouldBlock) => Err(Error::new(
                ErrorKind::Busy,
                format!(
                    "{} is being written by another process; wait for it to finish, or write to another file",
                    path.display()
                ),
            )),
            Err(TryLockError::Error(e)) => Err(Error::io("lock", path, &e)),
        }
    }

    /// The locked file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_file_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("ringside-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        std::fs::write(&path, "kept\n").unwrap();
        let first = OutputLock::take(&path).unwrap();
        let second = OutputLock::take(&path).unwrap_err();
        assert_eq!(second.kind, ErrorKind::Busy);
        assert!(second.message.contains("being written by another process"));
        drop(first);
        let again = OutputLock::take(&path).unwrap();
        assert_eq!(again.path(), path);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "kept\n",
            "content untouched"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
