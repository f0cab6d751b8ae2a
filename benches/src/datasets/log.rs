//! `log`: a batch of 10,000 web-server access-log entries, the string-heavy
//! case: four strings of 10–80 bytes (ASCII, as logs are) and three
//! fixed-size fields per entry.
//!
//! The strings are what a combined-format access log holds: the client's
//! host name as identity, a user id, the request date, the request line.
//! `update` (and `update_unchecked`) overwrites every entry's `code` and
//! `size` (a log scrubber that rewrites status and byte counts in place).
//! `read_some` loads only the fixed-size `address`, `code` and `size` of
//! every entry (traffic per client and status), skipping the strings;
//! `read_some_lazy` the same through the on-demand view (each entry's block
//! checked, none of its strings), `read_lazy` every field so.
//!
//! Per format: wiremsg and rkyv encode the model as derived (a message with
//! a list of entries); FlatBuffers as `LogBatch { entries: [LogEntry] }`
//! (`schema/peers.fbs`); capnp as the same shape (`schema/peers.capnp`: the
//! address a little-endian `UInt32`, the strings `Text`); prost with
//! hand-written derives (see
//! [`LogEntryPb`]), encoded from the model by prost's encoding primitives as
//! `formats::protobuf` does; postcard and JSON through serde. The wiremsg,
//! rkyv and serde codecs are `derived_codecs!` in the parent module.

use crate::format::Valid;
use rkyv::munge::munge;
use rkyv::vec::ArchivedVec;
use wiremsg::WireMsg;

