//! The `raw_struct_hazards` example: reference.md R4, the three hazards of sending a
//! raw `#[repr(C)]` struct's memory, each next to wiremsg's bytes for the same
//! struct.
//!
//! The raw structs' bytes are assembled field by field (`offset_of!` and
//! `to_ne_bytes`), without `unsafe`: the bytes between fields are padding, whose
//! content is undefined (a `memcpy` of the struct sends whatever they held), so they
//! are shown as `__`.

use crate::annotate::hex;
use std::fmt::{self, Write as _};
use std::mem::{offset_of, size_of};
use wiremsg::WireMsg;

/// R4's padding example as a C struct: `struct { char a; int32_t b; char c; }`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawPadded {
    /// 1 byte, then 3 bytes of padding to align `b`.
    pub a: u8,
    /// 4 bytes, native-endian.
    pub b: i32,
    /// 1 byte, then 3 bytes of padding to round the size up to the alignment.
    pub c: u8,
}

/// The same fields as a wiremsg message: 6 bytes, little-endian, no padding.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Padded {
    /// 1 byte at offset 0.
    pub a: u8,
    /// 4 bytes at offset 1, little-endian.
    pub b: i32,
    /// 1 byte at offset 5.
    pub c: u8,
}

/// R4's versioning example, version 1, as a C struct.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawLoginV1 {
    /// Native-endian.
    pub user_id: i32,
    /// NUL-padded name.
    pub username: [u8; 16],
}

/// R4's versioning example, version 2, as a C struct: `email` appended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawLoginV2 {
    /// Native-endian.
    pub user_id: i32,
    /// NUL-padded name.
    pub username: [u8; 16],
    /// NUL-padded address.
    pub email: [u8; 32],
}

/// R4's login as version 1 of a wiremsg message (what an old client is built with).
pub mod v1 {
    use wiremsg::WireMsg;

    /// Version 1: 20 bytes.
    #[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LoginRequest {
        /// User id.
        pub user_id: i32,
        /// NUL-padded name.
        pub username: [u8; 16],
    }
}

/// R4's login as version 2 (what the new server is built with).
pub mod v2 {
    use wiremsg::WireMsg;

    /// Version 2: `email` appended, 52 bytes.
    #[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
    #[wire(version = 2)]
    pub struct LoginRequest {
        /// User id.
        pub user_id: i32,
        /// NUL-padded name.
        pub username: [u8; 16],
        /// NUL-padded address; zeros when a version 1 client sent the message.
        #[wire(since = 2)]
        pub email: [u8; 32],
    }
}

/// The memory of a `repr(C)` value of `size` bytes whose fields are at the given
/// offsets with the given bytes; `None` for padding.
fn raw_image(size: usize, fields: &[(usize, &[u8])]) -> Vec<Option<u8>> {
    let mut image = vec![None; size];
    for (offset, bytes) in fields {
        for (i, &b) in bytes.iter().enumerate() {
            image[offset + i] = Some(b);
        }
    }
    image
}

/// A raw image as hex, `__` for padding.
pub fn image_hex(image: &[Option<u8>]) -> String {
    let mut out = String::new();
    for (i, byte) in image.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match byte {
            Some(b) => {
                let _ = write!(out, "{b:02x}");
            }
            None => out.push_str("__"),
        }
    }
    out
}

impl RawPadded {
    /// What a `memcpy` of this value would send, padding as `None`.
    pub fn image(&self) -> Vec<Option<u8>> {
        raw_image(
            size_of::<Self>(),
            &[
                (offset_of!(Self, a), &self.a.to_ne_bytes()),
                (offset_of!(Self, b), &self.b.to_ne_bytes()),
                (offset_of!(Self, c), &self.c.to_ne_bytes()),
            ],
        )
    }
}

impl RawLoginV1 {
    /// What a `memcpy` of this value would send.
    pub fn image(&self) -> Vec<Option<u8>> {
        raw_image(
            size_of::<Self>(),
            &[
                (offset_of!(Self, user_id), &self.user_id.to_ne_bytes()),
                (offset_of!(Self, username), &self.username),
            ],
        )
    }
}

/// A raw v2 server's read of a datagram: the bytes of a `RawLoginV2`, if there are
/// enough. A C server that `memcpy`s `sizeof(struct v2)` bytes reads past the end
/// instead of asking.
pub fn raw_v2_read(datagram: &[u8]) -> Option<RawLoginV2> {
    let bytes = datagram.get(..size_of::<RawLoginV2>())?;
    let mut username = [0; 16];
    username.copy_from_slice(&bytes[4..20]);
    let mut email = [0; 32];
    email.copy_from_slice(&bytes[20..52]);
    Some(RawLoginV2 {
        user_id: i32::from_ne_bytes(bytes[..4].try_into().ok()?),
        username,
        email,
    })
}

fn padded_name(name: &str) -> [u8; 16] {
    let mut out = [0; 16];
    out[..name.len()].copy_from_slice(name.as_bytes());
    out
}

fn text(bytes: &[u8]) -> &str {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[..end]).unwrap_or("?")
}

