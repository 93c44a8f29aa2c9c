//! The files a spec names: a net (`net=FILE`), shapes (`shapes=FILE`), a move-prior network
//! (`movenet=FILE`) and weights (`weights=FILE`), each read once, refused in one line when it
//! cannot be had, and named in a recorded spec by its content id where it has one.

use std::collections::BTreeMap;
use std::fmt;

use super::SpecError;

/// The net of an `eval=net` evaluation: read from a file, or the game's shipped one, and the
/// content id a recorded spec names it by (`net_id=`, the FNV-1a hash of its file,
/// [`crate::net::content_id`]).
#[derive(Debug, Clone)]
pub struct NetRef {
    /// The file it was read from (`None`: the game's shipped net).
    pub file: Option<String>,
    /// Its content id, once known (a file's at once; a shipped net's when a run records it).
    pub id: Option<u64>,
    /// The net read from the file.
    pub net: Option<std::sync::Arc<crate::net::Net>>,
}

impl PartialEq for NetRef {
    /// The same file and content (a net read from a file is known by its id).
    fn eq(&self, other: &NetRef) -> bool {
        self.file == other.file && self.id == other.id
    }
}

/// A shapes file read in place of the game's shipped shapes wherever the knowledge term
/// `shape` is read (`know.shape`, `prob.shape`, `roll.shape`): `shapes=FILE` as
/// `arena tune shapes` writes it, named in a recorded spec also by its content id
/// (`shapes_id=`, the FNV-1a hash of the file, as a net's), so a changed file is refused.
#[derive(Debug, Clone)]
pub struct ShapesRef {
    /// The file.
    pub file: String,
    /// Its content id, once read (or as a recorded spec names it).
    pub id: Option<u64>,
    /// The shapes' weights (`ln γ`) by key; `None` while unread (a recorded spec read where
    /// its file is not: it prints, but does not play).
    pub weights: Option<std::sync::Arc<ShapeWeights>>,
}

/// A shapes file's weights as a player reads them ([`ringside_engine::shapes::ShapeReader`]:
/// a move's wide shape where the file has it, else its shape, each in its context where the
/// file was fitted in context).
#[derive(Debug)]
pub struct ShapeWeights(ringside_engine::shapes::ShapeReader);

impl ShapeWeights {
    /// The weights of a shapes file, as [`ringside_engine::shapes::parse_shape_weights`]
    /// returns them (sorted by key).
    #[must_use]
    pub fn new(sorted: &[(u64, f32)]) -> Self {
        ShapeWeights(ringside_engine::shapes::ShapeReader::new(sorted))
    }
}

impl PartialEq for ShapesRef {
    /// The same file and content.
    fn eq(&self, other: &ShapesRef) -> bool {
        self.file == other.file && self.id == other.id
    }
}

impl ShapesRef {
    /// The weight the file gives `mv` at `state`
    /// ([`ringside_engine::shapes::ShapeReader::weight`]); 0, the average candidate, for a
    /// move whose shapes the file lacks.
    pub fn weight<G: ringside_engine::Features>(&self, state: &G, mv: G::Move) -> f64 {
        (self.weights.as_ref())
            .and_then(|w| w.0.weight(state, mv))
            .map_or(0.0, f64::from)
    }
}

/// A network a spec names by file (`movenet=FILE`, `pv=FILE`), named in a recorded spec also
/// by its content id (`movenet_id=`, `pv_id=`: the FNV-1a hash of the file), so a changed
/// file is refused.
#[derive(Debug, Clone)]
pub struct NetFileRef<T> {
    /// The file.
    pub file: String,
    /// Its content id, once read (or as a recorded spec names it).
    pub id: Option<u64>,
    /// The network; `None` while unread (a recorded spec read where its file is not: it
    /// prints, but does not play).
    pub net: Option<std::sync::Arc<T>>,
}

