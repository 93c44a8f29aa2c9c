//! Games on disk: typed rows, the games CSV with its streaming reader, the replay that checks a row (and the fault it finds) and the sink it reports to, the settings sidecar, finished ids, merging shards, durable writes, one writer per output.

pub mod columns;
pub mod durable;
pub mod fault;
pub mod fields;
pub mod games_csv;
pub mod idset;
pub mod lock;
pub mod merge;
pub mod row;
pub mod sidecar;
pub mod sink;
pub mod validate;
