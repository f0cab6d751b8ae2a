//! `wiremsg compat OLD NEW`: the compatibility report of two schema files; exit
//! status 1 when a change breaks old or new readers, so that CI can run it.

use crate::input::{Fatal, read_schema};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg::schema::compat;

pub(crate) fn run(out: &mut dyn Write, old: &Path, new: &Path) -> Result<ExitCode, Fatal> {
    let report = compat(&read_schema(old)?, &read_schema(new)?);
    write!(out, "{report}")?;
    Ok(if report.is_compatible() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
