//! reference.md R4: padding, endianness and versioning of raw `repr(C)` structs, next
//! to wiremsg's bytes.
//!
//! ```sh
//! cargo run --release -p wiremsg-examples --bin raw_struct_hazards
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    match wiremsg_examples::hazards::run() {
        Ok(hazards) => {
            println!("{hazards}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("raw_struct_hazards: {e}");
            ExitCode::FAILURE
        }
    }
}
