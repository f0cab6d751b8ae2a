//! postcard: compact positional serde format (varints, no field names).
//!
//! `read` decodes then folds: postcard has no in-place access and no
//! unchecked path.

use crate::format::Valid;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::format::Format;
use crate::model::Message;

/// Column name.
pub const NAME: &str = "postcard";

/// postcard with a reused output buffer.
#[derive(Debug, Default)]
pub struct Postcard {
    pub(crate) buf: Vec<u8>,
}

impl<M: Message + Serialize + DeserializeOwned> Format<M> for Postcard {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &M) -> &[u8] {
        // `to_extend` takes its writer by value: move the buffer through it
        // to keep its capacity.
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.buf = postcard::to_extend(msg, buf).expect("postcard: encode into a Vec cannot fail");
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        let msg: M = self.decode(bytes);
        msg.checksum()
    }

    #[inline]
    unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> M {
        postcard::from_bytes(bytes).valid("postcard")
    }
}
