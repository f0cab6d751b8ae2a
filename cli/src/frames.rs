//! Walking a file of frames (FORMAT.md §10) without the Rust types.

use crate::input::Fatal;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use wiremsg::dynamic::SchemaRegistry;
use wiremsg::frame::is_schema_frame;
use wiremsg::{Error, ErrorKind, FrameReader};

/// The largest frame the tool reads (the readers' default is 1 MiB; a recording may
/// hold larger messages).
const MAX_FRAME: usize = 64 << 20;

/// What a walk over frames saw, for the summary line.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    pub(crate) frames: u64,
    /// Schema frames among them (FORMAT.md §12).
    pub(crate) schema_frames: u64,
    pub(crate) bytes: u64,
    pub(crate) bad: u64,
    /// Message frames newer than the schema that describes them.
    pub(crate) newer: u64,
    /// The stream broke (a bad length prefix, a cut frame) before its end.
    pub(crate) broken: bool,
}

impl Summary {
    /// `50 frames, 2,770 bytes, 0 bad`, `51 frames (1 schema), ...` for a stream with
    /// schema frames, and `, then the stream breaks` if it did.
    pub(crate) fn line(&self) -> String {
        let schema = match self.schema_frames {
            0 => String::new(),
            n => format!(" ({} schema)", thousands(n)),
        };
        let newer = match self.newer {
            0 => String::new(),
            n => format!(", {} newer than their schema", thousands(n)),
        };
        format!(
            "{} frames{schema}, {} bytes, {} bad{newer}{}",
            thousands(self.frames),
            thousands(self.bytes),
            self.bad,
            if self.broken {
                ", then the stream breaks"
            } else {
                ""
            }
        )
    }

    /// Whether the command succeeded: no bad frame, an unbroken stream and, with
    /// `--strict`, no frame newer than its schema.
    pub(crate) fn ok(&self, strict: bool) -> bool {
        self.bad == 0 && !self.broken && !(strict && self.newer > 0)
    }
}

/// What `cat`, `json --frames` and `dump --frames` keep track of while they read a
/// stream, beyond its schemas: where the last bad schema frame was, so that the
/// errors of the messages it would have described point back at it.
#[derive(Debug, Default)]
pub(crate) struct Watch {
    /// Index and byte offset of the last schema frame that could not be read.
    bad_schema_frame: Option<(u64, u64)>,
}

impl Watch {
    /// Notes that frame `index` at byte `offset` is a bad schema frame.
    pub(crate) fn bad_schema_frame(&mut self, index: u64, offset: u64) {
        self.bad_schema_frame = Some((index, offset));
    }

    /// The text of the error of a message frame (its offset already in the
    /// stream's coordinates): a type no schema describes, after a bad schema frame,
    /// points back at that frame.
    pub(crate) fn explain(&self, e: &Error) -> String {
        match (e.kind(), self.bad_schema_frame) {
            (ErrorKind::UndescribedTemplate { .. }, Some((index, offset))) => format!(
                "{e} (frame #{index} at byte {offset} is a bad schema frame: it may have \
                 described it)"
            ),
            _ => e.to_string(),
        }
    }
}

/// The warning for a message frame newer than the schema `schemas` read it with
/// (its newer fields are not shown), counted in `summary`; `None` if its schema
/// describes its version.
pub(crate) fn newer_than_described(
    schemas: &SchemaRegistry,
    frame: &[u8],
    offset: u64,
    summary: &mut u64,
) -> Option<String> {
    let e = schemas.check_version(frame).err()?;
    *summary += 1;
    Some(e.shift(offset as usize + 4).to_string())
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A frame longer than this many times the largest frame before it (and than
/// [`PLAUSIBLE_MIN`]) that the stream ends inside is reported as an implausible length
/// (a corrupted length prefix), not as a stream cut inside a frame.
const PLAUSIBLE_RATIO: usize = 16;

/// Frame lengths up to this are plausible whatever came before.
const PLAUSIBLE_MIN: usize = 4096;

/// Calls `each(index, offset, frame)` for every frame of `path` (`-`: standard
/// input), schema frames (FORMAT.md §12) included, streaming. A frame `each` cannot
/// read is its own error: `each` returns whether it read the frame. A stream that
/// breaks (a bad length prefix, a cut frame) ends the walk with what broke it. A
/// schema file given as a file of frames is an error of the command.
pub(crate) fn for_each(
    path: &Path,
    mut each: impl FnMut(u64, u64, &[u8]) -> Result<bool, Fatal>,
) -> Result<(Summary, Option<String>), Fatal> {
    let mut input: BufReader<Box<dyn Read>> = if path.as_os_str() == "-" {
        BufReader::new(Box::new(std::io::stdin().lock()))
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        BufReader::new(Box::new(file))
    };
    // A schema file (FORMAT.md §11) starts with the schema header: its template id
    // and schema id 0xFFFF would read as a length prefix of about 4 GB.
    if input.fill_buf()?.get(2..6) == Some(&[0xff; 4]) {
        return Err(format!(
            "{}: a schema file (FORMAT.md §11), not a file of frames: list it with \
             `wiremsg schema {}`, or give it with --schema",
            path.display(),
            path.display()
        )
        .into());
    }
    let mut reader = FrameReader::with_max_frame_size(input, MAX_FRAME);
    let mut summary = Summary::default();
    let mut largest = 0;
    loop {
        let offset = reader.position();
        match reader.next_any_frame() {
            Ok(Some(frame)) => {
                largest = largest.max(frame.len());
                summary.schema_frames += u64::from(is_schema_frame(frame));
                if !each(summary.frames, offset, frame)? {
                    summary.bad += 1;
                }
                summary.frames += 1;
                summary.bytes = reader.position();
            }
            Ok(None) => return Ok((summary, None)),
            Err(e) if matches!(e.kind(), ErrorKind::Io(_)) => return Err(Box::new(e)),
            Err(e) => {
                summary.bytes = reader.position();
                summary.broken = true;
                let text = implausible(&e, summary.frames, offset, largest)
                    // The reader's errors already count from the start of the stream.
                    .unwrap_or_else(|| e.to_string());
                return Ok((summary, Some(text)));
            }
        }
    }
}

/// For a stream that ends inside a frame whose length prefix is far longer than
/// every frame before it: the length, said to be implausible (a corrupted prefix),
/// rather than "the stream ended inside a frame".
fn implausible(e: &Error, index: u64, offset: u64, largest: usize) -> Option<String> {
    let ErrorKind::UnexpectedEof { needed, available } = *e.kind() else {
        return None;
    };
    let len = needed.checked_sub(4).filter(|_| available >= 4)?;
    if len <= PLAUSIBLE_MIN.max(largest.saturating_mul(PLAUSIBLE_RATIO)) {
        return None;
    }
    let rest = available - 4;
    Some(format!(
        "frame {index} at byte {offset}: length prefix {len} is implausible (the largest \
         frame before it has {largest} bytes, and the stream ends {rest} bytes after the \
         prefix): a corrupted length prefix, or not a file of frames"
    ))
}
