//! Schema snapshots for a test suite: the schema of a released version kept as a file
//! in the repository, and a check that the current schema still reads and is read by
//! it ([`compat`]).

use super::{CompatReport, SchemaSet, compat};
use crate::{Error, WireMsg};
use std::path::{Path, PathBuf};
use std::{fmt, fs, io};

/// The environment variable that makes [`check_snapshot`] rewrite the snapshot with
/// the current schema instead of comparing: set it to `1`
/// (`WIREMSG_UPDATE_SNAPSHOTS=1 cargo test`) when a new version is released, or a
/// breaking change is meant.
pub const UPDATE_SNAPSHOTS: &str = "WIREMSG_UPDATE_SNAPSHOTS";

/// What [`check_snapshot`] found (every outcome passes; a breaking change is an
/// [`Err`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Snapshot {
    /// There was no snapshot: the current schema was written to the file.
    Written,
    /// The snapshot equals the current schema.
    Unchanged,
    /// The current schema differs from the snapshot, compatibly (the report lists
    /// the changes; some may be [`Verdict::Caution`](super::Verdict::Caution)). The
    /// file is left as it is: it stands for the released version.
    Compatible(CompatReport),
    /// [`UPDATE_SNAPSHOTS`] was set: the file now holds the current schema.
    Updated,
}

/// Why [`check_snapshot`] failed.
///
/// Its `Debug` prints the same text as `Display`, so that `.unwrap()` in a test shows
/// the readable report.
#[non_exhaustive]
pub enum SnapshotError {
    /// The current schema has a change that breaks readers of one side.
    Breaking {
        /// The snapshot file.
        path: PathBuf,
        /// Every change, breaking or not.
        report: CompatReport,
    },
    /// The snapshot could not be read or written.
    Io {
        /// The snapshot file.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// The snapshot file is not a schema in the canonical encoding (FORMAT.md §11).
    Unreadable {
        /// The snapshot file.
        path: PathBuf,
        /// Why it failed to read.
        error: Error,
    },
    /// The current schema could not be collected or encoded (two messages of one
    /// name).
    Current(Error),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Breaking { path, report } => write!(
                f,
                "the schema breaks compatibility with the snapshot {}:\n{report}\
                 If the break is intended (a new major version), rewrite the snapshot: \
                 {UPDATE_SNAPSHOTS}=1 cargo test",
                path.display()
            ),
            SnapshotError::Io { path, error } => {
                write!(f, "schema snapshot {}: {error}", path.display())
            }
            SnapshotError::Unreadable { path, error } => write!(
                f,
                "schema snapshot {} is not a schema file: {error}; rewrite it with \
                 {UPDATE_SNAPSHOTS}=1 cargo test",
                path.display()
            ),
            SnapshotError::Current(error) => write!(f, "the current schema: {error}"),
        }
    }
}

impl fmt::Debug for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SnapshotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SnapshotError::Io { error, .. } => Some(error),
            SnapshotError::Unreadable { error, .. } | SnapshotError::Current(error) => Some(error),
            SnapshotError::Breaking { .. } => None,
        }
    }
}

