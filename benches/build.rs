//! Generates the SBE encoders and decoders of `schema/sbe.xml` (issue 6) with
//! ironsbe-codegen into `$OUT_DIR/sbe_generated.rs`, which
//! `src/formats/sbe.rs` includes. The XML is wiremsg's SBE export of the
//! crate's own types, committed: a build script cannot use the crate it builds,
//! so `tests/sbe.rs` checks the file against a fresh export instead.

use std::path::PathBuf;

fn main() {
    let schema = PathBuf::from("schema/sbe.xml");
    println!("cargo::rerun-if-changed={}", schema.display());
    let code = ironsbe_codegen::generate_from_file(&schema)
        .unwrap_or_else(|e| panic!("ironsbe-codegen on {}: {e}", schema.display()));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("sbe_generated.rs"), code).expect("write the generated SBE code");
}
