//! MessagePack via rmp-serde, structs as arrays (rmp-serde's default
//! `encode::write`): positional like postcard, no field names on the wire.
//! Enums are written as their variant name (`"Buy"`), rmp-serde's default.
//!
//! `read` decodes then folds: no in-place access, no unchecked path.

use crate::format::Valid;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::format::Format;
use crate::model::Message;

/// Column name.
pub const NAME: &str = "MessagePack (rmp-serde)";

/// rmp-serde with a reused output buffer.
#[derive(Debug, Default)]
pub struct MessagePack {
    pub(crate) buf: Vec<u8>,
}

impl<M: Message + Serialize + DeserializeOwned> Format<M> for MessagePack {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &M) -> &[u8] {
        self.buf.clear();
        rmp_serde::encode::write(&mut self.buf, msg)
            .expect("rmp-serde: encode into a Vec cannot fail");
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
        rmp_serde::from_slice(bytes).valid("rmp-serde")
    }
}