use super::{
    Codec, CodecVisitor, Dataset, Rng, derived_codecs, fb_access_methods, fb_root, fold_some, ids,
    read_methods, read_some_methods, rkyv_root, rkyv_root_mut, try_fold_some, visit_formats,
    wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{Capnp, capnp_methods, message as capnp_message, text};
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;
use crate::formats::protobuf::{
    Protobuf, decode_pb, fixed32_len, put_fixed32, put_message_header, put_str, put_varint,
    str_len, varint_len,
};

/// One access-log entry.
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct LogEntry {
    /// Client IPv4 address.
    pub address: [u8; 4],
    /// Client identity (here its host name).
    pub identity: String,
    /// Authenticated user id.
    pub userid: String,
    /// Request date, `10/Oct/2025:13:55:36 +0000`.
    pub date: String,
    /// Request line, `GET /path HTTP/1.1`.
    pub request: String,
    /// HTTP status.
    pub code: u16,
    /// Response bytes.
    pub size: u64,
}

/// The data set: a batch of entries.
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct LogBatch {
    /// The entries, in log order.
    pub entries: Vec<LogEntry>,
}

/// `code` and `size` that `update` writes into entry `index`.
fn new_code_size(round: u64, index: usize) -> (u16, u64) {
    (
        (round as u16).wrapping_add(index as u16),
        round.wrapping_add(index as u64),
    )
}

/// The fields `read_some` loads from an entry, as folded.
#[inline(always)]
fn some_entry(address: [u8; 4], code: u16, size: u64) -> [u64; 3] {
    [
        u64::from(u32::from_le_bytes(address)),
        u64::from(code),
        size,
    ]
}

#[inline(always)]
fn fold_entry(f: &mut Fold, address: [u8; 4], strings: [&str; 4], code: u16, size: u64) {
    f.u64(u64::from(u32::from_le_bytes(address)));
    for s in strings {
        f.str(s);
    }
    f.u64(u64::from(code));
    f.u64(size);
}

const HOSTS: [&str; 8] = [
    "client", "dsl", "cable", "mobile", "office", "vpn", "gw", "proxy",
];
const DOMAINS: [&str; 8] = [
    "example.net",
    "isp.example.com",
    "broadband.example.org",
    "dyn.example-telecom.net",
    "campus.example.edu",
    "customer.example-hosting.io",
    "pool.example.de",
    "static.example.fr",
];
const FIRST: [&str; 10] = [
    "anna", "binh", "carlos", "dmitri", "emma", "fatima", "giulia", "hiro", "ivan", "jane",
];
const LAST: [&str; 10] = [
    "nguyen", "smith", "garcia", "ivanova", "mueller", "tanaka", "rossi", "kowalski", "dubois",
    "tran",
];
const ORGS: [&str; 4] = [
    "corp.example.com",
    "example.org",
    "shop.example",
    "mail.example.net",
];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const METHODS: [&str; 4] = ["GET", "GET", "POST", "HEAD"];
const SEGMENTS: [&str; 12] = [
    "api", "v2", "static", "img", "products", "search", "cart", "user", "assets", "css", "js",
    "blog",
];
const EXTENSIONS: [&str; 6] = ["", ".html", ".png", ".css", ".js", ".json"];
const CODES: [u16; 10] = [200, 200, 200, 200, 200, 200, 304, 404, 301, 500];

/// Cuts an ASCII string to at most `max` bytes.
fn at_most(mut s: String, max: usize) -> String {
    s.truncate(max);
    s
}

fn entry(rng: &mut Rng, index: usize) -> LogEntry {
    let address = [
        rng.range(1, 223) as u8,
        rng.below(256) as u8,
        rng.below(256) as u8,
        rng.range(1, 254) as u8,
    ];
    let identity = format!(
        "{}-{}.{}",
        rng.pick(&HOSTS),
        rng.range(1, 99_999),
        rng.pick(&DOMAINS)
    );
    let userid = format!(
        "{}.{}{}@{}",
        rng.pick(&FIRST),
        rng.pick(&LAST),
        rng.below(100),
        rng.pick(&ORGS)
    );
    // One request every ~0.3 s from 2025-10-01 on.
    let seconds = index as u64 * 3 / 10 + rng.below(2);
    let date = format!(
        "{:02}/{}/2025:{:02}:{:02}:{:02} +0000",
        1 + (seconds / 86_400) % 28,
        MONTHS[(9 + seconds / (28 * 86_400)) as usize % 12],
        (seconds / 3600) % 24,
        (seconds / 60) % 60,
        seconds % 60
    );
    let mut path = String::new();
    for _ in 0..rng.range(1, 4) {
        path.push('/');
        path.push_str(rng.pick::<&str>(&SEGMENTS));
    }
    path.push_str(&format!("/{}", rng.range(1, 999_999)));
    path.push_str(rng.pick::<&str>(&EXTENSIONS));
    if rng.percent(30) {
        path.push_str(&format!("?page={}&sort=price", rng.range(1, 50)));
    }
    let request = at_most(format!("{} {path} HTTP/1.1", rng.pick(&METHODS)), 80);
    let code = *rng.pick(&CODES);
    let magnitude = rng.range(8, 21);
    let size = match code {
        304 => 0,
        _ => rng.below(1 << magnitude),
    };
    LogEntry {
        address,
        identity,
        userid,
        date,
        request,
        code,
        size,
    }
}

impl Dataset for LogBatch {
    const NAME: &'static str = "log";
    const LEN: usize = 10_000;

    fn generate(len: usize) -> Self {
        let mut rng = Rng::new(0x6c6f_6700_0000_0004);
        Self {
            entries: (0..len).map(|i| entry(&mut rng, i)).collect(),
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.len(self.entries.len());
        for e in &self.entries {
            fold_entry(
                &mut f,
                e.address,
                [&e.identity, &e.userid, &e.date, &e.request],
                e.code,
                e.size,
            );
        }
        f.finish()
    }

    fn checksum_some(&self) -> Option<u64> {
        Some(fold_some(&self.entries, |e| {
            some_entry(e.address, e.code, e.size)
        }))
    }

    fn apply_update(&mut self, round: u64) {
        for (i, e) in self.entries.iter_mut().enumerate() {
            (e.code, e.size) = new_code_size(round, i);
        }
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor);
    }
}

// ---- wiremsg ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { wiremsg_view::<LogBatch, CHECKED>(bytes) };
    let entries = batch.entries();
    let mut f = Fold::new();
    f.len(entries.len());
    for e in entries {
        fold_entry(
            &mut f,
            e.address().to_array(),
            [e.identity(), e.userid(), e.date(), e.request()],
            e.code(),
            e.size(),
        );
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn some_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { wiremsg_view::<LogBatch, CHECKED>(bytes) };
    fold_some(batch.entries(), |e| {
        some_entry(e.address().to_array(), e.code(), e.size())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let mut batch = unsafe { wiremsg_mut::<LogBatch, CHECKED>(bytes) };
    // Indexed `get_mut` rather than `iter_mut`: on this table list the
    // iterator measured about twice as slow.
    let mut entries = batch.entries_mut();
    for i in 0..entries.len() {
        let (code, size) = new_code_size(round, i);
        let mut e = entries.get_mut(i).expect("wiremsg: index below len");
        e.set_code(code);
        e.set_size(size);
    }
}

/// `read_lazy`: the fold of `read`, every field checked as it is read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let batch = LogBatch::view_lazy(bytes)?;
    let entries = batch.entries()?;
    let mut f = Fold::new();
    f.len(entries.len());
    for e in entries {
        let e = e?;
        fold_entry(
            &mut f,
            e.address()?.to_array(),
            [e.identity()?, e.userid()?, e.date()?, e.request()?],
            e.code()?,
            e.size()?,
        );
    }
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each checked as it is read.
#[inline(always)]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let batch = LogBatch::view_lazy(bytes)?;
    try_fold_some(batch.entries()?, |e| {
        Ok(some_entry(e.address()?.to_array(), e.code()?, e.size()?))
    })
}

// ---- rkyv ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root::<ArchivedLogBatch, CHECKED>(bytes) };
    let mut f = Fold::new();
    f.len(batch.entries.len());
    for e in batch.entries.iter() {
        fold_entry(
            &mut f,
            e.address,
            [&e.identity, &e.userid, &e.date, &e.request],
            e.code.to_native(),
            e.size.to_native(),
        );
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn some_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root::<ArchivedLogBatch, CHECKED>(bytes) };
    fold_some(batch.entries.iter(), |e| {
        some_entry(e.address, e.code.to_native(), e.size.to_native())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root_mut::<ArchivedLogBatch, CHECKED>(bytes) };
    munge!(let ArchivedLogBatch { entries } = batch);
    let mut entries = ArchivedVec::as_slice_seal(entries);
    for i in 0..entries.len() {
        let (new_code, new_size) = new_code_size(round, i);
        let e = entries.as_mut().index(i);
        munge!(let ArchivedLogEntry { mut code, mut size, .. } = e);
        *code = rkyv::Archived::<u16>::from_native(new_code);
        *size = rkyv::Archived::<u64>::from_native(new_size);
    }
}

derived_codecs!(
    LogBatch,
    ArchivedLogBatch,
    read: (read_wiremsg, read_rkyv),
    read_some: (some_wiremsg, some_rkyv),
    update: (update_wiremsg, update_rkyv),
    read_lazy: read_lazy_wiremsg,
    read_some_lazy: some_lazy_wiremsg,
);

// ---- FlatBuffers ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { fb_root::<fb::LogBatch<'_>, CHECKED>(bytes) };
    let entries = batch.entries();
    let mut f = Fold::new();
    f.len(entries.len());
    for e in entries {
        fold_entry(
            &mut f,
            e.address().octets().into(),
            [e.identity(), e.userid(), e.date(), e.request()],
            e.code(),
            e.size(),
        );
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline(always)]
unsafe fn some_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { fb_root::<fb::LogBatch<'_>, CHECKED>(bytes) };
    fold_some(batch.entries(), |e| {
        some_entry(e.address().octets().into(), e.code(), e.size())
    })
}

impl Codec<LogBatch> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &LogBatch) -> &[u8] {
        let b = &mut self.builder;
        b.reset();
        self.log_entries.clear();
        for e in &data.entries {
            let identity = b.create_string(&e.identity);
            let userid = b.create_string(&e.userid);
            let date = b.create_string(&e.date);
            let request = b.create_string(&e.request);
            let address = fb::Address::new(&e.address);
            self.log_entries.push(fb::LogEntry::create(
                b,
                &fb::LogEntryArgs {
                    address: Some(&address),
                    identity: Some(identity),
                    userid: Some(userid),
                    date: Some(date),
                    request: Some(request),
                    code: e.code,
                    size: e.size,
                },
            ));
        }
        let entries = b.create_vector(&self.log_entries);
        let root = fb::LogBatch::create(
            b,
            &fb::LogBatchArgs {
                entries: Some(entries),
            },
        );
        b.finish_minimal(root);
        b.finished_data()
    }

    fn decode(&self, bytes: &[u8]) -> LogBatch {
        let batch = root::<fb::LogBatch<'_>>(bytes);
        LogBatch {
            entries: batch
                .entries()
                .iter()
                .map(|e| LogEntry {
                    address: e.address().octets().into(),
                    identity: e.identity().to_owned(),
                    userid: e.userid().to_owned(),
                    date: e.date().to_owned(),
                    request: e.request().to_owned(),
                    code: e.code(),
                    size: e.size(),
                })
                .collect(),
        }
    }

    fb_access_methods!(fb::LogBatch<'_>);

    read_methods!(read_fb);
    read_some_methods!(some_fb);
}

// ---- capnp ----

/// `read`: every field, each checked as it is read (the list's pointer, each
/// text's pointer and UTF-8).
#[inline(always)]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let entries = message
        .get_root::<pc::log_batch::Reader<'_>>()?
        .get_entries()?;
    let mut f = Fold::new();
    f.len(entries.len() as usize);
    for e in entries {
        fold_entry(
            &mut f,
            e.get_address().to_le_bytes(),
            [
                text(e.get_identity()?)?,
                text(e.get_userid()?)?,
                text(e.get_date()?)?,
                text(e.get_request()?)?,
            ],
            e.get_code(),
            e.get_size(),
        );
    }
    Ok(f.finish())
}

