//! Walking a file of frames (FORMAT.md §10) without the Rust types.

use crate::input::Fatal;
use std::io::Read;
use std::path::Path;
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
        format!(
            "{} frames{schema}, {} bytes, {} bad{}",
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

/// Calls `each(index, offset, frame)` for every frame of `path` (`-`: standard
/// input), schema frames (FORMAT.md §12) included, streaming. A frame `each` cannot read is its own error: `each` returns
/// whether it read the frame. A stream that breaks (a bad length prefix, a cut
/// frame) ends the walk with its error.
pub(crate) fn for_each(
    path: &Path,
    mut each: impl FnMut(u64, u64, &[u8]) -> Result<bool, Fatal>,
) -> Result<(Summary, Option<Error>), Fatal> {
    let input: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut reader = FrameReader::with_max_frame_size(input, MAX_FRAME);
    let mut summary = Summary::default();
    loop {
        let offset = reader.position();
        match reader.next_any_frame() {
            Ok(Some(frame)) => {
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
                // The reader's errors already count from the start of the stream.
                return Ok((summary, Some(e)));
            }
        }
    }
}
