//! The data sets of the criterion benches (issue 4), one module each, and the
//! [`Codec`] trait through which every format is measured on them.
//!
//! | data set | module | what it is |
//! |---|---|---|
//! | `login` | [`login`] | R1 `LoginRequest` (one small message, two strings) |
//! | `order` | [`order`] | R2 `Order` (one message, nested, a list of 5 items) |
//! | `tick` | [`tick`] | R6 market tick (one 50-byte fixed-size message) |
//! | `log` | [`log`] | 10,000 web-server log entries, four strings each |
//! | `mesh` | [`mesh`] | 125,000 triangles, all fixed-size |
//! | `feed` | [`feed`] | 100,000 ITCH-style messages of 5 kinds, framed |
//! | `events` | [`events`] | the same messages as one message: a list of a tagged union |
//! | `player` | [`player`] | a game's save file: 500 players of 34 fields, many optional |
//! | `game` | [`game`] | 1,000 game-state updates of 20–40 contacts, some with a 1 KB blob |
//!
//! Every data set is generated deterministically (a fixed seed, [`Rng`]), so
//! every run and every format sees the same bytes of input. The benches in
//! `benches/benches/datasets.rs` name each measurement
//! `<dataset>/<metric>/<format>`, with the metrics of [`Codec`]; a format that
//! has no way to do a metric returns `None` there and is not measured (n/a).
//!
//! A data set that is one derived message (log, mesh, events, player, game)
//! gets its wiremsg, rkyv, postcard and JSON codecs from [`derived_codecs!`],
//! given its read folds (and, where it has the metrics, its `read_some`
//! folds and `update` stores); its module keeps the model, the generator,
//! those functions and the codecs of the formats with their own schema
//! (FlatBuffers, capnp, prost, zerocopy; FlatBuffers' `access` and
//! `access_unchecked` are [`fb_access_methods!`], capnp's `access`, `read`
//! and `read_some` `formats::capnp::capnp_methods!`). capnp has a codec on
//! every data set but the feed. The reference messages
//! (login, order, tick) delegate to the `compare` harness's impls
//! ([`reference_codecs!`]); the feed, a stream of frames, frames every codec
//! by hand. The player and game data sets have no prost column (their peers
//! are rkyv, FlatBuffers and the serde baselines).
//!
//! Every checked metric has an `_unchecked` twin that differs from it only in
//! how the root is reached: validated or trusted ([`wiremsg_view`],
//! [`rkyv_root`], [`fb_root`] and their mutable versions take a `CHECKED`
//! const parameter, and [`read_methods!`], [`read_some_methods!`] and
//! [`update_methods!`] make both trait methods from one such function).
//!
//! wiremsg alone has a third way in, on-demand validation (issue 32,
//! `WireMsg::view_lazy`): `access_lazy`, `read_lazy` and `read_some_lazy` are
//! `access`, `read` and `read_some` through the on-demand view, whose header
//! alone is checked up front and whose every accessor checks what it reads
//! and returns a `Result`. Their reads are each data set's own functions
//! (`fn(&[u8]) -> wiremsg::Result<u64>`, `?` at every accessor, as a user of
//! the API writes them), given to [`derived_codecs!`] or
//! [`reference_codecs!`] as `read_lazy:` and `read_some_lazy:`; their
//! validated peers are rkyv's `access` and `read_some`, and their on-demand
//! peers capnp's `access`, `read_some` and `read` (capnp has no up-front
//! check: every accessor checks what it reads, `formats::capnp`).

use crate::format::Valid;
use std::fmt;
use std::hint::black_box;

use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::rancor::Error as RkyvError;
use rkyv::seal::Seal;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use wiremsg::WireMsg;

use crate::checksum::Fold;
use crate::format::{AlignedBuf, aligned_copy};

pub mod events;
pub mod feed;
pub mod game;
pub mod log;
pub mod login;
pub mod mesh;
pub mod order;
pub mod player;
pub mod tick;

pub use events::Events;
pub use feed::Feed;
pub use game::GameState;
pub use log::LogBatch;
pub use mesh::Mesh;
pub use player::Players;

/// Format ids, as they appear in criterion ids and in the table's columns
/// (in this order).
pub mod ids {
    /// wiremsg.
    pub const WIREMSG: &str = "wiremsg";
    /// rkyv 0.8.
    pub const RKYV: &str = "rkyv";
    /// FlatBuffers 25.12.19.
    pub const FLATBUFFERS: &str = "flatbuffers";
    /// Cap'n Proto via capnp 0.27.3 (every data set but the feed).
    pub const CAPNP: &str = "capnp";
    /// Hand-written zerocopy 0.8 structs (fixed-size data sets only).
    pub const ZEROCOPY: &str = "zerocopy";
    /// SBE via ironsbe 0.8.0 (fixed-size data sets: tick, feed).
    pub const SBE: &str = "sbe";
    /// Protobuf via prost.
    pub const PROST: &str = "prost";
    /// postcard (serde).
    pub const POSTCARD: &str = "postcard";
    /// serde_json.
    pub const JSON: &str = "json";
    /// Every id, in column order.
    pub const ALL: [&str; 9] = [
        WIREMSG,
        RKYV,
        FLATBUFFERS,
        CAPNP,
        ZEROCOPY,
        SBE,
        PROST,
        POSTCARD,
        JSON,
    ];
}

/// The metrics, in the order of the table's rows (criterion ids use these):
/// each `_unchecked` metric right after its checked twin's group, then the
/// on-demand (`_lazy`) ones.
pub const METRICS: [&str; 13] = [
    "encode",
    "access",
    "read",
    "read_some",
    "access_unchecked",
    "read_unchecked",
    "read_some_unchecked",
    "access_lazy",
    "read_lazy",
    "read_some_lazy",
    "update",
    "update_unchecked",
    "decode",
];

/// A data set: the owned value every format encodes, and what every read path
/// must reproduce.
pub trait Dataset: Clone + PartialEq + fmt::Debug + 'static {
    /// First part of the criterion id: `login`, `order`, `tick`, `log`,
    /// `mesh`, `feed`, `events`, `player`, `game`.
    const NAME: &'static str;
    /// Elements in the benched instance (entries, triangles, messages; 1 for
    /// the single messages).
    const LEN: usize;

    /// The data set with `len` elements (`len` is ignored by the single
    /// messages), the same for the same `len` on every run.
    fn generate(len: usize) -> Self;

    /// Order-sensitive checksum of every field (see [`crate::checksum::Fold`]):
    /// what `read` and `read_unchecked` must return.
    fn checksum(&self) -> u64;

    /// The checksum of the sparse read: [`fold_some`] of the one to three
    /// fixed-size fields the data set's `read_some` loads from each element
    /// (log entries: `address`, `code`, `size`; order line items:
    /// `quantity`, `unit_price`; feed messages: `stock_locate`,
    /// `order_ref`; players: `id`, `level`, `health`; game contacts: `id`,
    /// `position.x`). What `read_some` and `read_some_unchecked` must return;
    /// `None` for a data set without the metric (login, tick, mesh).
    fn checksum_some(&self) -> Option<u64> {
        None
    }

    /// What `update(bytes, round)` (and `update_unchecked`) does to the
    /// encoded value, done to the owned one (the tests check that they
    /// agree).
    fn apply_update(&mut self, round: u64);

    /// Calls `visitor.visit::<C>()` for each format measured on this data set.
    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V);
}