/// `read_some`: `address`, `code` and `size` of every entry (the list's
/// pointer checked; the fields are in each entry's data section).
#[inline(always)]
fn some_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let entries = message
        .get_root::<pc::log_batch::Reader<'_>>()?
        .get_entries()?;
    Ok(fold_some(entries, |e| {
        some_entry(e.get_address().to_le_bytes(), e.get_code(), e.get_size())
    }))
}

impl Codec<LogBatch> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &LogBatch) -> &[u8] {
        self.encode_root::<pc::log_batch::Owned>(|root| {
            let mut entries = root.init_entries(data.entries.len() as u32);
            for (i, e) in data.entries.iter().enumerate() {
                let mut out = entries.reborrow().get(i as u32);
                out.set_address(u32::from_le_bytes(e.address));
                out.set_identity(&e.identity);
                out.set_userid(&e.userid);
                out.set_date(&e.date);
                out.set_request(&e.request);
                out.set_code(e.code);
                out.set_size(e.size);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> LogBatch {
        let decode = || -> capnp::Result<LogBatch> {
            let message = capnp_message(bytes)?;
            let entries = message
                .get_root::<pc::log_batch::Reader<'_>>()?
                .get_entries()?;
            let mut out = Vec::with_capacity(entries.len() as usize);
            for e in entries {
                out.push(LogEntry {
                    address: e.get_address().to_le_bytes(),
                    identity: text(e.get_identity()?)?.to_owned(),
                    userid: text(e.get_userid()?)?.to_owned(),
                    date: text(e.get_date()?)?.to_owned(),
                    request: text(e.get_request()?)?.to_owned(),
                    code: e.get_code(),
                    size: e.get_size(),
                });
            }
            Ok(LogBatch { entries: out })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::log_batch::Reader<'_>, read: read_capnp, read_some: some_capnp);
}

// ---- prost ----

/// What prost-build would generate for
/// `message LogEntry { fixed32 address = 1; string identity = 2; string userid = 3;
/// string date = 4; string request = 5; uint32 code = 6; uint64 size = 7; }`
/// (the address as a little-endian `fixed32`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct LogEntryPb {
    /// Address octets, little-endian.
    #[prost(fixed32, tag = "1")]
    pub address: u32,
    /// Identity.
    #[prost(string, tag = "2")]
    pub identity: String,
    /// User id.
    #[prost(string, tag = "3")]
    pub userid: String,
    /// Date.
    #[prost(string, tag = "4")]
    pub date: String,
    /// Request line.
    #[prost(string, tag = "5")]
    pub request: String,
    /// HTTP status.
    #[prost(uint32, tag = "6")]
    pub code: u32,
    /// Response bytes.
    #[prost(uint64, tag = "7")]
    pub size: u64,
}

/// `message LogBatch { repeated LogEntry entries = 1; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LogBatchPb {
    /// Entries.
    #[prost(message, repeated, tag = "1")]
    pub entries: Vec<LogEntryPb>,
}

fn entry_pb_len(e: &LogEntry) -> usize {
    let address = u32::from_le_bytes(e.address);
    fixed32_len(1, address == 0)
        + str_len(2, &e.identity)
        + str_len(3, &e.userid)
        + str_len(4, &e.date)
        + str_len(5, &e.request)
        + varint_len(6, u64::from(e.code))
        + varint_len(7, e.size)
}

fn encode_pb(data: &LogBatch, buf: &mut Vec<u8>) {
    for e in &data.entries {
        put_message_header(1, entry_pb_len(e), buf);
        let address = u32::from_le_bytes(e.address);
        put_fixed32(1, address, address == 0, buf);
        put_str(2, &e.identity, buf);
        put_str(3, &e.userid, buf);
        put_str(4, &e.date, buf);
        put_str(5, &e.request, buf);
        put_varint(6, u64::from(e.code), buf);
        put_varint(7, e.size, buf);
    }
}

impl Codec<LogBatch> for Protobuf {
    const ID: &'static str = ids::PROST;

    fn encode(&mut self, data: &LogBatch) -> &[u8] {
        self.buf.clear();
        encode_pb(data, &mut self.buf);
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> LogBatch {
        let batch: LogBatchPb = decode_pb(bytes);
        LogBatch {
            entries: batch
                .entries
                .into_iter()
                .map(|e| LogEntry {
                    address: e.address.to_le_bytes(),
                    identity: e.identity,
                    userid: e.userid,
                    date: e.date,
                    request: e.request,
                    code: u16::try_from(e.code).expect("prost: code out of range"),
                    size: e.size,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use prost::Message as _;

    use super::*;

    #[test]
    fn strings_are_10_to_80_bytes() {
        let batch = LogBatch::generate(LogBatch::LEN);
        assert_eq!(batch.entries.len(), 10_000);
        for e in &batch.entries {
            for s in [&e.identity, &e.userid, &e.date, &e.request] {
                assert!((10..=80).contains(&s.len()), "{s:?}: {} bytes", s.len());
            }
        }
    }

    #[test]
    fn capnp_checks_only_what_a_read_reaches() {
        let batch = LogBatch::generate(50);
        let mut bytes = crate::format::aligned_copy(Capnp::default().encode(&batch));
        // The last entry's request, no longer UTF-8.
        let request = batch.entries[49].request.as_bytes();
        let at = bytes
            .windows(request.len())
            .rposition(|w| w == request)
            .expect("the request's bytes are in the message");
        bytes[at] = 0xff;
        // The root and the entries' data sections are as they were: access and
        // the sparse read, which reach no text, succeed; the full read fails at
        // the text, with an error, not a panic.
        assert!(
            capnp_message(&bytes)
                .unwrap()
                .get_root::<pc::log_batch::Reader<'_>>()
                .is_ok()
        );
        let sparse = batch.checksum_some().unwrap();
        assert_eq!(some_capnp(&bytes).unwrap(), sparse);
        let err = read_capnp(&bytes).unwrap_err();
        assert!(err.to_string().contains("utf-8"), "{err}");
        // A list pointer past the segment's end is an error where it is read.
        let bytes = crate::format::aligned_copy(Capnp::default().encode(&batch));
        let mut cut = crate::format::aligned_copy(&bytes[..bytes.len() - 64]);
        // The segment table's word count, shrunk to what is left.
        let words = u32::try_from((cut.len() - 8) / 8).unwrap();
        cut[4..8].copy_from_slice(&words.to_le_bytes());
        assert!(capnp_message(&cut).is_ok());
        assert!(read_capnp(&cut).is_err());
    }

    #[test]
    fn hand_encoding_matches_derived_encoding() {
        let batch = LogBatch::generate(50);
        let pb = LogBatchPb {
            entries: batch
                .entries
                .iter()
                .map(|e| LogEntryPb {
                    address: u32::from_le_bytes(e.address),
                    identity: e.identity.clone(),
                    userid: e.userid.clone(),
                    date: e.date.clone(),
                    request: e.request.clone(),
                    code: u32::from(e.code),
                    size: e.size,
                })
                .collect(),
        };
        let mut buf = Vec::new();
        encode_pb(&batch, &mut buf);
        assert_eq!(buf, pb.encode_to_vec());
    }
}
