//! The shard of a Slurm array task, stable across resubmissions.
//!
//! Slurm numbers the tasks of one submission: `sbatch --array=1-8` sets, in each task,
//! `SLURM_ARRAY_TASK_ID` (1 to 8), `SLURM_ARRAY_TASK_MIN=1`, `SLURM_ARRAY_TASK_MAX=8` and
//! `SLURM_ARRAY_TASK_COUNT=8`. Resubmitting one task (`sbatch --array=3`) makes a new array of
//! one task: ID 3, MIN 3, MAX 3, COUNT 1. From the variables alone that task is shard 1 of 1
//! ([`shard_of_array`]), not shard 3 of 8. This module is the one place Slurm's variables are
//! read.
//!
//! So the first submission's layout is written down in an [`ArrayRecord`] beside the run's
//! shards, and every later task reads its shard from the record: task ID `k` of a record
//! starting at `min` with `count` tasks is shard `k − min + 1` of `count`, whatever array the
//! task came in. A resubmission must stay inside the recorded range (`--array=3`,
//! `--array=2-4` or the whole `--array=1-8` again); any other array is refused, since its tasks
//! would not mean the shards the record's tasks meant.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, Setting};
use crate::plan::Shard;
use crate::records::durable::write_atomically;

/// The layout of the first submission of a job array: task IDs `min` to `min + count − 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayRecord {
    /// The first task ID.
    pub min: u64,
    /// How many tasks, so how many shards.
    pub count: u64,
}

impl ArrayRecord {
    /// The last task ID.
    #[must_use]
    pub fn max(&self) -> u64 {
        self.min + self.count - 1
    }
}

/// The array a task belongs to, as Slurm describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TaskArray {
    id: u64,
    min: u64,
    max: u64,
    count: u64,
}

impl TaskArray {
    fn from_vars(var: &impl Fn(&str) -> Option<String>) -> Result<TaskArray> {
        let number = |name: &str| -> Result<u64> {
            let text = var(name).ok_or_else(|| {
                Error::about(
                    Setting::Shard,
                    format_args!(
                        "{name} is not set: run this as a task of a Slurm job array (sbatch --array=1-N)"
                    ),
                )
            })?;
            text.trim()
                .parse()
                .map_err(|_| Error::setting(format!("{name} is '{text}', not a whole number")))
        };
        let (id, min, count) = (
            number("SLURM_ARRAY_TASK_ID")?,
            number("SLURM_ARRAY_TASK_MIN")?,
            number("SLURM_ARRAY_TASK_COUNT")?,
        );
        // Slurm sets MAX too; an older one that does not is taken as contiguous.
        let max = match var("SLURM_ARRAY_TASK_MAX") {
            Some(_) => number("SLURM_ARRAY_TASK_MAX")?,
            None => min + count.saturating_sub(1),
        };
        if count == 0 || id < min || id > max {
            return Err(Error::setting(format!(
                "Slurm task {id} is not in its array {min}-{max}"
            )));
        }
        Ok(TaskArray {
            id,
            min,
            max,
            count,
        })
    }

    /// Refuses an array that is not contiguous (`--array=1-N` or `0-N`, no step or list).
    fn contiguous(&self, var: &impl Fn(&str) -> Option<String>) -> Result<()> {
        let contiguous = self.max - self.min + 1 == self.count
            && var("SLURM_ARRAY_TASK_STEP").is_none_or(|s| s.trim() == "1");
        if contiguous {
            return Ok(());
        }
        Err(Error::about(
            Setting::Shard,
            format_args!(
                "the first submission must be a contiguous array (--array=1-N), not {}-{} with {} tasks",
                self.min, self.max, self.count
            ),
        ))
    }
}

/// The shard of this task from its own array alone (`--shard auto`): task `SLURM_ARRAY_TASK_ID
/// − SLURM_ARRAY_TASK_MIN + 1` of `SLURM_ARRAY_TASK_COUNT`. The array must be contiguous. A
/// resubmitted task is then shard 1 of 1: [`shard_of_task`] with a record places it right.
/// `var` looks a variable up (the process environment in the binary).
pub fn shard_of_array(var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
    let task = TaskArray::from_vars(&var)?;
    task.contiguous(&var)?;
    Shard::new(task.id - task.min + 1, task.count).ok_or_else(|| {
        Error::setting(format!(
            "Slurm task {} of an array of {} starting at {} is not a shard",
            task.id, task.count, task.min
        ))
    })
}

