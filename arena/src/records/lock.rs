//! One writer per output. A process that writes a file (a run's games CSV, a tuning record, a
//! merged file) first takes an exclusive OS advisory lock on it (`flock` on Unix,
//! `LockFileEx` on Windows, through the `fs4` crate) and holds it until it is done. A second
//! writer is refused at once with [`ErrorKind::Busy`], naming the file, instead of appending
//! beside the first. The OS drops the lock with the process, so a killed run leaves nothing
//! behind that blocks the next. Readers (`summary`, `replay`) take no lock and keep working
//! while a run writes.
//!
//! A merge writes its output by write-then-rename, so the output's own inode is replaced; it
//! locks what stays put instead: the output's folder ([`OutputLock::folder`], on Unix), and the
//! output itself if it exists. It reads its inputs under shared locks ([`InputLock`]), so a
//! shard still being played is refused rather than merged half-written.

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
        Self::lock(file, path, || {
            format!(
                "{} is being written by another process; wait for it to finish, or write to another file",
                path.display()
            )
        })
    }

    /// Locks the existing file `path` for writing, as [`OutputLock::take`] does, or returns
    /// `None` if there is no such file (nothing is created).
    pub fn take_existing(path: &Path) -> Result<Option<OutputLock>> {
        match OpenOptions::new().append(true).open(path) {
            Ok(file) => Self::lock(file, path, || {
                format!(
                    "{} is being written by another process; wait for it to finish, or write to another file",
                    path.display()
                )
            })
            .map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("open", path, &e)),
        }
    }

    /// Locks the folder `dir` for a writer that replaces a file in it by write-then-rename (a
    /// merge), so that two such writers into one folder are refused. A no-op returning `None`
    /// where folders cannot be opened as files (Windows).
    pub fn folder(dir: &Path) -> Result<Option<OutputLock>> {
        if cfg!(unix) {
            let file = File::open(dir).map_err(|e| Error::io("open", dir, &e))?;
            Self::lock(file, dir, || {
                format!(
                    "another merge is writing into {}; wait for it to finish",
                    dir.display()
                )
            })
            .map(Some)
        } else {
            Ok(None)
        }
    }

    fn lock(file: File, path: &Path, busy: impl FnOnce() -> String) -> Result<OutputLock> {
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(OutputLock {
                _file: file,
                path: path.to_path_buf(),
            }),
            Err(TryLockError::WouldBlock) => Err(Error::new(ErrorKind::Busy, busy())),
            Err(TryLockError::Error(e)) => Err(Error::io("lock", path, &e)),
        }
    }

    /// The locked file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A shared lock on an input file, held while it is read by a process that must not read it
/// half-written (a merge). Many readers may hold it at once; no writer can while it is held.
#[derive(Debug)]
pub struct InputLock {
    _file: File,
}

impl InputLock {
    /// Takes a shared lock on `path`, refusing with [`ErrorKind::Busy`] if a writer holds it.
    pub fn take(path: &Path) -> Result<InputLock> {
        let file = File::open(path).map_err(|e| Error::io("open", path, &e))?;
        match fs4::FileExt::try_lock_shared(&file) {
            Ok(()) => Ok(InputLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(Error::new(
                ErrorKind::Busy,
                format!(
                    "{} is still being written by another process; merge it when that run has finished",
                    path.display()
                ),
            )),
            Err(TryLockError::Error(e)) => Err(Error::io("lock", path, &e)),
        }
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

    #[test]
    fn shared_input_locks_and_folder_locks_exclude_writers_of_their_kind() {
        let dir = std::env::temp_dir().join(format!("ringside-lock-in-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.csv");
        assert!(OutputLock::take_existing(&path).unwrap().is_none());
        assert!(!path.exists(), "take_existing creates nothing");
        std::fs::write(&path, "x\n").unwrap();
        let reading = InputLock::take(&path).unwrap();
        let also_reading = InputLock::take(&path).unwrap();
        let writer = OutputLock::take_existing(&path).unwrap_err();
        assert_eq!(writer.kind, ErrorKind::Busy);
        drop((reading, also_reading));
        let writing = OutputLock::take(&path).unwrap();
        assert_eq!(InputLock::take(&path).unwrap_err().kind, ErrorKind::Busy);
        drop(writing);
        if cfg!(unix) {
            let folder = OutputLock::folder(&dir).unwrap();
            assert!(folder.is_some());
            let second = OutputLock::folder(&dir).unwrap_err();
            assert!(second.message.contains("another merge is writing into"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
