//! The pluggable side of the comparison: one [`Format`] per column, and a
//! [`FormatSet`] holding an instance per message for every column.

use crate::model::{LoginRequest, Order, Tick};

/// Buffer that read paths get their bytes from: 16-byte aligned, so that
/// formats that read in place (rkyv needs its root's alignment, 8 here) can,
/// and every format reads from the same kind of buffer.
pub type AlignedBuf = rkyv::util::AlignedVec<16>;

/// Copies `bytes` into a fresh [`AlignedBuf`].
pub fn aligned_copy(bytes: &[u8]) -> AlignedBuf {
    let mut buf = AlignedBuf::with_capacity(bytes.len());
    buf.extend_from_slice(bytes);
    buf
}

/// The read paths' way to fail: `.valid("rkyv")` in place of `.expect(..)`, for
/// every format alike.
///
/// An `expect` in place keeps the error alive across a panic that may unwind, so
/// a read whose error type has drop glue (wiremsg's and rkyv's box theirs) keeps a
/// stack frame and a landing pad that one with a plain error (zerocopy's) does not:
/// on `tick/read` that was 13 % of wiremsg's time. Here the error moves into a cold
/// function that never returns, and every format's hot path is only the check.
pub trait Valid<T> {
    /// The value, or a panic naming `format` and the error.
    fn valid(self, format: &'static str) -> T;
}

impl<T, E: core::fmt::Debug> Valid<T> for Result<T, E> {
    #[inline(always)]
    fn valid(self, format: &'static str) -> T {
        match self {
            Ok(value) => value,
            Err(e) => invalid(format, e),
        }
    }
}

#[cold]
#[inline(never)]
fn invalid<E: core::fmt::Debug>(format: &'static str, e: E) -> ! {
    panic!("{format}: invalid input: {e:?}")
}

/// One serialization format for message type `M`: one column of the tables.
///
/// Read paths panic on bytes that do not hold a valid `M`: the harness only
/// hands them what [`Format::encode`] produced, and checks the result.
pub trait Format<M> {
    /// Column name.
    fn name(&self) -> &'static str;

    /// Encodes `msg` into the format's own reused output buffer (cleared
    /// first, capacity kept) and returns the encoded bytes.
    ///
    /// The format owns the buffer because the right one differs: rkyv writes
    /// into an aligned vector, FlatBuffers into its builder (back to front).
    fn encode(&mut self, msg: &M) -> &[u8];

    /// Validated access, then every field read into
    /// [`Message::checksum`](crate::model::Message::checksum)'s fold.
    /// `bytes` starts at a 16-byte aligned address (see [`AlignedBuf`]).
    fn read(&self, bytes: &[u8]) -> u64;

    /// Like [`Format::read`] without validation, where the format has such a
    /// path; `None` where it does not.
    ///
    /// # Safety
    ///
    /// `bytes` must be exactly what this format's [`Format::encode`] returned
    /// for an `M`, at a 16-byte aligned address.
    unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64>;

    /// Decodes into the owned canonical model.
    fn decode(&self, bytes: &[u8]) -> M;
}

/// A format that handles all three reference messages.
pub trait AnyMessage: Format<LoginRequest> + Format<Order> + Format<Tick> + 'static {}

impl<T: Format<LoginRequest> + Format<Order> + Format<Tick> + 'static> AnyMessage for T {}

/// The columns of the comparison: for each message, one format instance per
/// column (instances keep their own buffers, so each message gets its own).
#[derive(Default)]
pub struct FormatSet {
    /// Columns of the R1 table.
    pub login: Vec<Box<dyn Format<LoginRequest>>>,
    /// Columns of the R2 table.
    pub order: Vec<Box<dyn Format<Order>>>,
    /// Columns of the R6 table.
    pub tick: Vec<Box<dyn Format<Tick>>>,
}

impl FormatSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a column to every table, with a fresh instance from `make` per
    /// message.
    pub fn add<F: AnyMessage>(&mut self, make: impl Fn() -> F) {
        self.login.push(Box::new(make()));
        self.order.push(Box::new(make()));
        self.tick.push(Box::new(make()));
    }

    /// Adds the peer formats, zero-copy ones first.
    pub fn add_peers(&mut self) {
        use crate::formats as f;
        self.add(f::rkyv::Rkyv::default);
        self.add(f::flatbuffers::FlatBuffers::default);
        // SBE: fixed-size messages only, so the tick alone.
        self.tick.push(Box::new(f::sbe::Sbe::default()));
        self.add(f::protobuf::Protobuf::default);
        self.add(f::postcard::Postcard::default);
        self.add(f::msgpack::MessagePack::default);
        self.add(f::json::Json::default);
    }

    /// A set holding just the peer formats.
    pub fn peers() -> Self {
        let mut set = Self::new();
        set.add_peers();
        set
    }

    /// What `compare` runs: wiremsg first, then the peers.
    pub fn all() -> Self {
        let mut set = Self::new();
        set.add(crate::formats::wiremsg::Wiremsg::default);
        set.add_peers();
        set
    }
}

impl std::fmt::Debug for FormatSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.login.iter().map(|c| c.name()))
            .finish()
    }
}