/// This task's shard, from Slurm's variables (`var` looks one up) and the array record at
/// `record`. Without a record, the task's own array is recorded first (it must be contiguous:
/// `--array=1-N` or `0-N`, no step or list) and the shard is read from it; with one, the task's
/// ID is placed in the recorded layout. The record is written by write-then-rename, so tasks of
/// one array starting together write the same file whole.
pub fn shard_of_task(var: impl Fn(&str) -> Option<String>, record: &Path) -> Result<Shard> {
    let task = TaskArray::from_vars(&var)?;
    let layout = match read_record(record)? {
        Some(layout) => {
            if task.min < layout.min || task.max > layout.max() {
                return Err(Error::about(
                    Setting::Shard,
                    format_args!(
                        "{} records a first array of tasks {}-{}; this task's array {}-{} is not part of it (rerun tasks of that array, or use another folder for another match)",
                        record.display(),
                        layout.min,
                        layout.max(),
                        task.min,
                        task.max
                    ),
                ));
            }
            layout
        }
        None => {
            task.contiguous(&var)?;
            let layout = ArrayRecord {
                min: task.min,
                count: task.count,
            };
            let text = serde_json::to_string(&layout).expect("a record serialises") + "\n";
            write_atomically(record, text.as_bytes())?;
            layout
        }
    };
    Shard::new(task.id - layout.min + 1, layout.count).ok_or_else(|| {
        Error::about(
            Setting::Shard,
            format_args!(
                "an array of {} tasks is more shards than a run can have",
                layout.count
            ),
        )
    })
}

fn read_record(path: &Path) -> Result<Option<ArrayRecord>> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            Error::setting(format!(
                "{} is not an array record ({e}); remove it to record a new array",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("read", path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slurm(id: u64, min: u64, max: u64) -> impl Fn(&str) -> Option<String> {
        move |name: &str| {
            let value = match name {
                "SLURM_ARRAY_TASK_ID" => id,
                "SLURM_ARRAY_TASK_MIN" => min,
                "SLURM_ARRAY_TASK_MAX" => max,
                "SLURM_ARRAY_TASK_COUNT" => max - min + 1,
                "SLURM_ARRAY_TASK_STEP" => 1,
                _ => return None,
            };
            Some(value.to_string())
        }
    }

    fn folder(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ringside-slurm-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_rerun_of_one_task_gets_its_shard_of_the_first_array() {
        let dir = folder("rerun");
        let record = dir.join("array.json");
        let first: Vec<Shard> = (0..=2)
            .map(|id| shard_of_task(slurm(id, 0, 2), &record).unwrap())
            .collect();
        assert_eq!(
            first,
            (1..=3)
                .map(|i| Shard::new(i, 3).unwrap())
                .collect::<Vec<_>>()
        );
        // sbatch --array=2 later: ID 2, MIN 2, MAX 2, COUNT 1. Task 2 of 0-2 is shard 3 of 3.
        assert_eq!(
            shard_of_task(slurm(2, 2, 2), &record).unwrap(),
            Shard::new(3, 3).unwrap()
        );
        // Without the record, the same variables mean shard 1 of 1.
        assert_eq!(
            shard_of_array(slurm(2, 2, 2)).unwrap(),
            Shard::new(1, 1).unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_array_outside_the_recorded_one_is_refused() {
        let dir = folder("outside");
        let record = dir.join("array.json");
        assert_eq!(
            shard_of_task(slurm(1, 1, 3), &record).unwrap(),
            Shard::new(1, 3).unwrap()
        );
        let err = shard_of_task(slurm(0, 0, 2), &record).unwrap_err();
        assert!(err.message.contains("records a first array of tasks 1-3"));
        assert!(shard_of_task(slurm(4, 4, 4), &record).is_err());
        assert!(shard_of_task(slurm(3, 2, 3), &record).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_first_array_with_gaps_is_refused_and_records_nothing() {
        let dir = folder("gaps");
        let record = dir.join("array.json");
        // sbatch --array=1,3,5: MIN 1, MAX 5, COUNT 3.
        let gaps = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("3".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("1".to_string()),
            "SLURM_ARRAY_TASK_MAX" => Some("5".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("3".to_string()),
            _ => None,
        };
        let err = shard_of_task(gaps, &record).unwrap_err();
        assert!(err.message.contains("contiguous"));
        assert!(!record.exists());
        let missing = shard_of_task(|_| None, &record).unwrap_err();
        assert!(missing.message.contains("SLURM_ARRAY_TASK_ID is not set"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn slurm_array_variables_give_the_shard() {
        let env = |id: &'static str, min: &'static str| {
            move |k: &str| match k {
                "SLURM_ARRAY_TASK_ID" => Some(id.to_string()),
                "SLURM_ARRAY_TASK_COUNT" => Some("3".to_string()),
                "SLURM_ARRAY_TASK_MIN" => Some(min.to_string()),
                _ => None,
            }
        };
        assert_eq!(
            shard_of_array(env("0", "0")).unwrap(),
            Shard::new(1, 3).unwrap()
        );
        assert_eq!(
            shard_of_array(env("3", "1")).unwrap(),
            Shard::new(3, 3).unwrap()
        );
        assert!(shard_of_array(env("4", "1")).is_err());
        assert!(
            shard_of_array(|_| None)
                .unwrap_err()
                .message
                .contains("SLURM_ARRAY_TASK_ID")
        );
    }
}
