//! reference.md R1: LoginRequest and LoginResponse, byte by byte, next to JSON and
//! Protobuf.
//!
//! ```sh
//! cargo run --release -p wiremsg-examples --bin login
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    match wiremsg_examples::login::run() {
        Ok(login) => {
            println!("{login}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("login: {e}");
            ExitCode::FAILURE
        }
    }
}