/// One format on data set `D`: one column of the table.
///
/// `encode` fills the codec's own reused buffer. The read paths get bytes at
/// a 16-byte aligned address ([`AlignedBuf`]), which only rkyv needs. They
/// panic on bytes that are not a valid `D`: the benches only hand them what
/// `encode` produced, checked by [`verify`] before any timing.
pub trait Codec<D: Dataset>: Default {
    /// Column id (see [`ids`]).
    const ID: &'static str;

    /// `encode`: encodes `data` into the codec's reused buffer (cleared first,
    /// capacity kept) and returns the bytes.
    fn encode(&mut self, data: &D) -> &[u8];

    /// `decode`: the owned value.
    fn decode(&self, bytes: &[u8]) -> D;

    /// `access`: the validated view of the root, through [`black_box`], and
    /// nothing read. For the feed, which has no root, every message's view.
    fn access(&self, _bytes: &[u8]) -> Option<()> {
        None
    }

    /// `read`: validated access, then every field read into the checksum.
    fn read(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `read_some`: validated access, then only one to three fixed-size
    /// fields of every element loaded and folded ([`fold_some`]; which fields:
    /// [`Dataset::checksum_some`]), the checksum returned. Where `read` pays
    /// for every field, this is the cost of validation plus reaching each
    /// element: what a consumer that routes or filters on a few fields pays.
    fn read_some(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `access_unchecked`: like `access`, without validation.
    ///
    /// # Safety
    ///
    /// `bytes` is what this codec's `encode` returned for a `D`, at a 16-byte
    /// aligned address.
    unsafe fn access_unchecked(&self, _bytes: &[u8]) -> Option<()> {
        None
    }

    /// `read_unchecked`: like `read`, without validation.
    ///
    /// # Safety
    ///
    /// As [`Codec::access_unchecked`].
    unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `read_some_unchecked`: like `read_some`, without validation
    /// (wiremsg `view_unchecked`, rkyv `access_unchecked`, FlatBuffers
    /// `root_unchecked`).
    ///
    /// # Safety
    ///
    /// As [`Codec::access_unchecked`].
    unsafe fn read_some_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `access_lazy`: the on-demand view of the root (wiremsg `view_lazy`,
    /// which checks the header alone), through [`black_box`], and nothing
    /// read. For the feed, every message's.
    fn access_lazy(&self, _bytes: &[u8]) -> Option<()> {
        None
    }

    /// `read_lazy`: the on-demand view, then every field `read` folds, each
    /// checked as it is read: the checksum of `read`.
    fn read_lazy(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `read_some_lazy`: the on-demand view, then the fields `read_some`
    /// loads, each checked as it is read (and the path to it: the list's
    /// header, the element's block): the checksum of `read_some`.
    fn read_some_lazy(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// `update`: overwrites the data set's fixed-size fields in place, with
    /// the values [`Dataset::apply_update`] gives for `round` (through the
    /// format's validated mutable access).
    fn update(&self, _bytes: &mut [u8], _round: u64) -> Option<()> {
        None
    }

    /// `update_unchecked`: the same stores as `update`, through the format's
    /// unchecked mutable access (wiremsg `view_mut_unchecked`, rkyv
    /// `access_unchecked_mut`).
    ///
    /// # Safety
    ///
    /// `bytes` is what this codec's `encode` returned for a `D`, possibly
    /// changed since by `update` or `update_unchecked`, at a 16-byte aligned
    /// address.
    unsafe fn update_unchecked(&self, _bytes: &mut [u8], _round: u64) -> Option<()> {
        None
    }
}

/// Visits the formats of one data set (see [`Dataset::codecs`]).
pub trait CodecVisitor<D: Dataset> {
    /// Called once per format.
    fn visit<C: Codec<D>>(&mut self);
}

/// Visits every data set (see [`for_each_dataset`]).
pub trait DatasetVisitor {
    /// Called once per data set.
    fn visit<D: Dataset>(&mut self);
}

/// Every data set, in table order.
pub fn for_each_dataset<V: DatasetVisitor>(visitor: &mut V) {
    use crate::model::{LoginRequest, Order, Tick};
    visitor.visit::<LoginRequest>();
    visitor.visit::<Order>();
    visitor.visit::<Tick>();
    visitor.visit::<LogBatch>();
    visitor.visit::<Mesh>();
    visitor.visit::<Feed>();
    visitor.visit::<Events>();
    visitor.visit::<Players>();
    visitor.visit::<GameState>();
}

/// The names of the data sets, in table order.
pub fn dataset_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl DatasetVisitor for Names {
        fn visit<D: Dataset>(&mut self) {
            self.0.push(D::NAME);
        }
    }
    let mut names = Names(Vec::new());
    for_each_dataset(&mut names);
    names.0
}

/// The hand-written zerocopy 0.8 structs (`#[repr(C)]`, little-endian field
/// types, no padding, no alignment): the physical-limit reference for the
/// fixed-size data sets (tick, mesh, feed). Validation is zerocopy's size
/// check; every field read is one load.
#[derive(Debug, Default)]
pub struct Zerocopy {
    pub(crate) buf: Vec<u8>,
}

/// Which metrics a codec has, as [`verify`] found them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// `access`.
    pub access: bool,
    /// `read`.
    pub read: bool,
    /// `read_some`.
    pub read_some: bool,
    /// `access_unchecked`.
    pub access_unchecked: bool,
    /// `read_unchecked`.
    pub read_unchecked: bool,
    /// `read_some_unchecked`.
    pub read_some_unchecked: bool,
    /// `access_lazy`.
    pub access_lazy: bool,
    /// `read_lazy`.
    pub read_lazy: bool,
    /// `read_some_lazy`.
    pub read_some_lazy: bool,
    /// `update`.
    pub update: bool,
    /// `update_unchecked`.
    pub update_unchecked: bool,
}

/// What [`verify`] established about a codec on a data set.
#[derive(Debug)]
pub struct Verified {
    /// The encoded data set, 16-byte aligned.
    pub bytes: AlignedBuf,
    /// The metrics the codec has.
    pub has: Capabilities,
}

/// Encodes `data` twice (the second time into the reused buffer), then checks
/// every metric the codec has against the model: `read`, `read_unchecked`
/// and `read_lazy` return [`Dataset::checksum`], `read_some`,
/// `read_some_unchecked` and `read_some_lazy` return
/// [`Dataset::checksum_some`] (so a sparse read cannot silently read nothing
/// or the wrong fields), `decode` gives `data` back, `update` (round 7) and
/// `update_unchecked` (round 11, on a fresh copy) then `decode` give
/// [`Dataset::apply_update`]'s value.
///
/// # Errors
///
/// The first mismatch, in words.
pub fn verify<D: Dataset, C: Codec<D>>(codec: &mut C, data: &D) -> Result<Verified, String> {
    let fail = |what: String| format!("{}/{}: {what}", D::NAME, C::ID);
    let first = aligned_copy(codec.encode(data));
    let bytes = aligned_copy(codec.encode(data));
    if first[..] != bytes[..] {
        return Err(fail("encoding twice gave different bytes".into()));
    }
    let want = data.checksum();
    let mut has = Capabilities {
        access: codec.access(&bytes).is_some(),
        ..Capabilities::default()
    };
    if let Some(got) = codec.read(&bytes) {
        has.read = true;
        if got != want {
            return Err(fail(format!("read checksum {got:#x} != model {want:#x}")));
        }
    }
    let want_some = data.checksum_some();
    let check_some = |metric: &str, got: u64| match want_some {
        Some(want) if got == want => Ok(()),
        Some(want) => Err(fail(format!(
            "{metric} checksum {got:#x} != model {want:#x}"
        ))),
        None => Err(fail(format!(
            "{metric} exists but the data set has no checksum_some"
        ))),
    };
    if let Some(got) = codec.read_some(&bytes) {
        has.read_some = true;
        check_some("read_some", got)?;
    }
    // SAFETY: `bytes` is this codec's own encoding of `data`, in an aligned
    // buffer.
    has.access_unchecked = unsafe { codec.access_unchecked(&bytes) }.is_some();
    // SAFETY: as above.
    if let Some(got) = unsafe { codec.read_unchecked(&bytes) } {
        has.read_unchecked = true;
        if got != want {
            return Err(fail(format!(
                "read_unchecked checksum {got:#x} != model {want:#x}"
            )));
        }
    }
    // SAFETY: as above.
    if let Some(got) = unsafe { codec.read_some_unchecked(&bytes) } {
        has.read_some_unchecked = true;
        check_some("read_some_unchecked", got)?;
    }
    has.access_lazy = codec.access_lazy(&bytes).is_some();
    if let Some(got) = codec.read_lazy(&bytes) {
        has.read_lazy = true;
        if got != want {
            return Err(fail(format!(
                "read_lazy checksum {got:#x} != model {want:#x}"
            )));
        }
    }
    if let Some(got) = codec.read_some_lazy(&bytes) {
        has.read_some_lazy = true;
        check_some("read_some_lazy", got)?;
    }
    let decoded = codec.decode(&bytes);
    if decoded != *data {
        return Err(fail("decode does not give the model back".into()));
    }
    let updated_as_model = |updated: &[u8], round: u64| {
        let mut want = data.clone();
        want.apply_update(round);
        codec.decode(updated) == want
    };
    let mut updated = bytes.clone();
    if codec.update(&mut updated, 7).is_some() {
        has.update = true;
        if !updated_as_model(&updated, 7) {
            return Err(fail("update then decode differs from apply_update".into()));
        }
    }
    let mut updated = bytes.clone();
    // SAFETY: `updated` is a copy of this codec's encoding, in an aligned
    // buffer.
    if unsafe { codec.update_unchecked(&mut updated, 11) }.is_some() {
        has.update_unchecked = true;
        if !updated_as_model(&updated, 11) {
            return Err(fail(
                "update_unchecked then decode differs from apply_update".into(),
            ));
        }
    }
    Ok(Verified { bytes, has })
}

/// Runs [`verify`] on every format of every data set, each with `len`
/// elements; returns `(dataset, format, capabilities)` for each pair.
///
/// # Errors
///
/// The first mismatch.
pub fn verify_all(len: usize) -> Result<Vec<(&'static str, &'static str, Capabilities)>, String> {
    type Found = Vec<(&'static str, &'static str, Capabilities)>;
    struct All {
        len: usize,
        found: Result<Found, String>,
    }
    struct One<'a, D> {
        data: &'a D,
        found: &'a mut Result<Found, String>,
    }
    impl<D: Dataset> CodecVisitor<D> for One<'_, D> {
        fn visit<C: Codec<D>>(&mut self) {
            if let Ok(found) = self.found {
                match verify(&mut C::default(), self.data) {
                    Ok(v) => found.push((D::NAME, C::ID, v.has)),
                    Err(e) => *self.found = Err(e),
                }
            }
        }
    }
    impl DatasetVisitor for All {
        fn visit<D: Dataset>(&mut self) {
            let data = D::generate(self.len);
            D::codecs(&mut One {
                data: &data,
                found: &mut self.found,
            });
        }
    }
    let mut all = All {
        len,
        found: Ok(Vec::new()),
    };
    for_each_dataset(&mut all);
    all.found
}

/// Encoded size of one data set in one format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Size {
    /// Data set name.
    pub dataset: &'static str,
    /// Format id.
    pub format: &'static str,
    /// Bytes.
    pub bytes: usize,
    /// Bytes after zstd (level [`ZSTD_LEVEL`]).
    pub zstd: usize,
}

