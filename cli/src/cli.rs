//! The command line: subcommands and their arguments (clap).

use clap::{Parser, Subcommand};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  # write a schema file from Rust: wiremsg::SchemaSet::of::<Order>()?.write_file(\"order.wms\")
  wiremsg schema order.wms                      # list messages, fields, offsets, types
  wiremsg schema --json order.wms > order.json  # the same schema as JSON
  wiremsg dump --schema order.wms --type Order order.bin
  wiremsg dump --schema order.wms --header frame.bin
  wiremsg json --schema order.wms --type Order order.bin
  wiremsg cat --schema order.wms capture.frames  # one line per frame
  wiremsg cat capture.frames                     # a stream with schema frames describes itself
  wiremsg json --schema order.wms --frames capture.frames
  wiremsg dump --frames capture.frames           # annotated hex of every frame
  wiremsg compat v1.wms v2.wms                   # exit status 1 on a breaking change
  wiremsg export --sbe order.wms -o order.xml    # SBE 1.0 XML of the fixed-size messages
  wiremsg export --ksy order.wms -t Order -o order.ksy   # Kaitai Struct, for other languages
  wiremsg export --ksy --frames capture.frames -o capture.ksy

Memory: the input is untrusted; wiremsg holds at most 160 bytes of heap per byte of
its input files, plus 32 MiB (a schema: 128 per byte; a dump's rows: 2 x 64 per
byte, then the dump stops with an error saying what the rest would take).

A frame newer than the schema that describes it is read as that schema's version,
with a warning (exit status 1 with --strict).

Exit status: 0 success; 1 bad data (a message fails validation, a stream is cut), a
breaking change, or a schema another format cannot express; 2 the command cannot run
(arguments, unreadable file, invalid schema).";

/// Read wiremsg messages without their Rust types, driven by a schema file.
///
/// A schema file is the canonical schema encoding (FORMAT.md §11), written from Rust
/// by `SchemaSet::write_file`, or its JSON form (`wiremsg schema --json`).
#[derive(Debug, Parser)]
#[command(name = "wiremsg", version, after_help = EXAMPLES)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print a schema file readably, or export it as JSON.
    Schema {
        /// The schema file (`.wms`, or JSON), or a file of frames that describes
        /// itself (FORMAT.md §12): the messages its schema frames describe, each as
        /// the latest describes it.
        schema: PathBuf,
        /// Print the schema as JSON instead.
        #[arg(long)]
        json: bool,
    },
    /// Annotated hex of one message: a line per field with offset, bytes, name and
    /// value; on corrupt input, everything up to the fault, then the error.
    Dump(MessageArgs),
    /// One message as JSON (or one line per frame with `--frames`).
    Json(MessageArgs),
    /// A file of frames (FORMAT.md §10): one line per message, and one per schema
    /// frame (FORMAT.md §12).
    Cat {
        /// The schema file. Without it, the stream's schema frames describe its
        /// messages; with it, it is used for the types it has.
        #[arg(long, short)]
        schema: Option<PathBuf>,
        /// Exit status 1 when a frame is newer than the schema that describes it (its
        /// newer fields are not shown), not only a warning.
        #[arg(long)]
        strict: bool,
        /// The frames; `-` for standard input.
        input: PathBuf,
    },
    /// The changes between two versions of a schema, each marked compatible or
    /// breaking for old readers of new bytes and new readers of old bytes.
    Compat {
        /// The schema of the released version.
        old: PathBuf,
        /// The schema of the new version.
        new: PathBuf,
    },
    /// The schema in another format's schema language, for the messages that format
    /// can describe byte for byte; exit status 1, and nothing written, if a message
    /// does not fit (each is listed with the reason).
    Export(ExportArgs),
}

/// `wiremsg export`: the format, the schema, and where the result goes.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("format").required(true)))]
pub(crate) struct ExportArgs {
    /// SBE 1.0 message schema XML: the messages with a template id and a fixed-size
    /// block, with the fixed-size messages they nest as composites.
    #[arg(long, group = "format")]
    pub(crate) sbe: bool,
    /// Kaitai Struct `.ksy` YAML, from which Kaitai's compiler generates readers for
    /// Python, Java, C++, C#, Go, JavaScript and more: one message of `--type`, or
    /// with `--header` or `--frames` messages named by their header.
    #[arg(long, group = "format")]
    pub(crate) ksy: bool,
    /// With `--ksy`: the file reads one message behind its header (FORMAT.md §8).
    #[arg(long, conflicts_with = "frames")]
    pub(crate) header: bool,
    /// With `--ksy`: the file reads a file of frames (FORMAT.md §10).
    #[arg(long)]
    pub(crate) frames: bool,
    /// The schema file (`.wms`, or JSON), or a file of frames that describes itself
    /// (FORMAT.md §12): its schema frames give the schema.
    pub(crate) schema: PathBuf,
    /// Where to write the result (default: standard output).
    #[arg(long, short)]
    pub(crate) output: Option<PathBuf>,
    /// The schema's package (SBE: identifiers joined by dots; default: the schema
    /// file's name up to its first dot). With `--ksy --header` or `--frames`: the
    /// file's id (default `wiremsg_message`, `wiremsg_frames`).
    #[arg(long)]
    pub(crate) package: Option<String>,
    /// Export only this message and what it nests (repeatable; default: every
    /// message). With `--ksy` alone: the one message the file reads.
    #[arg(long = "type", short)]
    pub(crate) types: Vec<String>,
}

/// Where one message (or a file of frames) comes from and how to read it.
#[derive(Debug, clap::Args)]
pub(crate) struct MessageArgs {
    /// The schema file. With `--frames` it can be left out when the stream carries
    /// schema frames (FORMAT.md §12); with it, it is used for the types it has.
    #[arg(long, short)]
    pub(crate) schema: Option<PathBuf>,
    /// The message type to read the bytes as (needed without `--header` when the
    /// schema has more than one message with a template id, or none and several
    /// messages).
    #[arg(long = "type", short)]
    pub(crate) type_name: Option<String>,
    /// The bytes start with a message header (FORMAT.md §8); the type comes from its
    /// template id. In `dump`, the left column counts bytes from the start of the
    /// input (the header, or the frame, included), while the end offsets a message
    /// states (`ends at N`) count from the start of that message, as on the wire.
    #[arg(long, conflicts_with = "frames")]
    pub(crate) header: bool,
    /// The input is a file of frames (FORMAT.md §10).
    #[arg(long)]
    pub(crate) frames: bool,
    /// With `dump --frames`: leave schema frames out of the dump (they are still
    /// read, and describe the messages after them).
    #[arg(long, requires = "frames")]
    pub(crate) skip_schema_frames: bool,
    /// With `--frames`: exit status 1 when a frame is newer than the schema that
    /// describes it (its newer fields are not shown), not only a warning.
    #[arg(long, requires = "frames")]
    pub(crate) strict: bool,
    /// The bytes; `-` for standard input.
    pub(crate) input: PathBuf,
}
