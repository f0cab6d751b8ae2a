//! What soundness rests on: every `unsafe` block of the crate, and every type that
//! carries a proof of validation. Code outside this module cannot use `unsafe`
//! (`#![deny(unsafe_code)]` at the crate root) and reaches the bytes only through
//! the safe API here: the views, the message and union traits' `view` methods, the
//! encoding output ([`plain::Out`]), and the `Plain` promises of the shapes.
//!
//! - [`validated`]: the proofs a view holds and the unchecked reads of a message.
//! - [`layout`]: a message's fields as a type, from which offsets are computed.
//! - [`message`]: `WireMsg`, whose `view` validates and makes the proof.
//! - [`shape`]: each wire shape's validation, its reads and in-place sets, and its
//!   views (lists, maps, arrays, tuples, unions): one contract, in one file each.
//! - [`lazy`], [`lazy_map`]: the on-demand views, whose reads check their bytes
//!   first, and the map view whose keys were checked when it was made.
//! - [`plain`], [`batch`], [`mode`], [`scan`]: plain copies, the encoding output,
//!   and how text and flags are checked.
//!
//! # Invariants
//!
//! What must be true for the `unsafe` code here to be sound, and where each fact is
//! established:
//!
//! 1. **A proof is made only by validation.** [`Validated`](validated::Validated) and
//!    [`ValidatedMut`](validated::ValidatedMut) (what every generated view holds), and
//!    the lists, maps, arrays and union views built from them, are constructed only in
//!    this module: after `validate` accepted the bytes for the same layout type, or in
//!    an `unsafe fn` whose caller promises it (`view_unchecked`). Their fields are
//!    private to this module.
//! 2. **Validation and reads follow one layout and one shape.** A shape's validation
//!    and its reads sit side by side in `shape/`: a read relies only on what the
//!    validation beside it checked. A message's layout is a type
//!    ([`layout`]): a sealed list of field types whose [`Kind`](crate::Kind)s, sealed,
//!    give every size and offset. Validation walks it, and each read finds its field
//!    from the same type and index, so a read relies only on facts validation checked
//!    on these bytes. Nothing reads `Field::BLOCK_SIZE`/`IN_TAIL`, which a
//!    hand-written impl can state falsely.
//! 3. **Proofs cannot change type.** Every proof-carrying type is invariant in its
//!    type parameters (`tests/variance.rs`): a higher-ranked subtype may have another
//!    kind. A list or map is retyped only to a type of the same layout or kind, or
//!    of a kind that reads as its own (`Kind::Reads`: a message's kind as its
//!    layout's, a list, map, tuple, array or option as its parts').
//! 4. **Mutable views keep the bytes valid.** A set writes only a value of the field's
//!    kind that is valid by construction (`SetInPlace`), or a message's encoding after
//!    validating it, and never changes a length or an offset.
//! 5. **Memory is bytes only where promised.** Lists are copied as memory
//!    ([`plain`]) only for types whose `Field::PLAIN` is a `Plain<Self>`, which only
//!    `unsafe` code makes, and only when `size_of::<T>()` equals the kind's block.
//! 6. **Text is UTF-8 before it is a `str`.** Each string is checked on its own, or
//!    gathered and checked in one run ([`batch`]); a proof is made only after the
//!    batch passed.
//! 7. **Encoding writes only what it initialized.** The output ([`plain::Out`])
//!    counts the bytes it initialized; a writer that writes less than it announced
//!    leaves zeros, never old or uninitialized memory.

pub(crate) mod batch;
pub(crate) mod layout;
pub(crate) mod lazy;
pub(crate) mod lazy_map;
pub(crate) mod message;
pub(crate) mod mode;
pub(crate) mod plain;
pub(crate) mod scan;
pub(crate) mod shape;
pub(crate) mod validated;