/// The zstd level of [`Size::zstd`] (zstd's default).
pub const ZSTD_LEVEL: i32 = 3;

/// Encoded and zstd-compressed sizes of every data set (at its full
/// [`Dataset::LEN`]) in every format.
pub fn sizes() -> Vec<Size> {
    struct Sizes(Vec<Size>);
    struct One<'a, D> {
        data: &'a D,
        out: &'a mut Vec<Size>,
    }
    impl<D: Dataset> CodecVisitor<D> for One<'_, D> {
        fn visit<C: Codec<D>>(&mut self) {
            let mut codec = C::default();
            let bytes = codec.encode(self.data);
            let zstd = zstd_len(bytes);
            self.out.push(Size {
                dataset: D::NAME,
                format: C::ID,
                bytes: bytes.len(),
                zstd,
            });
        }
    }
    impl DatasetVisitor for Sizes {
        fn visit<D: Dataset>(&mut self) {
            let data = D::generate(D::LEN);
            D::codecs(&mut One {
                data: &data,
                out: &mut self.0,
            });
        }
    }
    let mut sizes = Sizes(Vec::new());
    for_each_dataset(&mut sizes);
    sizes.0
}

/// Bytes of `bytes` after zstd at [`ZSTD_LEVEL`].
fn zstd_len(bytes: &[u8]) -> usize {
    zstd::bulk::compress(bytes, ZSTD_LEVEL)
        .expect("zstd: compressing into a Vec cannot fail")
        .len()
}