/// Checks `T`'s schema (and every message it nests) against the snapshot at `path`;
/// see [`check_snapshot_set`].
///
/// # Examples
///
/// In a test of the crate that defines the messages, with the snapshot committed
/// beside the tests:
///
/// ```no_run
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Order {
///     id: u64,
///     qty: u32,
/// }
///
/// // #[test]
/// fn order_schema_stays_compatible() {
///     let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/order.wms");
///     wiremsg::schema::check_snapshot::<Order>(path).unwrap();
/// }
/// # order_schema_stays_compatible();
/// ```
///
/// # Errors
///
/// As [`check_snapshot_set`], and [`SnapshotError::Current`] if two messages `T`
/// reaches have one name.
pub fn check_snapshot<T: WireMsg>(path: impl AsRef<Path>) -> Result<Snapshot, SnapshotError> {
    let current = SchemaSet::of::<T>().map_err(SnapshotError::Current)?;
    check_snapshot_set(path, &current)
}

/// Checks `current` against the schema snapshot at `path`, for a test suite that
/// keeps the schema of each released version as a file:
///
/// - no file: writes `current` there ([`SchemaSet::to_bytes`], FORMAT.md §11) and
///   returns [`Snapshot::Written`]; commit the file;
/// - [`UPDATE_SNAPSHOTS`] set to `1`: rewrites the file, [`Snapshot::Updated`];
/// - else compares ([`compat`]`(snapshot, current)`): [`Snapshot::Unchanged`], or
///   [`Snapshot::Compatible`] with the report (the file stays as it is), or the
///   error [`SnapshotError::Breaking`], whose message is the report and says how to
///   rewrite the snapshot.
///
/// # Examples
///
/// ```
/// use wiremsg::schema::{check_snapshot_set, Snapshot, SnapshotError};
/// use wiremsg::SchemaSet;
///
/// mod v1 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Quote { pub price: i64 }
/// }
/// mod v2 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Quote { pub price: i32 } // was i64
/// }
///
/// let path = std::env::temp_dir().join(format!("quote-{}.wms", std::process::id()));
/// let v1 = SchemaSet::of::<v1::Quote>().unwrap();
/// assert_eq!(check_snapshot_set(&path, &v1).unwrap(), Snapshot::Written);
/// assert_eq!(check_snapshot_set(&path, &v1).unwrap(), Snapshot::Unchanged);
///
/// let v2 = SchemaSet::of::<v2::Quote>().unwrap();
/// let err = check_snapshot_set(&path, &v2).unwrap_err();
/// assert!(matches!(err, SnapshotError::Breaking { .. }));
/// assert!(err.to_string().contains("Quote.price: type i64 -> i32"), "{err}");
/// assert!(err.to_string().contains("WIREMSG_UPDATE_SNAPSHOTS=1"));
/// # std::fs::remove_file(&path).unwrap();
/// ```
///
/// # Errors
///
/// [`SnapshotError::Breaking`] for a breaking change; [`SnapshotError::Io`] if the
/// file cannot be read or written (a missing file is written, not an error);
/// [`SnapshotError::Unreadable`] if it is not a schema file.
pub fn check_snapshot_set(
    path: impl AsRef<Path>,
    current: &SchemaSet,
) -> Result<Snapshot, SnapshotError> {
    let path = path.as_ref();
    if std::env::var_os(UPDATE_SNAPSHOTS).is_some_and(|v| v == "1") {
        write_snapshot(path, current)?;
        return Ok(Snapshot::Updated);
    }
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            write_snapshot(path, current)?;
            return Ok(Snapshot::Written);
        }
        Err(error) => {
            return Err(SnapshotError::Io {
                path: path.into(),
                error,
            });
        }
    };
    let snapshot = SchemaSet::from_bytes(&bytes).map_err(|error| SnapshotError::Unreadable {
        path: path.into(),
        error,
    })?;
    if snapshot == *current {
        return Ok(Snapshot::Unchanged);
    }
    let report = compat(&snapshot, current);
    if report.is_compatible() {
        Ok(Snapshot::Compatible(report))
    } else {
        Err(SnapshotError::Breaking {
            path: path.into(),
            report,
        })
    }
}

/// Writes `set`'s canonical encoding ([`SchemaSet::to_bytes`]) to `path`, creating
/// its directory if needed: what [`check_snapshot_set`] does when the file is missing
/// or [`UPDATE_SNAPSHOTS`] is set.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Ping {
///     seq: u32,
/// }
///
/// let dir = std::env::temp_dir().join(format!("wiremsg-doc-{}", std::process::id()));
/// let path = dir.join("schemas").join("ping.wms");
/// let set = SchemaSet::of::<Ping>().unwrap();
/// wiremsg::schema::write_snapshot(&path, &set).unwrap();
/// assert_eq!(SchemaSet::from_bytes(&std::fs::read(&path).unwrap()).unwrap(), set);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
///
/// # Errors
///
/// [`SnapshotError::Io`] if the directory or file cannot be written;
/// [`SnapshotError::Current`] if the set does not encode.
pub fn write_snapshot(path: impl AsRef<Path>, set: &SchemaSet) -> Result<(), SnapshotError> {
    let path = path.as_ref();
    let bytes = set.to_bytes().map_err(SnapshotError::Current)?;
    let io = |error| SnapshotError::Io {
        path: path.into(),
        error,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io)?;
    }
    fs::write(path, bytes).map_err(io)
}
