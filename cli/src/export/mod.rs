//! Exporters: a [`SchemaSet`](wiremsg::SchemaSet) written as another format's schema
//! language, for the messages whose layout that format can state byte for byte.
//!
//! One module per format; [`Format`] lists them. An exporter either writes a schema
//! that describes exactly wiremsg's bytes, or refuses with every message and field it
//! cannot express ([`ExportError::Unfit`]): it never writes an approximation.

pub mod ksy;
pub mod sbe;

use std::fmt;

/// A schema language `wiremsg export` writes.
///
/// # Examples
///
/// ```
/// use wiremsg_cli::export::Format;
///
/// assert_eq!(Format::Sbe.name(), "SBE 1.0 XML");
/// assert_eq!(Format::Sbe.extension(), "xml");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// FIX Simple Binary Encoding 1.0 message schema XML ([`sbe`]).
    Sbe,
    /// A Kaitai Struct format description, `.ksy` YAML ([`ksy`]).
    Ksy,
}

impl Format {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Sbe => "SBE 1.0 XML",
            Format::Ksy => "Kaitai Struct",
        }
    }

    /// The usual file name extension of its schemas, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Sbe => "xml",
            Format::Ksy => "ksy",
        }
    }
}

/// One message or field a format cannot express, and why.
///
/// # Examples
///
/// ```
/// use wiremsg_cli::export::Unfit;
///
/// let unfit = Unfit {
///     path: "Order.note".into(),
///     offset: 8,
///     reason: "a string keeps its bytes in the tail".into(),
/// };
/// assert_eq!(unfit.to_string(), "`Order.note` at byte 8: a string keeps its bytes in the tail");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Unfit {
    /// The message, or the field as `Message.field` (through nested messages:
    /// `Order.leg.qty`).
    pub path: String,
    /// Offset of the field from the start of the message's block, in bytes (0 for a
    /// message).
    pub offset: usize,
    /// Why the format cannot express it, and what to do when something can be done.
    pub reason: String,
}

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` at byte {}: {}",
            self.path, self.offset, self.reason
        )
    }
}

/// Why an export wrote nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// Messages or fields the format cannot express: all of them, in message order.
    Unfit {
        /// The format asked for.
        format: Format,
        /// What does not fit.
        unfit: Vec<Unfit>,
    },
    /// An option is not usable (a message name not in the set, a malformed package
    /// name); the text says which and why.
    Options(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Unfit { format, unfit } => {
                write!(
                    f,
                    "{} cannot express {} part(s) of the schema:",
                    format.name(),
                    unfit.len()
                )?;
                for u in unfit {
                    write!(f, "\n  {u}")?;
                }
                Ok(())
            }
            ExportError::Options(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for ExportError {}