/// The feed (at its full [`Dataset::LEN`]) as wiremsg frames a stream
/// ([`feed::wiremsg_stream`], FORMAT.md §10), beside [`sizes`]' row of the data set's
/// own frames, which every format shares.
pub fn feed_stream_size() -> Size {
    let stream = feed::wiremsg_stream(&Feed::generate(Feed::LEN));
    Size {
        dataset: Feed::NAME,
        format: ids::WIREMSG,
        bytes: stream.len(),
        zstd: zstd_len(&stream),
    }
}

/// A small deterministic generator (splitmix64): the data sets need
/// reproducible variety, not statistical quality.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// One element of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A float in `[lo, hi)`.
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }

    /// True with probability `percent / 100`.
    pub fn percent(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

// ---- helpers shared by the data set modules ----

/// rkyv: serializes `value` into `buf` (cleared first, capacity kept).
pub(crate) fn rkyv_encode<'b, T>(buf: &'b mut AlignedVec<16>, value: &T) -> &'b [u8]
where
    T: for<'a> rkyv::Serialize<HighSerializer<AlignedVec<16>, ArenaHandle<'a>, RkyvError>>,
{
    // `to_bytes_in` takes its writer by value: move the buffer through it to
    // keep its capacity.
    let mut out = std::mem::take(buf);
    out.clear();
    *buf = rkyv::api::high::to_bytes_in::<_, RkyvError>(value, out)
        .expect("rkyv: serialize into a Vec cannot fail");
    buf
}

/// rkyv: the validated archived root.
#[inline(always)]
pub(crate) fn rkyv_access<T>(bytes: &[u8]) -> &T
where
    T: rkyv::Portable + for<'a> CheckBytes<HighValidator<'a, RkyvError>>,
{
    rkyv::access::<T, RkyvError>(bytes).valid("rkyv")
}

/// The fold of `read_some` (and [`Dataset::checksum_some`]): for every element
/// in order, the fixed-size fields `pick` loads from it (one to three), each
/// as a `u64`. The data sets share this shape; each says which fields.
#[inline(always)]
pub fn fold_some<E, const N: usize>(
    elements: impl IntoIterator<Item = E>,
    mut pick: impl FnMut(E) -> [u64; N],
) -> u64 {
    let mut f = Fold::new();
    for element in elements {
        for value in pick(element) {
            f.u64(value);
        }
    }
    f.finish()
}

/// [`fold_some`] over elements read on demand: each element (a `Result`, as a
/// [`wiremsg::LazyList`]'s iterator yields them) and each `pick` may fail, and
/// the first error is returned; over valid bytes, the same checksum.
///
/// # Errors
///
/// The first element's or `pick`'s error.
#[inline(always)]
pub fn try_fold_some<E, const N: usize>(
    elements: impl IntoIterator<Item = wiremsg::Result<E>>,
    mut pick: impl FnMut(E) -> wiremsg::Result<[u64; N]>,
) -> wiremsg::Result<u64> {
    let mut f = Fold::new();
    for element in elements {
        for value in pick(element?)? {
            f.u64(value);
        }
    }
    Ok(f.finish())
}

/// [`Fold::list`] over a list read on demand: its length, then `each` of
/// every element, the first error returned.
///
/// # Errors
///
/// The first element's or `each`'s error.
#[inline(always)]
pub fn try_fold_list<T>(
    f: &mut Fold,
    items: impl ExactSizeIterator<Item = wiremsg::Result<T>>,
    mut each: impl FnMut(&mut Fold, T) -> wiremsg::Result<()>,
) -> wiremsg::Result<()> {
    f.len(items.len());
    for item in items {
        each(f, item?)?;
    }
    Ok(())
}

/// wiremsg: the view of `bytes`, validated (`view`) if `CHECKED`, else
/// trusted (`view_unchecked`, O(1)).
///
/// # Safety
///
/// Unless `CHECKED`, `T::view(bytes)` is `Ok` (`bytes` is `encode`'s output).
#[inline(always)]
pub(crate) unsafe fn wiremsg_view<T: WireMsg, const CHECKED: bool>(bytes: &[u8]) -> T::View<'_> {
    if CHECKED {
        T::view(bytes).valid("wiremsg")
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { T::view_unchecked(bytes) }
    }
}

/// wiremsg: the mutable view of `bytes`, validated (`view_mut`) if
/// `CHECKED`, else trusted (`view_mut_unchecked`, O(1)).
///
/// # Safety
///
/// As [`wiremsg_view`].
#[inline(always)]
pub(crate) unsafe fn wiremsg_mut<T: WireMsg, const CHECKED: bool>(bytes: &mut [u8]) -> T::Mut<'_> {
    if CHECKED {
        T::view_mut(bytes).valid("wiremsg")
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { T::view_mut_unchecked(bytes) }
    }
}

/// rkyv: the archived root, validated by bytecheck (`access`) if `CHECKED`,
/// else trusted (`access_unchecked`).
///
/// # Safety
///
/// Unless `CHECKED`, `bytes` is a valid archive of `T` (`encode`'s output) at
/// an address aligned for `T`.
#[inline(always)]
pub(crate) unsafe fn rkyv_root<T, const CHECKED: bool>(bytes: &[u8]) -> &T
where
    T: rkyv::Portable + for<'a> CheckBytes<HighValidator<'a, RkyvError>>,
{
    if CHECKED {
        rkyv_access::<T>(bytes)
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { rkyv::access_unchecked::<T>(bytes) }
    }
}

/// rkyv: the sealed mutable root, validated (`access_mut`) if `CHECKED`,
/// else trusted (`access_unchecked_mut`).
///
/// # Safety
///
/// As [`rkyv_root`].
#[inline(always)]
pub(crate) unsafe fn rkyv_root_mut<T, const CHECKED: bool>(bytes: &mut [u8]) -> Seal<'_, T>
where
    T: rkyv::Portable + for<'a> CheckBytes<HighValidator<'a, RkyvError>>,
{
    if CHECKED {
        rkyv::access_mut::<T, RkyvError>(bytes).valid("rkyv")
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { rkyv::access_unchecked_mut::<T>(bytes) }
    }
}