impl<T> PartialEq for NetFileRef<T> {
    /// The same file and content.
    fn eq(&self, other: &NetFileRef<T>) -> bool {
        self.file == other.file && self.id == other.id
    }
}

/// A move-prior network (`movenet=FILE`, as `tools/policy_net.py` writes it).
pub type MoveNetRef = NetFileRef<crate::movenet::MoveNet>;

/// A policy-value network (`pv=FILE`, as `ringside.zero` writes it).
pub type PvNetRef = NetFileRef<crate::pvnet::PvNet>;

/// The bytes of the regular file at `path`: a FIFO, a device or a folder is refused before it
/// is opened (opening a FIFO waits for a writer, for ever).
pub fn read_regular_file(path: &str) -> std::io::Result<Vec<u8>> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, a device or a folder)",
        ));
    }
    std::fs::read(path)
}

/// The bytes of a file a spec names (`net=FILE`, `shapes=FILE`, `movenet=FILE`) and their
/// content id (the FNV-1a hash, [`crate::net::content_id`]), checked against the id the spec
/// records (`id`); `None` when the file is not here but the spec names it by content, so a
/// recorded spec read elsewhere (another folder, a clone without the file) still parses.
/// `refused` words an error; `what` names the file's kind in it.
pub(super) fn read_named(
    path: &str,
    id: Option<u64>,
    what: &str,
    refused: impl Fn(String) -> SpecError,
) -> Result<Option<(Vec<u8>, u64)>, SpecError> {
    let bytes = match read_regular_file(path) {
        Ok(bytes) => bytes,
        Err(_) if id.is_some() => return Ok(None),
        Err(e) => return Err(refused(e.to_string())),
    };
    let found = crate::net::content_id(&bytes);
    if let Some(id) = id.filter(|&id| id != found) {
        return Err(refused(format!(
            "its content is {found:016x}, not {id:016x}, the {what} this spec names (the file changed since)"
        )));
    }
    Ok(Some((bytes, found)))
}

/// Where a `weights=FILE` option's weights come from: the disk ([`read_weights`]) or a
/// run's record.
pub type WeightsSource<'a> = &'a dyn Fn(&str) -> Result<BTreeMap<String, f64>, WeightsError>;

/// Why the weights of a `weights=FILE` cannot be had.
#[derive(Debug, Clone, PartialEq)]
pub enum WeightsError {
    /// The file cannot be read (the system's reason).
    Unreadable(String),
    /// The file is not one JSON object of names and numbers (the parser's reason).
    NotJson(String),
    /// A weight is not a finite number.
    NotFinite {
        /// The feature.
        name: String,
        /// Its weight.
        weight: f64,
    },
    /// A run's record holds no weights for the file (a record read without the weights it
    /// was written with).
    NotRecorded,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Unreadable(reason) => f.write_str(reason),
            WeightsError::NotJson(reason) => write!(
                f,
                "expected a JSON object of feature names and numbers ({reason})"
            ),
            WeightsError::NotFinite { name, weight } => {
                write!(f, "weight '{name}' is {weight}, not a finite number")
            }
            WeightsError::NotRecorded => f.write_str("no weights recorded for it"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Reads a weights file: one JSON object of feature names and finite numbers, like
/// `{"material": 1.0, "immune": 0.5}`.
pub fn read_weights(path: &str) -> Result<BTreeMap<String, f64>, WeightsError> {
    let bytes = read_regular_file(path).map_err(|e| WeightsError::Unreadable(e.to_string()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| WeightsError::Unreadable("not UTF-8 text".to_string()))?;
    let weights = serde_json::from_str::<BTreeMap<String, f64>>(&text)
        .map_err(|e| WeightsError::NotJson(e.to_string()))?;
    match weights.iter().find(|(_, w)| !w.is_finite()) {
        Some((name, &weight)) => Err(WeightsError::NotFinite {
            name: name.clone(),
            weight,
        }),
        None => Ok(weights),
    }
}
