//! What a schema says about the bytes of each type (FORMAT.md §2-§6): the facts the
//! typed kinds hold as constants, computed from schema data, and the check that a
//! schema is one the derive could have written. Every schema read at run time passes
//! the check ([`SchemaSet::from_messages`]), so that the schema-driven reader, the
//! tools and the compatibility report can trust what it states.

use crate::schema::{MessageRef, MessageSchema, SchemaSet, TypeSchema, UnionSchema};
use crate::{Error, ErrorKind, ListEncoding, MAX_DEPTH};
use alloc::collections::BTreeSet;
use alloc::vec;
use alloc::vec::Vec;

/// The message a [`TypeSchema::Message`] names, in `set`.
pub(crate) fn message_of<'s>(set: &'s SchemaSet, ty: &TypeSchema) -> Option<&'s MessageSchema> {
    match ty {
        TypeSchema::Message(m) => set.message(&m.name),
        _ => None,
    }
}

/// True if values of `ty` keep data in the tail: their slot ends with an end offset.
pub(crate) fn in_tail(set: &SchemaSet, mut ty: &TypeSchema) -> bool {
    loop {
        match ty {
            TypeSchema::Str
            | TypeSchema::List(_)
            | TypeSchema::BoundedList { .. }
            | TypeSchema::Map(_)
            | TypeSchema::Union(_) => {
                return true;
            }
            TypeSchema::Option(inner) => ty = inner,
            TypeSchema::Message(_) => {
                return message_of(set, ty).is_some_and(|m| m.has_block_length);
            }
            TypeSchema::Tuple(elements) => return elements.iter().any(|e| in_tail(set, e)),
            _ => return false,
        }
    }
}

/// Calls `f` with every message `ty` names (through arrays, options, lists and
/// tuples), and whether it is reached through a list (so not inline). Types nested
/// deeper than [`MAX_DEPTH`] are not walked ([`check`] refuses them). A union's
/// payload messages are not named here: [`check`] checks them with the union.
pub(crate) fn each_message<'t>(ty: &'t TypeSchema, f: &mut impl FnMut(&'t MessageRef, bool)) {
    walk_messages(ty, false, false, 0, f)
}

/// As [`each_message`], and also the payload messages of the unions `ty` holds
/// (as not inline: a payload lives in the union's tail region): every message a
/// value of `ty` can reach directly.
pub(crate) fn each_reached_message<'t>(
    ty: &'t TypeSchema,
    f: &mut impl FnMut(&'t MessageRef, bool),
) {
    walk_messages(ty, false, true, 0, f)
}

fn walk_messages<'t>(
    ty: &'t TypeSchema,
    through_list: bool,
    unions: bool,
    depth: u32,
    f: &mut impl FnMut(&'t MessageRef, bool),
) {
    if depth > MAX_DEPTH {
        return;
    }
    match ty {
        TypeSchema::Array { element: inner, .. } | TypeSchema::Option(inner) => {
            walk_messages(inner, through_list, unions, depth + 1, f)
        }
        TypeSchema::List(inner) | TypeSchema::BoundedList { element: inner, .. } => {
            walk_messages(inner, true, unions, depth + 1, f)
        }
        TypeSchema::Tuple(elements) => {
            for element in elements.iter() {
                walk_messages(element, through_list, unions, depth + 1, f);
            }
        }
        TypeSchema::Map(entry) => walk_messages(entry, true, unions, depth + 1, f),
        TypeSchema::Message(m) => f(m, through_list),
        TypeSchema::Union(u) if unions => {
            for payload in u.variants.iter().filter_map(|v| v.payload.as_ref()) {
                f(payload, true);
            }
        }
        _ => {}
    }
}