/// FlatBuffers: the root table, verified (`root`) if `CHECKED`, else trusted
/// (`root_unchecked`).
///
/// # Safety
///
/// Unless `CHECKED`, `bytes` is a finished buffer with root `T`
/// (`encode`'s output).
#[inline(always)]
pub(crate) unsafe fn fb_root<'a, T, const CHECKED: bool>(bytes: &'a [u8]) -> T::Inner
where
    T: flatbuffers::Follow<'a> + flatbuffers::Verifiable + 'a,
{
    if CHECKED {
        crate::formats::flatbuffers::root::<T>(bytes)
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { flatbuffers::root_unchecked::<T>(bytes) }
    }
}

/// rkyv: deserializes a validated archive.
pub(crate) fn rkyv_decode<T, A>(bytes: &[u8]) -> T
where
    A: rkyv::Portable
        + for<'a> CheckBytes<HighValidator<'a, RkyvError>>
        + rkyv::Deserialize<T, HighDeserializer<RkyvError>>,
{
    rkyv::deserialize::<T, RkyvError>(rkyv_access::<A>(bytes)).expect("rkyv: deserialize")
}

/// postcard: serializes `value` into `buf` (cleared first, capacity kept).
pub(crate) fn postcard_encode<'b, T: serde::Serialize>(
    buf: &'b mut Vec<u8>,
    value: &T,
) -> &'b [u8] {
    let mut out = std::mem::take(buf);
    out.clear();
    *buf = postcard::to_extend(value, out).expect("postcard: encode into a Vec cannot fail");
    buf
}

/// serde_json: compact JSON of `value` into `buf` (cleared first).
pub(crate) fn json_encode<'b, T: serde::Serialize>(buf: &'b mut Vec<u8>, value: &T) -> &'b [u8] {
    buf.clear();
    serde_json::to_writer(&mut *buf, value).expect("serde_json: encode into a Vec cannot fail");
    buf
}

/// Passes a view through [`black_box`]: what `access` returns.
#[inline(always)]
pub(crate) fn keep<T>(view: T) -> Option<()> {
    black_box(view);
    Some(())
}

/// The `read_some` and `read_some_unchecked` methods of a [`Codec`] impl, from
/// `$some`: an `unsafe fn $some<const CHECKED: bool>(bytes: &[u8]) -> u64`
/// that reaches the data through the format's validated access if `CHECKED`
/// (else its unchecked one; see [`wiremsg_view`], [`rkyv_root`],
/// [`fb_root`]) and returns the [`fold_some`] of the data set's sparse
/// fields. Its safety requirement without `CHECKED` must be the one of
/// [`Codec::read_some_unchecked`].
macro_rules! read_some_methods {
    ($some:ident) => {
        fn read_some(&self, bytes: &[u8]) -> Option<u64> {
            // SAFETY: with CHECKED, `$some` validates: nothing to uphold.
            Some(unsafe { $some::<true>(bytes) })
        }

        unsafe fn read_some_unchecked(&self, bytes: &[u8]) -> Option<u64> {
            // SAFETY: the caller guarantees `encode`'s output at an aligned
            // address, which is what `$some` needs without CHECKED.
            Some(unsafe { $some::<false>(bytes) })
        }
    };
}
pub(crate) use read_some_methods;

/// The `update` and `update_unchecked` methods of a [`Codec`] impl, from
/// `$update`: an `unsafe fn $update<const CHECKED: bool>(bytes: &mut [u8],
/// round: u64)` that makes the stores of [`Dataset::apply_update`] through
/// the format's validated mutable access if `CHECKED` (else its unchecked
/// one; see [`wiremsg_mut`], [`rkyv_root_mut`]). Its safety requirement
/// without `CHECKED` must be the one of [`Codec::update_unchecked`].
macro_rules! update_methods {
    ($update:ident) => {
        fn update(&self, bytes: &mut [u8], round: u64) -> Option<()> {
            // SAFETY: with CHECKED, `$update` validates: nothing to uphold.
            unsafe { $update::<true>(bytes, round) };
            Some(())
        }

        unsafe fn update_unchecked(&self, bytes: &mut [u8], round: u64) -> Option<()> {
            // SAFETY: the caller guarantees `encode`'s output (updated or
            // not) at an aligned address, which is what `$update` needs
            // without CHECKED.
            unsafe { $update::<false>(bytes, round) };
            Some(())
        }
    };
}
pub(crate) use update_methods;

/// The `read` and `read_unchecked` methods of a [`Codec`] impl, from `$read`:
/// an `unsafe fn $read<const CHECKED: bool>(bytes: &[u8]) -> u64` that reaches
/// the data as [`read_some_methods!`]'s function does and returns the fold of
/// every field ([`Dataset::checksum`]).
macro_rules! read_methods {
    ($read:ident) => {
        fn read(&self, bytes: &[u8]) -> Option<u64> {
            // SAFETY: with CHECKED, `$read` validates: nothing to uphold.
            Some(unsafe { $read::<true>(bytes) })
        }

        unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
            // SAFETY: the caller guarantees `encode`'s output at an aligned
            // address, which is what `$read` needs without CHECKED.
            Some(unsafe { $read::<false>(bytes) })
        }
    };
}
pub(crate) use read_methods;

/// The `access` and `access_unchecked` methods of a FlatBuffers [`Codec`]
/// impl whose root table is `$root` (`fb::LogBatch<'_>`): the verified root
/// (`root`) or the trusted one (`root_unchecked`), through [`keep`].
macro_rules! fb_access_methods {
    ($root:ty) => {
        fn access(&self, bytes: &[u8]) -> Option<()> {
            $crate::datasets::keep($crate::formats::flatbuffers::root::<$root>(bytes))
        }

        unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
            // SAFETY: the caller guarantees `bytes` is `encode`'s output: a
            // finished buffer with this root table.
            $crate::datasets::keep(unsafe { flatbuffers::root_unchecked::<$root>(bytes) })
        }
    };
}
pub(crate) use fb_access_methods;

/// The on-demand methods of wiremsg's [`Codec`] impl on data set `$ty` (one
/// derived message): `access_lazy` always (the root's `view_lazy`, through
/// [`keep`]), and, where given, `read_lazy` and `read_some_lazy` from the
/// data set's `fn(&[u8]) -> wiremsg::Result<u64>` reads, the error a panic
/// ([`Valid`]).
macro_rules! lazy_methods {
    (
        $ty:ty
        $(, read_lazy: $read_lazy:ident)?
        $(, read_some_lazy: $some_lazy:ident)?
    ) => {
        fn access_lazy(&self, bytes: &[u8]) -> Option<()> {
            $crate::datasets::keep(
                <$ty as ::wiremsg::WireMsg>::view_lazy(bytes).valid("wiremsg"),
            )
        }

        $(
            fn read_lazy(&self, bytes: &[u8]) -> Option<u64> {
                Some($read_lazy(bytes).valid("wiremsg"))
            }
        )?

        $(
            fn read_some_lazy(&self, bytes: &[u8]) -> Option<u64> {
                Some($some_lazy(bytes).valid("wiremsg"))
            }
        )?
    };
}
pub(crate) use lazy_methods;