/// The three hazards, computed.
#[derive(Debug, Clone)]
pub struct Hazards {
    /// The padding example's raw image.
    pub raw_padded: Vec<Option<u8>>,
    /// The padding example's wiremsg bytes.
    pub wire_padded: Vec<u8>,
    /// `0x12345678u32` in this machine's memory.
    pub native_word: [u8; 4],
    /// The version 1 client's wiremsg bytes.
    pub v1_bytes: Vec<u8>,
    /// The version 2 client's wiremsg bytes.
    pub v2_bytes: Vec<u8>,
    /// The version 1 client's raw image.
    pub raw_v1: Vec<Option<u8>>,
}

/// Computes every hazard's bytes.
///
/// # Errors
///
/// An encoding error (none with these values).
pub fn run() -> Result<Hazards, wiremsg::Error> {
    let raw = RawPadded {
        a: 1,
        b: 0x1234_5678,
        c: 2,
    };
    let wire = Padded {
        a: 1,
        b: 0x1234_5678,
        c: 2,
    };
    let username = padded_name("binh");
    let mut email = [0; 32];
    email[..6].copy_from_slice(b"b@x.vn");
    Ok(Hazards {
        raw_padded: raw.image(),
        wire_padded: wire.to_bytes()?,
        native_word: 0x1234_5678u32.to_ne_bytes(),
        v1_bytes: v1::LoginRequest {
            user_id: 7,
            username,
        }
        .to_bytes()?,
        v2_bytes: v2::LoginRequest {
            user_id: 7,
            username,
            email,
        }
        .to_bytes()?,
        raw_v1: RawLoginV1 {
            user_id: 7,
            username,
        }
        .image(),
    })
}

impl fmt::Display for Hazards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let padding = self.raw_padded.iter().filter(|b| b.is_none()).count();
        writeln!(
            f,
            "1. Padding: struct {{ a: u8, b: i32, c: u8 }} = {{ a: 1, b: 0x12345678, c: 2 }}"
        )?;
        writeln!(
            f,
            "   repr(C)  {:>2} bytes  {}   (__: {padding} padding bytes, sent as whatever memory held)",
            self.raw_padded.len(),
            image_hex(&self.raw_padded)
        )?;
        writeln!(
            f,
            "   wiremsg  {:>2} bytes  {}",
            self.wire_padded.len(),
            hex(&self.wire_padded)
        )?;
        let this = if cfg!(target_endian = "little") {
            "little"
        } else {
            "big"
        };
        writeln!(f, "\n2. Endianness: u32 0x12345678")?;
        writeln!(
            f,
            "   repr(C) on this machine ({this}-endian) {}",
            hex(&self.native_word)
        )?;
        writeln!(
            f,
            "   repr(C) on a big-endian machine         {}",
            hex(&0x1234_5678u32.to_be_bytes())
        )?;
        writeln!(
            f,
            "   repr(C) on a little-endian machine      {}",
            hex(&0x1234_5678u32.to_le_bytes())
        )?;
        let word = &self.wire_padded[PaddedView::B_OFFSET..PaddedView::B_OFFSET + 4];
        writeln!(
            f,
            "   wiremsg on every machine                {}   (field b of Padded above)",
            hex(word)
        )?;

        writeln!(
            f,
            "\n3. Versioning: v1 {{ user_id: i32, username: [u8; 16] }}, v2 appends email: [u8; 32]"
        )?;
        writeln!(
            f,
            "   repr(C)  v1 is {} bytes, v2 {}; a v1 client sends {}",
            size_of::<RawLoginV1>(),
            size_of::<RawLoginV2>(),
            image_hex(&self.raw_v1)
        )?;
        match raw_v2_read(&self.v1_bytes) {
            Some(read) => writeln!(f, "   raw v2 server read {read:?}")?,
            None => writeln!(
                f,
                "   raw v2 server: needs {} bytes, got {}: a C memcpy reads {} bytes past the message \
                 (garbage email, or a crash); safe Rust can only refuse the datagram",
                size_of::<RawLoginV2>(),
                self.v1_bytes.len(),
                size_of::<RawLoginV2>() - self.v1_bytes.len()
            )?,
        }
        let new_server = v2::LoginRequest::view(&self.v1_bytes).map_err(|_| fmt::Error)?;
        writeln!(
            f,
            "   wiremsg  v1 client, {} bytes: {}",
            self.v1_bytes.len(),
            hex(&self.v1_bytes)
        )?;
        writeln!(
            f,
            "            v2 server reads user_id {}, username {:?}, has_email {}, version {}",
            new_server.user_id(),
            text(new_server.username().as_bytes()),
            new_server.has_email(),
            new_server.version()
        )?;
        let old_server = v1::LoginRequest::view(&self.v2_bytes).map_err(|_| fmt::Error)?;
        let new_view = v2::LoginRequest::view(&self.v2_bytes).map_err(|_| fmt::Error)?;
        writeln!(
            f,
            "   wiremsg  v2 client, {} bytes: v2 server reads email {:?}; a v1 server reads user_id {}, username {:?} and skips the {} bytes it does not know",
            self.v2_bytes.len(),
            new_view.try_email().map(|e| text(e.as_bytes())),
            old_server.user_id(),
            text(old_server.username().as_bytes()),
            self.v2_bytes.len() - self.v1_bytes.len()
        )?;
        write!(
            f,
            "   (a wiremsg message of fixed size has no length inside: the datagram's length, or \
             the 8-byte header's block length in a stream, tells which version arrived)"
        )
    }
}
