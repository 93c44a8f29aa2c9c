//! The folders served, and the one way a request's path becomes a file: a *key*
//! `K/relative/path` names a file under the K-th folder given (from 0). A key is refused
//! unless every part of its path is a plain name (no `..`, no root, no drive) and the file,
//! with every symbolic link resolved, is still inside that folder. Percent-encoding is decoded
//! once, by the query-string reader, before the key is looked at.

use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// Folders deeper than this below a served folder are not searched for runs.
const MAX_DEPTH: usize = 8;

/// At most this many entries are looked at when listing runs.
const MAX_ENTRIES: usize = 200_000;

/// The served folders, each in its canonical form.
#[derive(Debug, Clone)]
pub struct Site {
    roots: Vec<PathBuf>,
}

/// One run found: a games CSV with its settings sidecar beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEntry {
    /// Its key.
    pub key: String,
    /// Its path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// When it last changed.
    pub modified: Option<SystemTime>,
}

impl Site {
    /// The site serving `folders`; each must be a folder that exists. The error names the
    /// first that is not.
    pub fn new(folders: &[PathBuf]) -> crate::Result<Site> {
        let mut roots = Vec::with_capacity(folders.len());
        for f in folders {
            let canonical = f.canonicalize().map_err(|e| {
                crate::Error::setting(format!("{}: cannot serve it: {e}", f.display()))
            })?;
            if !canonical.is_dir() {
                return Err(crate::Error::setting(format!(
                    "{}: cannot serve it: not a folder",
                    f.display()
                )));
            }
            roots.push(canonical);
        }
        Ok(Site { roots })
    }

    /// The served folders.
    #[must_use]
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The file `key` names, if the key is well formed and the file is inside its folder.
    #[must_use]
    pub fn resolve(&self, key: &str) -> Option<PathBuf> {
        let (root, rel) = key.split_once('/')?;
        let root = self.roots.get(root.parse::<usize>().ok()?)?;
        let rel = Path::new(rel);
        let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
        if !plain || rel.as_os_str().is_empty() || key.contains(['\\', '\0']) {
            return None;
        }
        let file = root.join(rel).canonicalize().ok()?;
        (file.starts_with(root) && file.is_file()).then_some(file)
    }

    /// The games CSV `key` names: a served `.csv` file with its settings sidecar.
    #[must_use]
    pub fn run(&self, key: &str) -> Option<PathBuf> {
        let path = self.resolve(key)?;
        let sidecar = crate::records::sidecar::sidecar_path(&path);
        (path.extension()? == "csv" && sidecar.is_file()).then_some(path)
    }

    /// The SVG figure `key` names.
    #[must_use]
    pub fn figure(&self, key: &str) -> Option<PathBuf> {
        let path = self.resolve(key)?;
        (path.extension()? == "svg").then_some(path)
    }

    /// The key of `path`, a file inside a served folder.
    #[must_use]
    pub fn key_of(&self, path: &Path) -> Option<String> {
        self.roots.iter().enumerate().find_map(|(i, root)| {
            let rel = path.strip_prefix(root).ok()?;
            let parts: Option<Vec<&str>> = rel
                .components()
                .map(|c| match c {
                    Component::Normal(s) => s.to_str(),
                    _ => None,
                })
                .collect();
            Some(format!("{i}/{}", parts?.join("/")))
        })
    }

    /// Every run under the served folders, by key. Symbolic links are not followed, hidden
    /// folders and `target` are skipped.
    #[must_use]
    pub fn runs(&self) -> Vec<RunEntry> {
        let mut found = Vec::new();
        let mut seen = 0;
        for root in &self.roots {
            let mut stack = vec![(root.clone(), 0)];
            while let Some((dir, depth)) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for e in entries.flatten() {
                    seen += 1;
                    if seen > MAX_ENTRIES {
                        return found;
                    }
                    let (Ok(kind), name) = (e.file_type(), e.file_name()) else {
                        continue;
                    };
                    let name = name.to_string_lossy();
                    let path = e.path();
                    if kind.is_dir() && depth < MAX_DEPTH {
                        if !name.starts_with('.') && name != "target" {
                            stack.push((path, depth + 1));
                        }
                    } else if kind.is_file()
                        && name.ends_with(".csv")
                        && crate::records::sidecar::sidecar_path(&path).is_file()
                        && let Some(key) = self.key_of(&path)
                    {
                        let meta = e.metadata().ok();
                        found.push(RunEntry {
                            key,
                            bytes: meta.as_ref().map_or(0, std::fs::Metadata::len),
                            modified: meta.and_then(|m| m.modified().ok()),
                            path,
                        });
                    }
                }
            }
        }
        found.sort_by(|a, b| a.key.cmp(&b.key));
        found
    }

    /// The SVG figures in the folder of the run at `csv`, by key.
    #[must_use]
    pub fn figures_beside(&self, csv: &Path) -> Vec<String> {
        let Some(dir) = csv.parent() else {
            return Vec::new();
        };
        let mut keys: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "svg"))
            .filter_map(|p| self.key_of(&p))
            .collect();
        keys.sort();
        keys
    }

    /// The design report a run belongs to: `report.md` in its folder or the one above,
    /// inside the served folder.
    #[must_use]
    pub fn report_of(&self, csv: &Path) -> Option<PathBuf> {
        let dir = csv.parent()?;
        [Some(dir), dir.parent()]
            .into_iter()
            .flatten()
            .map(|d| d.join("report.md"))
            .find(|p| p.is_file() && self.key_of(p).is_some())
    }
}
