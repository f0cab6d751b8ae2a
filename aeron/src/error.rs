//! The one error type of the crate: what went wrong on the transport, in a message or
//! in a spawned process.

use std::fmt;

/// What failed: Aeron, a deadline, a message, the operating system, or a spawned
/// process.
#[derive(Debug)]
pub enum Error {
    /// An Aeron call failed (the C client's or driver's error, as text).
    Aeron(String),
    /// A publication refused a message for good (closed, or its maximum position
    /// was reached).
    Offer(String),
    /// Nothing happened before the deadline: no subscriber connected, back-pressure
    /// did not clear, or a reply did not come.
    Timeout(String),
    /// A message could not be encoded or viewed.
    Wire(wiremsg::Error),
    /// A file, process or socket operation failed.
    Io(std::io::Error),
    /// A spawned subscriber or client process failed or reported a mismatch.
    Process(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Aeron(what) => write!(f, "aeron: {what}"),
            Error::Offer(what) => write!(f, "publication refused the message: {what}"),
            Error::Timeout(what) => write!(f, "timed out: {what}"),
            Error::Wire(e) => write!(f, "wiremsg: {e}"),
            Error::Io(e) => write!(f, "io: {e}"),
            Error::Process(what) => write!(f, "process: {what}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Wire(e) => Some(e),
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<wiremsg::Error> for Error {
    fn from(e: wiremsg::Error) -> Self {
        Error::Wire(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<rusteron_client::AeronCError> for Error {
    fn from(e: rusteron_client::AeronCError) -> Self {
        Error::Aeron(format!("{e:?}"))
    }
}
