//! What the command-line tests share: scratch directories, running the binary, the
//! golden schema files.

#![allow(dead_code)] // each test crate uses some of these

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test's files, removed when the test passes. A failing
/// test keeps it (its path is printed) so that its files can be looked at.
pub(crate) struct Scratch(PathBuf);

/// The scratch directory `wiremsg-<crate>-<pid>-<test>` under the system's
/// temporary directory, empty.
pub(crate) fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!(
        "wiremsg-{}-{}-{test}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept the failing test's files in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// Runs the `wiremsg` binary; what it wrote, after checking it did not panic.
pub(crate) fn wiremsg(args: &[&dyn AsRef<OsStr>]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_wiremsg"))
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

/// A schema file of FORMAT.md's golden vectors (`E5`, `F1`, ...).
pub(crate) fn golden_schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../wiremsg/tests/schemas/golden/{name}.wms"))
}