/// Every codec a data set that is one derived message gets from its derives:
/// wiremsg and rkyv (`encode`, `access`, `access_unchecked`, `decode`) and the
/// serde baselines ([`serde_codecs!`]). `$archived` is rkyv's archived root
/// type. The metrics that walk the data are the data set's own functions,
/// each pair `(wiremsg_fn, rkyv_fn)` optional: `read:` as [`read_methods!`]
/// takes them (`read`, `read_unchecked`), `read_some:` as
/// [`read_some_methods!`] does, `update:` as [`update_methods!`] does; and
/// wiremsg's on-demand reads, `read_lazy:` and `read_some_lazy:`, as
/// [`lazy_methods!`] takes them (`access_lazy` needs none). What is
/// left to a data set's module: its model, its generator, those functions and
/// the codecs of the formats with a schema of their own (FlatBuffers, prost,
/// zerocopy).
macro_rules! derived_codecs {
    (
        $ty:ty, $archived:ty
        $(, read: ($wiremsg_read:ident, $rkyv_read:ident))?
        $(, read_some: ($wiremsg_some:ident, $rkyv_some:ident))?
        $(, update: ($wiremsg_update:ident, $rkyv_update:ident))?
        $(, read_lazy: $wiremsg_read_lazy:ident)?
        $(, read_some_lazy: $wiremsg_some_lazy:ident)?
        $(,)?
    ) => {
        impl $crate::datasets::Codec<$ty> for $crate::formats::wiremsg::Wiremsg {
            const ID: &'static str = $crate::datasets::ids::WIREMSG;

            $crate::datasets::lazy_methods!(
                $ty
                $(, read_lazy: $wiremsg_read_lazy)?
                $(, read_some_lazy: $wiremsg_some_lazy)?
            );

            fn encode(&mut self, data: &$ty) -> &[u8] {
                self.buf.clear();
                ::wiremsg::WireMsg::encode(data, &mut self.buf)
                    .expect("wiremsg: the data set is far below 4 GiB");
                &self.buf
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                <$ty as ::wiremsg::WireMsg>::decode(bytes).valid("wiremsg")
            }

            fn access(&self, bytes: &[u8]) -> Option<()> {
                $crate::datasets::keep(
                    <$ty as ::wiremsg::WireMsg>::view(bytes).valid("wiremsg"),
                )
            }

            unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
                // SAFETY: the caller guarantees `bytes` is `encode`'s output,
                // which `view` accepts.
                $crate::datasets::keep(unsafe { ::wiremsg::view_unchecked::<$ty>(bytes) })
            }

            $($crate::datasets::read_methods!($wiremsg_read);)?
            $($crate::datasets::read_some_methods!($wiremsg_some);)?
            $($crate::datasets::update_methods!($wiremsg_update);)?
        }

        impl $crate::datasets::Codec<$ty> for $crate::formats::rkyv::Rkyv {
            const ID: &'static str = $crate::datasets::ids::RKYV;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::datasets::rkyv_encode(&mut self.buf, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                $crate::datasets::rkyv_decode::<$ty, $archived>(bytes)
            }

            fn access(&self, bytes: &[u8]) -> Option<()> {
                $crate::datasets::keep($crate::datasets::rkyv_access::<$archived>(bytes))
            }

            unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
                // SAFETY: the caller guarantees `bytes` is `encode`'s output
                // at an aligned address: a valid archive.
                $crate::datasets::keep(unsafe { rkyv::access_unchecked::<$archived>(bytes) })
            }

            $($crate::datasets::read_methods!($rkyv_read);)?
            $($crate::datasets::read_some_methods!($rkyv_some);)?
            $($crate::datasets::update_methods!($rkyv_update);)?
        }

        $crate::datasets::serde_codecs!($ty);
    };
}
pub(crate) use derived_codecs;

/// The serde baselines (postcard, JSON) of a data set that is one serde
/// value: encode and decode only.
macro_rules! serde_codecs {
    ($ty:ty) => {
        impl $crate::datasets::Codec<$ty> for $crate::formats::postcard::Postcard {
            const ID: &'static str = $crate::datasets::ids::POSTCARD;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::datasets::postcard_encode(&mut self.buf, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                postcard::from_bytes(bytes).valid("postcard")
            }
        }

        impl $crate::datasets::Codec<$ty> for $crate::formats::json::Json {
            const ID: &'static str = $crate::datasets::ids::JSON;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::datasets::json_encode(&mut self.buf, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                serde_json::from_slice(bytes).valid("serde_json")
            }
        }
    };
}
pub(crate) use serde_codecs;

