//! JSON via serde_json: compact `to_writer`, no zero-copy access.
//!
//! `read` decodes then folds (JSON has no access without parsing, and no
//! unchecked path). Tick's symbol is a JSON array of 8 numbers and its side
//! the variant name, as serde's derive writes them.

use crate::format::Valid;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::format::Format;
use crate::model::{LoginRequest, Message, Order, Tick};

/// Column name.
pub const NAME: &str = "JSON (serde_json)";

/// serde_json with a reused output buffer.
#[derive(Debug, Default)]
pub struct Json {
    pub(crate) buf: Vec<u8>,
}

/// How a message is written as JSON.
pub trait JsonEncode {
    /// Appends the compact JSON of `self` to `out`.
    fn write_json(&self, out: &mut Vec<u8>);
}

fn write_serde<T: Serialize>(value: &T, out: &mut Vec<u8>) {
    serde_json::to_writer(out, value).expect("serde_json: encode into a Vec cannot fail");
}

/// R1 leaves an absent `mfa_token` out, as JSON APIs do (and as the reference's
/// 56 bytes count it). The model cannot carry `skip_serializing_if` itself:
/// postcard and MessagePack-as-array are positional and would then fail to
/// decode. Decoding needs no mirror: serde reads a missing `Option` as `None`.
#[derive(Serialize)]
struct LoginRequestJson<'a> {
    username: &'a str,
    password: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mfa_token: Option<&'a str>,
}

impl JsonEncode for LoginRequest {
    fn write_json(&self, out: &mut Vec<u8>) {
        let view = LoginRequestJson {
            username: &self.username,
            password: &self.password,
            mfa_token: self.mfa_token.as_deref(),
        };
        write_serde(&view, out);
    }
}

impl JsonEncode for Order {
    fn write_json(&self, out: &mut Vec<u8>) {
        write_serde(self, out);
    }
}

impl JsonEncode for Tick {
    fn write_json(&self, out: &mut Vec<u8>) {
        write_serde(self, out);
    }
}

impl<M: Message + JsonEncode + DeserializeOwned> Format<M> for Json {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &M) -> &[u8] {
        self.buf.clear();
        msg.write_json(&mut self.buf);
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
        serde_json::from_slice(bytes).valid("serde_json")
    }
}