/// An enum or a union a type holds: the types a schema file, its JSON and the exports
/// know by name.
pub(crate) enum Named<'t> {
    /// A `#[derive(WireEnum)]` enum.
    Enum(&'t super::EnumSchema),
    /// A `#[derive(WireUnion)]` union.
    Union(&'t super::UnionSchema),
}

/// Calls `f` with every enum and union `ty` holds (through arrays, options, lists,
/// maps, tuples and null sentinels; not through messages, which are walked on their own).
/// Types nested deeper than [`MAX_DEPTH`] are not walked ([`check`] refuses them).
pub(crate) fn each_named<'t>(ty: &'t TypeSchema, f: &mut impl FnMut(Named<'t>)) {
    each_named_at(ty, 0, f)
}

fn each_named_at<'t>(ty: &'t TypeSchema, depth: u32, f: &mut impl FnMut(Named<'t>)) {
    if depth > MAX_DEPTH {
        return;
    }
    match ty {
        TypeSchema::Array { element: inner, .. }
        | TypeSchema::Option(inner)
        | TypeSchema::List(inner)
        | TypeSchema::BoundedList { element: inner, .. }
        | TypeSchema::Map(inner)
        | TypeSchema::Nullable { value: inner, .. } => each_named_at(inner, depth + 1, f),
        TypeSchema::Tuple(elements) => {
            for element in elements.iter() {
                each_named_at(element, depth + 1, f);
            }
        }
        TypeSchema::Enum(e) => f(Named::Enum(e)),
        TypeSchema::Union(u) => f(Named::Union(u)),
        _ => {}
    }
}

/// Bytes a value of `ty` takes in the block (its value, or its slot). Bounded by the
/// type's nesting, which [`check`] bounds.
pub(crate) fn block_size(set: &SchemaSet, ty: &TypeSchema) -> usize {
    match ty {
        TypeSchema::Str
        | TypeSchema::List(_)
        | TypeSchema::BoundedList { .. }
        | TypeSchema::Map(_)
        | TypeSchema::Union(_) => 4,
        TypeSchema::FixedStr { len } | TypeSchema::FixedStrPadded { len, .. } => *len,
        TypeSchema::Array { element, len } => block_size(set, element).saturating_mul(*len),
        TypeSchema::Option(inner) => block_size(set, inner).saturating_add(1),
        TypeSchema::Message(_) => match message_of(set, ty) {
            Some(m) if m.has_block_length => 4,
            Some(m) => m.block_length,
            None => 0,
        },
        TypeSchema::Tuple(_) if in_tail(set, ty) => 4,
        TypeSchema::Tuple(elements) => elements
            .iter()
            .fold(0, |sum, e| sum.saturating_add(block_size(set, e))),
        number => number.number_size().unwrap_or(0),
    }
}

/// How a list of `element` is laid out (FORMAT.md §6): dense for fixed-size unions
/// (§6.8, [`fixed_size_union`]), split for messages with a block length field and
/// tuples with a tail (§6.3), table for the other types with a tail (§6.4), strided
/// for the other messages and tuples, packed for the rest.
pub(crate) fn encoding(set: &SchemaSet, element: &TypeSchema) -> ListEncoding {
    if let TypeSchema::Union(u) = element {
        return if fixed_size_union(set, u).is_some() {
            ListEncoding::Dense
        } else {
            ListEncoding::Table
        };
    }
    if in_tail(set, element) {
        if matches!(element, TypeSchema::Message(_) | TypeSchema::Tuple(_)) {
            ListEncoding::Split
        } else {
            ListEncoding::Table
        }
    } else if matches!(element, TypeSchema::Message(_) | TypeSchema::Tuple(_)) {
        ListEncoding::Strided
    } else {
        ListEncoding::Packed
    }
}

/// The largest payload block of union `u`'s variants if the union is fixed-size
/// (FORMAT.md §4.10), so that its lists are dense (§6.8): no catch-all, every
/// variant a unit variant (block 0) or one whose payload message has no block
/// length field (no tail, no `#[wire(block_length)]`: its block length, the
/// schema's), and at most 65,535 variants (a dense list's `u16` entry count).
/// `None` otherwise, and for a payload that names no message of `set`. The typed
/// rule is `Payload::FIXED_BLOCK` and `VariantList::DENSE_BLOCK` (`union.rs`).
pub(crate) fn fixed_size_union(set: &SchemaSet, u: &UnionSchema) -> Option<usize> {
    if u.catch_all.is_some() || u.variants.len() > usize::from(u16::MAX) {
        return None;
    }
    u.variants
        .iter()
        .try_fold(0, |largest: usize, v| match &v.payload {
            None => Some(largest),
            Some(payload) => match set.message(&payload.name) {
                Some(m) if !m.has_block_length => Some(largest.max(m.block_length)),
                _ => None,
            },
        })
}

fn invalid(reason: &'static str) -> Error {
    Error::new(ErrorKind::InvalidSchema { reason }, 0)
}

/// Checks that `root` and every message it reaches are laid out as the derive lays
/// them out: fields back to back from the block length field, sizes of their types,
/// block lengths that match, element types a list can have, messages that nest
/// inline at most [`MAX_DEPTH`] deep and never in themselves, types nested at most
/// [`MAX_DEPTH`] deep. The walk then never meets a fact the schema did not state.
pub(crate) fn check(set: &SchemaSet, root: &MessageSchema) -> Result<(), Error> {
    let all = set.messages();
    let Ok(root_at) = all.binary_search_by(|m| m.name.as_ref().cmp(&root.name)) else {
        return Err(invalid("the message is not in the schema set").in_field_named(&root.name));
    };
    check_from(set, vec![root_at])
}

/// [`check`] of every message of the set, in one walk: each message is checked
/// once, so that a set of many messages that nest each other costs linear time,
/// not the square of their number.
pub(crate) fn check_set(set: &SchemaSet) -> Result<(), Error> {
    check_from(set, (0..set.messages().len()).collect())
}

/// [`check`] of the messages at `roots` and every message they reach.
fn check_from(set: &SchemaSet, roots: Vec<usize>) -> Result<(), Error> {
    let all = set.messages();
    let index = |name: &str| all.binary_search_by(|m| m.name.as_ref().cmp(name)).ok();
    // The messages the roots reach, and for each the messages it nests inline.
    let mut reached = vec![false; all.len()];
    let mut inline: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
    for &at in &roots {
        reached[at] = true;
    }
    let mut pending = roots;
    let mut checked = Checked::default();
    while let Some(at) = pending.pop() {
        let message = &all[at];
        check_message(set, message, &mut checked).map_err(|e| e.in_field_named(&message.name))?;
        for field in message.fields.iter() {
            let mut missing = false;
            each_message(&field.ty, &mut |m, through_list| {
                let Some(child) = index(&m.name) else {
                    missing = true;
                    return;
                };
                if !through_list && !all[child].has_block_length {
                    inline[at].push(child);
                }
                if !reached[child] {
                    reached[child] = true;
                    pending.push(child);
                }
            });
            if missing {
                return Err(
                    invalid("the field's type names a message not in the schema")
                        .in_field_named(&field.name)
                        .in_field_named(&message.name),
                );
            }
        }
    }
    // Longest chain of inline nesting from each message, relaxed until it settles: a
    // chain longer than the limit (or a cycle, which never settles) is refused.
    let mut height = vec![0usize; all.len()];
    let limit = MAX_DEPTH as usize;
    for _ in 0..=limit + 1 {
        let mut changed = false;
        for at in (0..all.len()).filter(|&at| reached[at]) {
            let h = 1 + inline[at].iter().map(|&c| height[c]).max().unwrap_or(0);
            if h != height[at] {
                height[at] = h.min(limit + 2);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    match (0..all.len()).find(|&at| height[at] > limit) {
        Some(at) => Err(invalid(
            "messages nest inline in a cycle, or deeper than the nesting limit",
        )
        .in_field_named(&all[at].name)),
        None => Ok(()),
    }
}

/// The layout rules of one message (FORMAT.md §2, §3, §5), and the names and ids
/// the derive would have given it.
fn check_message(
    set: &SchemaSet,
    message: &MessageSchema,
    checked: &mut Checked,
) -> Result<(), Error> {
    if !is_name(&message.name) {
        return Err(invalid("a name is not an identifier"));
    }
    if message.version == 0 {
        return Err(invalid("the message's version is 0 (versions start at 1)"));
    }
    let prefix = if message.has_block_length { 2 } else { 0 };
    let mut end = prefix;
    let mut min_end = prefix;
    let mut v1 = true;
    let mut since = 0;
    let mut has_tail = false;
    // Names seen so far: a set, not a scan of the fields before, so that a hostile
    // schema of many thousands of fields costs n log n, not n².
    let mut names = BTreeSet::new();
    for field in message.fields.iter() {
        let at_field = |e: Error| e.in_field_named(&field.name);
        if !is_name(&field.name) {
            return Err(at_field(invalid("a name is not an identifier")));
        }
        if !names.insert(field.name.as_ref()) {
            return Err(at_field(invalid("two fields have the same name")));
        }
        if field.since == 0 || field.since > message.version {
            return Err(at_field(invalid(
                "a field's since version is 0 or newer than the message's version",
            )));
        }
        check_type(set, &field.ty, checked).map_err(at_field)?;
        if field.offset != end || field.size != block_size(set, &field.ty) {
            return Err(at_field(invalid(
                "the field's offset or size is not the one of its type in its place",
            )));
        }
        if field.since < since {
            return Err(at_field(invalid(
                "a field's since version is older than the one before",
            )));
        }
        since = field.since;
        v1 &= field.since <= 1;
        end = end.saturating_add(field.size);
        if v1 {
            min_end = end;
        }
        has_tail |= in_tail(set, &field.ty);
    }
    if message.block_length != end
        || message.min_block_length != min_end
        || message.has_tail != has_tail
        || (has_tail && !message.has_block_length)
        || end > usize::from(u16::MAX)
    {
        return Err(invalid(
            "the message's block lengths or block length field disagree with its fields",
        ));
    }
    Ok(())
}

/// A type the derive accepts: nesting bounded, array elements fixed-size, list
/// elements of a kind lists hold, enum representations `u8` to `u64`.
fn check_type(set: &SchemaSet, ty: &TypeSchema, checked: &mut Checked) -> Result<(), Error> {
    check_type_at(set, ty, 0, checked)
}

/// The enums and unions already checked in one walk, by address: a schema read from
/// bytes shares each among the fields that name it ([`Node::Shared`]), and checking
/// it again for every such field would cost the fields times its variants.
///
/// [`Node::Shared`]: super::Node::Shared
#[derive(Default)]
struct Checked(BTreeSet<*const ()>);

impl Checked {
    /// `true` the first time `value` is seen.
    fn first<T>(&mut self, value: &T) -> bool {
        self.0.insert(core::ptr::from_ref(value).cast())
    }
}

/// [`check_type`] of a type nested `depth` levels deep.
fn check_type_at(
    set: &SchemaSet,
    ty: &TypeSchema,
    depth: u32,
    checked: &mut Checked,
) -> Result<(), Error> {
    let mut ty = ty;
    for level in depth..=MAX_DEPTH {
        match ty {
            TypeSchema::Array { element, .. } => {
                if in_tail(set, element) {
                    return Err(invalid("an array's elements have tail data"));
                }
                ty = element;
            }
            TypeSchema::Option(inner) => ty = inner,
            TypeSchema::List(element) | TypeSchema::BoundedList { element, .. } => {
                return match &**element {
                    TypeSchema::Option(_)
                    | TypeSchema::Array { .. }
                    | TypeSchema::BoundedList { .. } => {
                        Err(invalid("a list's elements are not of a kind lists hold"))
                    }
                    TypeSchema::FixedStr { len: 0 } | TypeSchema::FixedStrPadded { len: 0, .. } => {
                        Err(invalid("a list's elements are zero-size"))
                    }
                    element => check_type_at(set, element, level + 1, checked),
                };
            }
            TypeSchema::Tuple(elements) => {
                if elements.is_empty() || elements.len() > crate::tuple::ELEMENT_NAMES.len() {
                    return Err(invalid("a tuple has no elements, or more than 12"));
                }
                for element in elements.iter() {
                    // Inline blocks are frozen (FORMAT.md §4.7, §4.11).
                    if let Some(m) = message_of(set, element) {
                        if !m.has_block_length && m.min_block_length != m.block_length {
                            return Err(invalid(
                                "a tuple element is a fixed-size message with fields of later versions",
                            ));
                        }
                    }
                    check_type_at(set, element, level + 1, checked)?;
                }
                return Ok(());
            }
            TypeSchema::Map(entry) => {
                let Some((key, _)) = entry.map_key() else {
                    return Err(invalid("a map's entry type is not a tuple of two elements"));
                };
                let key_kind = match key {
                    TypeSchema::FixedStr { len } | TypeSchema::FixedStrPadded { len, .. } => {
                        *len > 0
                    }
                    key => {
                        is_integer(key)
                            || matches!(
                                key,
                                TypeSchema::U128
                                    | TypeSchema::I128
                                    | TypeSchema::Str
                                    | TypeSchema::Enum(_)
                            )
                    }
                };
                if !key_kind {
                    return Err(invalid(
                        "a map's key is not an integer, a string, a FixedStr or an enum",
                    ));
                }
                ty = entry;
            }
            TypeSchema::Nullable { value: inner, null } => {
                let number = match &**inner {
                    TypeSchema::Decimal { mantissa, .. } => mantissa,
                    number => number,
                };
                if !is_integer(number) {
                    return Err(invalid(
                        "a null sentinel's type is not an integer or a decimal",
                    ));
                }
                if !integer_range(number).contains(null) {
                    return Err(invalid("a null sentinel is outside its type's range"));
                }
                return check_type_at(set, inner, level + 1, checked);
            }
            TypeSchema::Decimal { mantissa, .. } => {
                return if is_integer(mantissa) {
                    Ok(())
                } else {
                    Err(invalid("a decimal's mantissa is not an integer"))
                };
            }
            TypeSchema::Enum(e) if !checked.first(&**e) => return Ok(()),
            TypeSchema::Union(u) if !checked.first(&**u) => return Ok(()),
            TypeSchema::Enum(e) => return check_enum(e),
            TypeSchema::Union(u) => return check_union(set, u),
            _ => return Ok(()),
        }
    }
    Err(invalid("types nest deeper than the nesting limit"))
}

/// An integer of 8 to 64 bits: what a decimal's mantissa or a null sentinel's number
/// is (FORMAT.md §4.8, §4.9).
fn is_integer(ty: &TypeSchema) -> bool {
    matches!(
        ty,
        TypeSchema::U8
            | TypeSchema::U16
            | TypeSchema::U32
            | TypeSchema::U64
            | TypeSchema::I8
            | TypeSchema::I16
            | TypeSchema::I32
            | TypeSchema::I64
    )
}

/// The values of an integer type of 8 to 64 bits.
fn integer_range(ty: &TypeSchema) -> core::ops::RangeInclusive<i128> {
    let bits = 8 * ty.number_size().unwrap_or(0) as u32;
    match ty {
        TypeSchema::I8 | TypeSchema::I16 | TypeSchema::I32 | TypeSchema::I64 => {
            -(1i128 << (bits - 1))..=(1i128 << (bits - 1)) - 1
        }
        _ => 0..=(1i128 << bits) - 1,
    }
}

/// An enum the derive could have written: an unsigned representation of 8 to 64
/// bits, variants with distinct names and values that fit it.
fn check_enum(e: &super::EnumSchema) -> Result<(), Error> {
    let at_enum = |err: Error| err.in_field_named(&e.name);
    if !matches!(
        *e.repr,
        TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64
    ) {
        return Err(at_enum(invalid(
            "an enum's representation is not u8, u16, u32 or u64",
        )));
    }
    let max = integer_range(&e.repr);
    let names = e
        .variants
        .iter()
        .map(|v| v.name.as_ref())
        .chain(e.catch_all.as_deref());
    // Sets of what was seen, not scans of the variants before: an enum of tens of
    // thousands of variants (a hostile schema frame) costs n log n, not n².
    let mut seen = BTreeSet::new();
    for (i, name) in names.enumerate() {
        // The catch-all may not repeat a variant's name; variants may not repeat theirs.
        let earlier = if i < e.variants.len() {
            !seen.insert(name)
        } else {
            seen.contains(name)
        };
        if !is_name(name) || earlier {
            return Err(at_enum(invalid(
                "an enum's variant names are not distinct identifiers",
            )));
        }
    }
    let mut values = BTreeSet::new();
    for v in e.variants.iter() {
        if !max.contains(&i128::from(v.value)) {
            return Err(at_enum(invalid(
                "an enum variant's value does not fit the representation",
            )));
        }
        if !values.insert(v.value) {
            return Err(at_enum(invalid("two enum variants have the same value")));
        }
    }
    if e.name.is_empty() || !is_name(&e.name) {
        return Err(invalid("a name is not an identifier"));
    }
    Ok(())
}

/// A union the derive could have written (FORMAT.md §4.10): an unsigned tag of 8 to
/// 64 bits, at least one variant, variants with distinct names and tags that fit it,
/// `since` versions within the union's, payloads that name messages of the set.
fn check_union(set: &SchemaSet, u: &super::UnionSchema) -> Result<(), Error> {
    let at_union = |err: Error| err.in_field_named(&u.name);
    if !is_name(&u.name) {
        return Err(invalid("a name is not an identifier"));
    }
    if !matches!(
        *u.tag,
        TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64
    ) {
        return Err(at_union(invalid(
            "a union's tag is not u8, u16, u32 or u64",
        )));
    }
    if u.version == 0 || u.variants.is_empty() {
        return Err(at_union(invalid(
            "a union has version 0 or no variant with a tag",
        )));
    }
    let max = integer_range(&u.tag);
    let names = u
        .variants
        .iter()
        .map(|v| v.name.as_ref())
        .chain(u.catch_all.as_deref());
    for (i, name) in names.enumerate() {
        let earlier = u.variants.iter().take(i).any(|v| v.name == name);
        if !is_name(name) || earlier {
            return Err(at_union(invalid(
                "a union's variant names are not distinct identifiers",
            )));
        }
    }
    for (i, v) in u.variants.iter().enumerate() {
        let at_variant = |err: Error| at_union(err.in_field_named(&v.name));
        if !max.contains(&i128::from(v.tag)) {
            return Err(at_variant(invalid(
                "a union variant's tag does not fit the tag's type",
            )));
        }
        if u.variants[..i].iter().any(|w| w.tag == v.tag) {
            return Err(at_variant(invalid("two union variants have the same tag")));
        }
        if v.since == 0 || v.since > u.version {
            return Err(at_variant(invalid(
                "a union variant's since version is 0 or newer than the union's version",
            )));
        }
        if let Some(payload) = &v.payload {
            if set.message(&payload.name).is_none() {
                return Err(at_variant(invalid(
                    "a union variant's payload names a message not in the schema",
                )));
            }
        }
    }
    Ok(())
}

/// A name a Rust declaration could have: letters, digits and `_`, not starting with a
/// digit. Nothing else reaches a terminal or a generated file from a schema.
pub(crate) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}