/// Codecs of a reference message (R1, R2, R6) that delegate encode, read and
/// decode to the `compare` harness's [`crate::Format`] impls, so that both
/// harnesses measure the same code; `access` and `access_unchecked` are added
/// here, and, where given, `update` / `update_unchecked` (`update:
/// (wiremsg_fn, rkyv_fn)`, each as [`update_methods!`] takes it),
/// `read_some` / `read_some_unchecked` (`read_some: (wiremsg_fn, rkyv_fn,
/// flatbuffers_fn)`, each as [`read_some_methods!`] takes it) and wiremsg's
/// on-demand reads (`read_lazy: wiremsg_fn`, `read_some_lazy: wiremsg_fn`,
/// as [`lazy_methods!`] takes them; `access_lazy` needs none).
macro_rules! reference_codecs {
    (
        $ty:ty, $archived:ty, $fb:ty
        $(, update: ($wiremsg_update:ident, $rkyv_update:ident))?
        $(, read_some: ($wiremsg_some:ident, $rkyv_some:ident, $fb_some:ident))?
        $(, read_lazy: $wiremsg_read_lazy:ident)?
        $(, read_some_lazy: $wiremsg_some_lazy:ident)?
        $(,)?
    ) => {
        impl $crate::datasets::Codec<$ty> for $crate::formats::wiremsg::Wiremsg {
            const ID: &'static str = $crate::datasets::ids::WIREMSG;

            $crate::datasets::lazy_methods!(
                $ty
                $(, read_lazy: $wiremsg_read_lazy)?
                $(, read_some_lazy: $wiremsg_some_lazy)?
            );

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::Format::<$ty>::encode(self, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                $crate::Format::<$ty>::decode(self, bytes)
            }

            fn access(&self, bytes: &[u8]) -> Option<()> {
                $crate::datasets::keep(
                    <$ty as ::wiremsg::WireMsg>::view(bytes).valid("wiremsg"),
                )
            }

            fn read(&self, bytes: &[u8]) -> Option<u64> {
                Some($crate::Format::<$ty>::read(self, bytes))
            }

            unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
                // SAFETY: the caller guarantees `bytes` is `encode`'s output,
                // which `view` accepts.
                $crate::datasets::keep(unsafe { ::wiremsg::view_unchecked::<$ty>(bytes) })
            }

            unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
                // SAFETY: the caller's guarantee is the one `Format` needs.
                unsafe { $crate::Format::<$ty>::read_unchecked(self, bytes) }
            }

            $($crate::datasets::update_methods!($wiremsg_update);)?
            $($crate::datasets::read_some_methods!($wiremsg_some);)?
        }

        impl $crate::datasets::Codec<$ty> for $crate::formats::rkyv::Rkyv {
            const ID: &'static str = $crate::datasets::ids::RKYV;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::Format::<$ty>::encode(self, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                $crate::Format::<$ty>::decode(self, bytes)
            }

            fn access(&self, bytes: &[u8]) -> Option<()> {
                $crate::datasets::keep($crate::datasets::rkyv_access::<$archived>(bytes))
            }

            fn read(&self, bytes: &[u8]) -> Option<u64> {
                Some($crate::Format::<$ty>::read(self, bytes))
            }

            unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
                // SAFETY: the caller guarantees `bytes` is `encode`'s output
                // at an aligned address: a valid archive.
                $crate::datasets::keep(unsafe { rkyv::access_unchecked::<$archived>(bytes) })
            }

            unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
                // SAFETY: the caller's guarantee is the one `Format` needs.
                unsafe { $crate::Format::<$ty>::read_unchecked(self, bytes) }
            }

            $($crate::datasets::update_methods!($rkyv_update);)?
            $($crate::datasets::read_some_methods!($rkyv_some);)?
        }

        impl $crate::datasets::Codec<$ty> for $crate::formats::flatbuffers::FlatBuffers {
            const ID: &'static str = $crate::datasets::ids::FLATBUFFERS;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::Format::<$ty>::encode(self, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                $crate::Format::<$ty>::decode(self, bytes)
            }

            $crate::datasets::fb_access_methods!($fb);

            fn read(&self, bytes: &[u8]) -> Option<u64> {
                Some($crate::Format::<$ty>::read(self, bytes))
            }

            unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
                // SAFETY: the caller's guarantee is the one `Format` needs.
                unsafe { $crate::Format::<$ty>::read_unchecked(self, bytes) }
            }

            $($crate::datasets::read_some_methods!($fb_some);)?
        }

        $crate::datasets::reference_codecs!(@baseline $ty, $crate::formats::protobuf::Protobuf, PROST);
        $crate::datasets::reference_codecs!(@baseline $ty, $crate::formats::postcard::Postcard, POSTCARD);
        $crate::datasets::reference_codecs!(@baseline $ty, $crate::formats::json::Json, JSON);
    };
    (@baseline $ty:ty, $format:ty, $id:ident) => {
        impl $crate::datasets::Codec<$ty> for $format {
            const ID: &'static str = $crate::datasets::ids::$id;

            fn encode(&mut self, data: &$ty) -> &[u8] {
                $crate::Format::<$ty>::encode(self, data)
            }

            fn decode(&self, bytes: &[u8]) -> $ty {
                $crate::Format::<$ty>::decode(self, bytes)
            }
        }
    };
}
pub(crate) use reference_codecs;

/// Visits the formats of a data set in column order ([`ids::ALL`]), with
/// zerocopy where `$zerocopy` is given, without capnp where `without_capnp`
/// follows it (the feed), or without prost (`without_prost`: the data sets
/// whose peers are rkyv, FlatBuffers, capnp and the serde baselines only,
/// player and game).
macro_rules! visit_formats {
    ($visitor:expr, without_prost) => {{
        use $crate::formats as f;
        $visitor.visit::<f::wiremsg::Wiremsg>();
        $visitor.visit::<f::rkyv::Rkyv>();
        $visitor.visit::<f::flatbuffers::FlatBuffers>();
        $visitor.visit::<f::capnp::Capnp>();
        $visitor.visit::<f::postcard::Postcard>();
        $visitor.visit::<f::json::Json>();
    }};
    ($visitor:expr, $zerocopy:ty, without_capnp) => {{
        use $crate::formats as f;
        $visitor.visit::<f::wiremsg::Wiremsg>();
        $visitor.visit::<f::rkyv::Rkyv>();
        $visitor.visit::<f::flatbuffers::FlatBuffers>();
        $visitor.visit::<$zerocopy>();
        $visitor.visit::<f::protobuf::Protobuf>();
        $visitor.visit::<f::postcard::Postcard>();
        $visitor.visit::<f::json::Json>();
    }};
    ($visitor:expr $(, $zerocopy:ty)?) => {{
        use $crate::formats as f;
        $visitor.visit::<f::wiremsg::Wiremsg>();
        $visitor.visit::<f::rkyv::Rkyv>();
        $visitor.visit::<f::flatbuffers::FlatBuffers>();
        $visitor.visit::<f::capnp::Capnp>();
        $($visitor.visit::<$zerocopy>();)?
        $visitor.visit::<f::protobuf::Protobuf>();
        $visitor.visit::<f::postcard::Postcard>();
        $visitor.visit::<f::json::Json>();
    }};
}
pub(crate) use visit_formats;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..1000 {
            let x = a.range(10, 80);
            assert_eq!(x, b.range(10, 80));
            assert!((10..=80).contains(&x));
            let f = a.f32(-1.0, 1.0);
            assert_eq!(f.to_bits(), b.f32(-1.0, 1.0).to_bits());
            assert!((-1.0..1.0).contains(&f));
        }
    }

    #[test]
    fn every_format_reproduces_every_data_set() {
        // Small instances: the full ones are checked by the benches' setup.
        let found = verify_all(300).unwrap_or_else(|e| panic!("{e}"));
        // 6 formats on each of the 7 first data sets, plus capnp on 6 of them
        // (not the feed), zerocopy on the 3 fixed-size ones and SBE on tick
        // and feed; 6 (no prost) on the 2 newest ones.
        assert_eq!(found.len(), 6 * 7 + 6 + 3 + 2 + 6 * WITHOUT_PROST.len());
        for (dataset, format, has) in found {
            let zero_copy = [ids::WIREMSG, ids::RKYV, ids::FLATBUFFERS].contains(&format);
            let sparse = SPARSE.contains(&dataset);
            let without_prost = WITHOUT_PROST.contains(&dataset);
            let what = format!("{dataset}/{format}: {has:?}");
            assert!(!(without_prost && format == ids::PROST), "{what}");
            // On-demand validation is wiremsg's alone, on every data set.
            let wiremsg = format == ids::WIREMSG;
            assert_eq!(has.access_lazy, wiremsg, "{what}");
            assert_eq!(has.read_lazy, wiremsg, "{what}");
            assert_eq!(has.read_some_lazy, wiremsg && sparse, "{what}");
            let has = Capabilities {
                access_lazy: false,
                read_lazy: false,
                read_some_lazy: false,
                ..has
            };
            if zero_copy {
                assert!(has.access && has.read, "{what}");
                assert!(has.access_unchecked && has.read_unchecked, "{what}");
                assert_eq!(has.read_some, sparse, "{what}");
                assert_eq!(has.read_some_unchecked, sparse, "{what}");
                let update = format != ids::FLATBUFFERS && dataset != "login";
                assert_eq!(has.update, update, "{what}");
                assert_eq!(has.update_unchecked, update, "{what}");
            } else if format == ids::CAPNP {
                // On-demand validation through and through: its checked reads,
                // nothing unchecked, no update; every data set but the feed.
                assert_ne!(dataset, "feed", "{what}");
                assert!(has.access && has.read, "{what}");
                assert_eq!(has.read_some, sparse, "{what}");
                assert!(!has.access_unchecked && !has.read_unchecked, "{what}");
                assert!(!has.read_some_unchecked && !has.update, "{what}");
                assert!(!has.update_unchecked, "{what}");
            } else if format == ids::SBE {
                assert!(["tick", "feed"].contains(&dataset), "{what}");
                assert!(has.read && has.read_unchecked, "{what}");
                assert!(
                    !has.access && !has.access_unchecked && !has.update,
                    "{what}"
                );
                assert!(
                    !has.read_some && !has.read_some_unchecked && !has.update_unchecked,
                    "{what}"
                );
            } else if format == ids::ZEROCOPY {
                assert!(["tick", "mesh", "feed"].contains(&dataset), "{what}");
                assert!(has.access && has.read && has.update, "{what}");
                // The reference for the feed's sparse read; no unchecked
                // paths (its check is the size check).
                assert_eq!(has.read_some, dataset == "feed", "{what}");
                assert!(!has.access_unchecked && !has.read_unchecked, "{what}");
                assert!(!has.read_some_unchecked && !has.update_unchecked, "{what}");
            } else {
                assert_eq!(has, Capabilities::default(), "{what}");
            }
        }
    }

    #[test]
    fn verify_rejects_a_sparse_read_or_unchecked_update_that_does_nothing() {
        use crate::formats::wiremsg::Wiremsg;
        /// wiremsg's encoding, with a `read_some` that reads nothing
        /// (`!UPDATE`) or an `update_unchecked` that stores nothing.
        #[derive(Default)]
        struct Idle<const UPDATE: bool>(Wiremsg);
        impl<const UPDATE: bool> Codec<LogBatch> for Idle<UPDATE> {
            const ID: &'static str = "idle";
            fn encode(&mut self, data: &LogBatch) -> &[u8] {
                self.0.encode(data)
            }
            fn decode(&self, bytes: &[u8]) -> LogBatch {
                self.0.decode(bytes)
            }
            fn read_some(&self, _bytes: &[u8]) -> Option<u64> {
                (!UPDATE).then(|| Fold::new().finish())
            }
            unsafe fn update_unchecked(&self, _bytes: &mut [u8], _round: u64) -> Option<()> {
                UPDATE.then_some(())
            }
        }
        let data = LogBatch::generate(20);
        let err = verify(&mut Idle::<false>::default(), &data).unwrap_err();
        assert!(err.contains("read_some checksum"), "{err}");
        let err = verify(&mut Idle::<true>::default(), &data).unwrap_err();
        assert!(err.contains("update_unchecked then decode"), "{err}");
    }

    #[test]
    fn verify_rejects_a_lazy_read_that_differs_from_the_model() {
        use crate::formats::wiremsg::Wiremsg;
        /// wiremsg, with its on-demand reads off by one bit (`SOME`: the
        /// sparse one, else the full one).
        #[derive(Default)]
        struct Off<const SOME: bool>(Wiremsg);
        impl<const SOME: bool> Codec<LogBatch> for Off<SOME> {
            const ID: &'static str = "off";
            fn encode(&mut self, data: &LogBatch) -> &[u8] {
                self.0.encode(data)
            }
            fn decode(&self, bytes: &[u8]) -> LogBatch {
                self.0.decode(bytes)
            }
            fn read_lazy(&self, bytes: &[u8]) -> Option<u64> {
                let sum = Codec::<LogBatch>::read_lazy(&self.0, bytes)?;
                Some(if SOME { sum } else { sum ^ 1 })
            }
            fn read_some_lazy(&self, bytes: &[u8]) -> Option<u64> {
                let sum = Codec::<LogBatch>::read_some_lazy(&self.0, bytes)?;
                Some(if SOME { sum ^ 1 } else { sum })
            }
        }
        let data = LogBatch::generate(20);
        let err = verify(&mut Off::<false>::default(), &data).unwrap_err();
        assert!(err.contains("read_lazy checksum"), "{err}");
        let err = verify(&mut Off::<true>::default(), &data).unwrap_err();
        assert!(err.contains("read_some_lazy checksum"), "{err}");
    }

    /// The data sets with a sparse read (`read_some`).
    const SPARSE: [&str; 6] = ["order", "log", "feed", "events", "player", "game"];

    /// The data sets without prost (player, game).
    const WITHOUT_PROST: [&str; 2] = ["player", "game"];

    #[test]
    fn sparse_checksums_depend_on_every_element() {
        struct Sparse(Vec<&'static str>);
        impl DatasetVisitor for Sparse {
            fn visit<D: Dataset>(&mut self) {
                let data = D::generate(300);
                let Some(sum) = data.checksum_some() else {
                    return;
                };
                self.0.push(D::NAME);
                // Reading nothing folds to the empty fold's value.
                assert_ne!(sum, Fold::new().finish(), "{}", D::NAME);
                assert_ne!(sum, fold_some(std::iter::empty::<()>(), |()| [0]));
                if D::LEN > 1 {
                    // The last element counts too.
                    assert_ne!(Some(sum), D::generate(299).checksum_some(), "{}", D::NAME);
                }
            }
        }
        let mut sparse = Sparse(Vec::new());
        for_each_dataset(&mut sparse);
        assert_eq!(sparse.0, SPARSE);
    }

    #[test]
    fn every_data_set_is_deterministic() {
        struct Twice;
        impl DatasetVisitor for Twice {
            fn visit<D: Dataset>(&mut self) {
                assert_eq!(D::generate(200), D::generate(200), "{}", D::NAME);
            }
        }
        for_each_dataset(&mut Twice);
    }
}
