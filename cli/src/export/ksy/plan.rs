//! What each wiremsg type becomes in Kaitai Struct: the attributes that read it, the
//! types and enums the `.ksy` declares for it, and the refusals.
//!
//! Every field is an instance at its offset (`pos`), so that a block longer than the
//! reader's (a newer writer) is read like wiremsg reads it; a field added in a later
//! version has an `if:` on the block length; a tail field is its end offset
//! (`<field>__end`) and an instance over its region, which starts where the previous
//! tail field's ended (or at the block length).

mod helpers;
mod unions;

use super::layout::{in_tail, slot_size};
use super::names::{Namespace, is_identifier, is_python_keyword, snake};
use super::yaml::{Yaml, map};
use crate::export::Unfit;
use std::collections::{HashMap, HashSet};
use wiremsg::{EnumSchema, MessageSchema, SchemaSet, TypeSchema, UnionSchema};

/// The keys of one attribute, in order.
pub(super) type Keys = Vec<(&'static str, Yaml)>;

/// Where a block and its tail are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// A message or tuple over its own bytes: the block at 0, the tail after it, end
    /// offsets from 0 (FORMAT.md §3).
    Alone,
    /// An element of a split list (FORMAT.md §6.3), over its `stride` bytes of the
    /// list: its `u32` tail start, then its block (each slot 4 bytes after its offset
    /// in the block); its tail data is in the list's bytes, passed as a parameter,
    /// with end offsets from its origin (the tail start less the block length).
    InSplitList,
}

/// One slot of a block: a message's field or a tuple's element.
struct Slot<'s> {
    name: String,
    offset: usize,
    size: usize,
    ty: &'s TypeSchema,
    since: u16,
    reserved: bool,
}

/// The exporter's state: the names taken, the types and enums declared so far, the
/// messages still to declare, and what does not fit.
pub(super) struct Plan<'s> {
    pub(super) set: &'s SchemaSet,
    /// Put before the Kaitai names of the set's messages, enums and unions (`schema_`
    /// for the schema of schema frames, whose `Message` and `Field` may be the user's
    /// names too).
    pub(super) prefix: &'static str,
    /// Taken off the front of those names before (`Wire` of `WireMessage`).
    pub(super) strip: &'static str,
    pub(super) names: Namespace,
    /// Message name: its Kaitai type.
    messages: HashMap<&'s str, String>,
    /// Enum name: its Kaitai enum, and the schema it was first met with.
    enums: HashMap<&'s str, (String, &'s EnumSchema)>,
    /// Union name: its Kaitai type, and the schema it was first met with.
    unions: HashMap<&'s str, (String, &'s UnionSchema)>,
    /// The exporter's own types (lists, options, arrays, tuples, 128-bit integers),
    /// by the type they read.
    pub(super) helpers: HashMap<TypeSchema, String>,
    /// The types of messages and tuples as elements of a split list
    /// ([`Placement::InSplitList`]), by the element type.
    pub(super) split_elements: HashMap<TypeSchema, String>,
    /// Unions whose type is declared.
    declared_unions: HashSet<&'s str>,
    /// Union name: the Kaitai enum of its tags.
    tag_enums: HashMap<&'s str, String>,
    /// Union name: the Kaitai types of its element and its variant table entry in a
    /// dense list (FORMAT.md §6.8).
    dense_elements: HashMap<&'s str, (String, String)>,
    /// Messages whose type is declared, or queued to be.
    queued: HashSet<&'s str>,
    pending: Vec<&'s MessageSchema>,
    /// The message the file's top level reads, which is not declared under `types`.
    pub(super) top: Option<&'s str>,
    pub(super) types: Vec<(String, Yaml)>,
    pub(super) enum_defs: Vec<(String, Yaml)>,
    pub(super) unfit: Vec<Unfit>,
}

impl<'s> Plan<'s> {
    pub(super) fn new(set: &'s SchemaSet) -> Self {
        Plan {
            set,
            prefix: "",
            strip: "",
            names: Namespace::default(),
            messages: HashMap::new(),
            enums: HashMap::new(),
            unions: HashMap::new(),
            helpers: HashMap::new(),
            split_elements: HashMap::new(),
            declared_unions: HashSet::new(),
            tag_enums: HashMap::new(),
            dense_elements: HashMap::new(),
            queued: HashSet::new(),
            pending: Vec::new(),
            top: None,
            types: Vec::new(),
            enum_defs: Vec::new(),
            unfit: Vec::new(),
        }
    }

    /// Records that `path` does not fit, once (a message declared both alone and as a
    /// split list's element meets its fields twice).
    fn refuse(&mut self, path: &str, offset: usize, reason: impl Into<String>) {
        let reason = reason.into();
        if self
            .unfit
            .iter()
            .any(|u| u.path == path && u.offset == offset && u.reason == reason)
        {
            return;
        }
        self.unfit.push(Unfit {
            path: path.to_owned(),
            offset,
            reason,
        });
    }

    /// Takes the Kaitai names of `roots`, every message they reach, and the enums and
    /// unions of their fields, before any of the exporter's own types takes one.
    pub(super) fn claim(&mut self, roots: &[&'s MessageSchema]) {
        let mut pending: Vec<&'s MessageSchema> = roots.to_vec();
        let mut seen: HashSet<&'s str> = HashSet::new();
        while let Some(m) = pending.pop() {
            if !seen.insert(&m.name) {
                continue;
            }
            self.claim_name(&m.name, "message");
            for field in m.fields.iter() {
                let path = format!("{}.{}", m.name, field.name);
                self.claim_in(&field.ty, &path, field.offset, &mut pending);
            }
        }
    }

    fn claim_in(
        &mut self,
        ty: &'s TypeSchema,
        path: &str,
        offset: usize,
        pending: &mut Vec<&'s MessageSchema>,
    ) {
        match ty {
            TypeSchema::Message(m) => {
                if let Some(m) = self.set.message(&m.name) {
                    pending.push(m);
                }
            }
            TypeSchema::Enum(e) => match self.enums.get(e.name.as_ref()) {
                Some((_, seen)) if **seen != **e => self.refuse(
                    path,
                    offset,
                    format!(
                        "two different enums are named `{}`: a `.ksy` file has one \
                         namespace of enums",
                        e.name
                    ),
                ),
                Some(_) => {}
                None => {
                    if let Some(name) = self.claim_name(&e.name, "enum") {
                        self.enums.insert(&e.name, (name, e));
                    }
                }
            },
            TypeSchema::Union(u) => match self.unions.get(u.name.as_ref()) {
                Some((_, seen)) if **seen != **u => self.refuse(
                    path,
                    offset,
                    format!(
                        "two different unions are named `{}`: a `.ksy` file has one \
                         namespace of types",
                        u.name
                    ),
                ),
                Some(_) => {}
                None => {
                    if let Some(name) = self.claim_name(&u.name, "union") {
                        self.unions.insert(&u.name, (name, u));
                    }
                    for payload in u.variants.iter().filter_map(|v| v.payload.as_ref()) {
                        if let Some(m) = self.set.message(&payload.name) {
                            pending.push(m);
                        }
                    }
                }
            },
            TypeSchema::Array { element: inner, .. }
            | TypeSchema::Option(inner)
            | TypeSchema::List(inner)
            | TypeSchema::BoundedList { element: inner, .. }
            | TypeSchema::Map(inner)
            | TypeSchema::Decimal {
                mantissa: inner, ..
            }
            | TypeSchema::Nullable { value: inner, .. } => {
                self.claim_in(inner, path, offset, pending)
            }
            TypeSchema::Tuple(elements) => {
                for element in elements.iter() {
                    self.claim_in(element, path, offset, pending);
                }
            }
            _ => {}
        }
    }

    /// Claims the snake-case name of the schema's type `rust`; records a refusal and
    /// returns `None` if it is not an identifier or is taken.
    fn claim_name(&mut self, rust: &'s str, what: &str) -> Option<String> {
        let base = rust.strip_prefix(self.strip).unwrap_or(rust);
        let Some(name) = snake(base).map(|n| format!("{}{n}", self.prefix)) else {
            self.refuse(
                rust,
                0,
                format!(
                    "the {what} name `{rust}` has no Kaitai form: Kaitai names are \
                     lowercase ASCII letters, digits and `_` (wiremsg writes `{rust}` \
                     in snake case)"
                ),
            );
            return None;
        };
        let label = format!("{what} `{rust}`");
        if let Err(holder) = self.names.claim(&name, &label) {
            self.refuse(
                rust,
                0,
                format!("the {what} `{rust}` and the {holder} are both `{name}` in Kaitai"),
            );
            return None;
        }
        if what == "message" {
            self.messages.insert(rust, name.clone());
        }
        Some(name)
    }

    /// The Kaitai type of message `name`, declared (later) if it is not yet.
    fn message_ref(&mut self, name: &str) -> String {
        let Some(m) = self.set.message(name) else {
            return name.to_owned();
        };
        if self.queued.insert(&m.name) {
            self.pending.push(m);
        }
        self.messages
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_owned())
    }

    /// The Kaitai type of `m`, declared by [`declare_pending`](Self::declare_pending).
    pub(super) fn queue(&mut self, m: &'s MessageSchema) -> String {
        self.message_ref(&m.name)
    }

    /// Declares every message queued so far, and those they queue.
    pub(super) fn declare_pending(&mut self) {
        while let Some(m) = self.pending.pop() {
            if self.top == Some(m.name.as_ref()) {
                continue;
            }
            let body = self.message_body(m);
            let name = self.message_ref(&m.name);
            self.types.push((name, body));
        }
    }

    /// The type of message `m`: its doc, `seq` (the block length field) and
    /// `instances` (the fields).
    pub(super) fn message_body(&mut self, m: &'s MessageSchema) -> Yaml {
        self.queued.insert(&m.name);
        let slots = message_slots(m);
        let doc = message_doc(m);
        self.block_body(
            &m.name,
            m.has_block_length,
            m.min_block_length,
            &slots,
            doc,
            Placement::Alone,
        )
    }

    /// The type of a block of `slots` and its tail, read as `placement` says.
    fn block_body(
        &mut self,
        owner: &str,
        has_block_length: bool,
        min_block_length: usize,
        slots: &[Slot<'s>],
        doc: String,
        placement: Placement,
    ) -> Yaml {
        // The attributes the export adds are named like this, or with `__` after the
        // name if a field has it (as the schema encoding's `Message` has
        // `block_length`).
        let own = |name: &str| {
            if slots.iter().any(|s| s.name == name) {
                format!("{name}__")
            } else {
                name.to_owned()
            }
        };
        let b = if has_block_length {
            own("block_length")
        } else {
            "_io.size".to_owned()
        };
        let b = b.as_str();
        let split = placement == Placement::InSplitList;
        // In a split list, the block is 4 bytes into the element's bytes, after its tail
        // start; the tail is in the list's bytes, its end offsets from `origin`.
        let shift = if split { 4 } else { 0 };
        let (list_io, tail_start, origin) = (own("list_io"), own("tail_start"), own("origin"));
        let mut ids: HashSet<String> = HashSet::new();
        let mut params = Vec::new();
        let mut seq = Vec::new();
        let mut instances: Vec<(String, Yaml)> = Vec::new();
        if split {
            ids.extend([list_io.clone(), tail_start.clone(), origin.clone()]);
            params.push(map([
                ("id", Yaml::Str(list_io.clone())),
                ("type", "io".into()),
                (
                    "doc",
                    "The list's bytes, which hold the element's tail data (FORMAT.md §6.3).".into(),
                ),
            ]));
            seq.push(map([
                ("id", Yaml::Str(tail_start.clone())),
                ("type", "u4".into()),
                (
                    "doc",
                    "Where the element's tail data starts, from the start of the list.".into(),
                ),
            ]));
            instances.push((
                origin.clone(),
                map([
                    ("value", Yaml::Str(format!("{tail_start} - {b}"))),
                    (
                        "doc",
                        "Where the element's end offsets count from, in the list: as if its \
                         block sat right before its tail, so its first tail field starts at \
                         the tail start."
                            .into(),
                    ),
                ]),
            ));
        }
        if has_block_length {
            ids.insert(b.into());
            seq.push(map([
                ("id", b.into()),
                ("type", "u2".into()),
                // At least version 1's block (FORMAT.md §5: `BlockLengthTooSmall`).
                ("valid", map([("min", min_block_length.into())])),
                (
                    "doc",
                    if split {
                        "Block length: the bytes of the block, this field included (every \
                         element of the list has the same)."
                    } else {
                        "Block length: the bytes of the block, this field included; the tail \
                         starts here."
                    }
                    .into(),
                ),
            ]));
        }
        // Where the next tail field's data starts, as an end offset.
        let mut prev_end = b.to_owned();
        for slot in slots {
            let path = format!("{owner}.{}", slot.name);
            if !is_identifier(&slot.name) {
                self.refuse(
                    &path,
                    slot.offset,
                    format!(
                        "the field name `{}` is not a Kaitai name (lowercase ASCII letters, \
                         digits and `_`, starting with a letter)",
                        slot.name
                    ),
                );
                continue;
            }
            if is_python_keyword(&slot.name) {
                self.refuse(
                    &path,
                    slot.offset,
                    format!(
                        "the field name `{}` is a Python keyword, which Kaitai's compiler \
                         writes into the Python reader unchanged (it would not compile)",
                        slot.name
                    ),
                );
                continue;
            }
            let version = (slot.since > 1).then(|| format!("{b} >= {}", slot.offset + slot.size));
            let mut since_doc = String::new();
            if slot.since > 1 {
                since_doc = format!(
                    " Since version {}: null when the block ends before it (an older writer).",
                    slot.since
                );
            }
            let mut add =
                |plan: &mut Self, id: String, mut keys: Keys, cond: Option<String>, doc: String| {
                    if !ids.insert(id.clone()) {
                        plan.refuse(
                            &path,
                            slot.offset,
                            format!("`{id}` names two attributes of `{owner}` in Kaitai"),
                        );
                        return;
                    }
                    if let Some(cond) = cond {
                        keys.push(("if", cond.into()));
                    }
                    keys.push(("doc", doc.into()));
                    instances.push((id, map(keys)));
                };
            let (option, inner) = match slot.ty {
                TypeSchema::Option(inner) => (true, &**inner),
                ty => (false, ty),
            };
            let present = format!("{}__present", slot.name);
            let value_cond = if option {
                Some(match &version {
                    Some(v) => format!("{v} and {present} == 1"),
                    None => format!("{present} == 1"),
                })
            } else {
                version.clone()
            };
            if option && !slot.reserved {
                add(
                    self,
                    present.clone(),
                    vec![
                        ("pos", (slot.offset + shift).into()),
                        ("type", "u1".into()),
                        ("valid", zero_or_one()),
                    ],
                    version.clone(),
                    format!(
                        "Presence byte of `{}` (FORMAT.md §4.5): 1 present, 0 absent.",
                        slot.name
                    ),
                );
            }
            let value_at = slot.offset + usize::from(option) + shift;
            if in_tail(self.set, slot.ty) {
                let end = format!("{}__end", slot.name);
                let from = if split {
                    format!("`{origin}`")
                } else {
                    "the start of the message".to_owned()
                };
                add(
                    self,
                    end.clone(),
                    vec![
                        ("pos", (slot.offset + slot.size - 4 + shift).into()),
                        ("type", "u4".into()),
                    ],
                    version.clone(),
                    format!(
                        "End offset of `{}`'s region in the tail, from {from}.",
                        slot.name
                    ),
                );
                let start = std::mem::replace(&mut prev_end, end.clone());
                if slot.reserved {
                    continue;
                }
                let size = format!("{end} - {start}");
                let Some(mut keys) = self.region_keys(inner, &path, slot.offset, size) else {
                    continue;
                };
                if split {
                    keys.insert(0, ("pos", Yaml::Str(format!("{origin} + {start}"))));
                    keys.insert(0, ("io", Yaml::Str(list_io.clone())));
                } else {
                    keys.insert(0, ("pos", Yaml::Str(start)));
                }
                let doc = format!("{}.{since_doc}", describe(slot.ty));
                add(self, slot.name.clone(), keys, value_cond, doc);
            } else {
                if slot.reserved {
                    continue;
                }
                let Some(mut keys) = self.field_keys(inner, &path, slot.offset) else {
                    continue;
                };
                keys.insert(0, ("pos", value_at.into()));
                let doc = format!("{}.{since_doc}", describe(slot.ty));
                add(self, slot.name.clone(), keys, value_cond, doc);
            }
        }
        let mut body = vec![("doc", Yaml::Str(doc))];
        if !params.is_empty() {
            body.push(("params", Yaml::List(params)));
        }
        if !seq.is_empty() {
            body.push(("seq", Yaml::List(seq)));
        }
        if !instances.is_empty() {
            body.push(("instances", map(instances)));
        }
        map(body)
    }

    /// The keys that read fixed-size `ty` from its slot as a field: an array repeats
    /// its element in place, anything else is [`fixed_keys`](Self::fixed_keys).
    fn field_keys(&mut self, ty: &'s TypeSchema, path: &str, offset: usize) -> Option<Keys> {
        match ty {
            TypeSchema::Array { element, len } => {
                let mut keys = self.fixed_keys(element, path, offset)?;
                keys.push(("repeat", "expr".into()));
                keys.push(("repeat-expr", (*len).into()));
                Some(keys)
            }
            _ => self.fixed_keys(ty, path, offset),
        }
    }

    /// The keys that read one value of fixed-size `ty` from its slot's bytes, as one
    /// attribute without `repeat` (so usable as an element).
    fn fixed_keys(&mut self, ty: &'s TypeSchema, path: &str, offset: usize) -> Option<Keys> {
        if let Some(prim) = primitive(ty) {
            let mut keys = vec![("type", prim.into())];
            if *ty == TypeSchema::Bool {
                keys.push(("valid", zero_or_one()));
            }
            return Some(keys);
        }
        let size = slot_size(self.set, ty);
        Some(match ty {
            TypeSchema::U128 | TypeSchema::I128 => {
                vec![("type", self.int128(matches!(ty, TypeSchema::I128)).into())]
            }
            TypeSchema::FixedStr { len } => fixed_str(*len, b' '),
            TypeSchema::FixedStrPadded { len, pad } => fixed_str(*len, *pad),
            TypeSchema::Enum(e) => {
                let repr = primitive(&e.repr).unwrap_or("u1");
                let name = self
                    .enums
                    .get(e.name.as_ref())
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
                self.declare_enum(e, &name, path, offset);
                let mut keys = vec![("type", repr.into()), ("enum", name.into())];
                // Without a catch-all, a value of no variant is an error (FORMAT.md §4.4).
                if e.catch_all.is_none() {
                    keys.push(("valid", in_enum()));
                }
                keys
            }
            TypeSchema::Decimal {
                mantissa: inner, ..
            }
            | TypeSchema::Nullable { value: inner, .. } => self.fixed_keys(inner, path, offset)?,
            TypeSchema::Message(m) => {
                vec![
                    ("type", self.message_ref(&m.name).into()),
                    ("size", size.into()),
                ]
            }
            TypeSchema::Array { .. } | TypeSchema::Option(_) | TypeSchema::Tuple(_) => {
                let helper = self.helper(ty, path, offset)?;
                vec![("type", helper.into()), ("size", size.into())]
            }
            other => {
                self.refuse(
                    path,
                    offset,
                    format!("`{}` is not a fixed-size type here", other.display()),
                );
                return None;
            }
        })
    }

    /// The keys that read tail value `ty` from its region of `size` bytes (an
    /// expression).
    fn region_keys(
        &mut self,
        ty: &'s TypeSchema,
        path: &str,
        offset: usize,
        size: String,
    ) -> Option<Keys> {
        let size = ("size", Yaml::Str(size));
        Some(match ty {
            TypeSchema::Str => vec![("type", "str".into()), ("encoding", "UTF-8".into()), size],
            TypeSchema::List(element) | TypeSchema::BoundedList { element, .. }
                if **element == TypeSchema::U8 =>
            {
                vec![size]
            }
            TypeSchema::Message(m) => vec![("type", self.message_ref(&m.name).into()), size],
            TypeSchema::Union(u) => {
                let name = self.union_type(u, path, offset);
                vec![("type", name.into()), size]
            }
            TypeSchema::List(_)
            | TypeSchema::BoundedList { .. }
            | TypeSchema::Map(_)
            | TypeSchema::Tuple(_) => {
                let helper = self.helper(ty, path, offset)?;
                vec![("type", helper.into()), size]
            }
            other => {
                self.refuse(
                    path,
                    offset,
                    format!(
                        "`{}` as a list element: Kaitai has no reading of it here",
                        other.display()
                    ),
                );
                return None;
            }
        })
    }
}

/// The slots of message `m`'s block: its fields.
fn message_slots(m: &MessageSchema) -> Vec<Slot<'_>> {
    m.fields
        .iter()
        .map(|f| Slot {
            name: f.name.to_string(),
            offset: f.offset,
            size: f.size,
            ty: &f.ty,
            since: f.since,
            reserved: f.reserved,
        })
        .collect()
}

/// The doc of message `m`'s type: its name, version, ids, block length and shape.
fn message_doc(m: &MessageSchema) -> String {
    let shape = if m.has_tail {
        "with a tail (FORMAT.md §3)"
    } else if m.has_block_length {
        "with a block length field and no tail (FORMAT.md §3, §5)"
    } else {
        "fixed-size (FORMAT.md §2): its block length is the bytes it is given"
    };
    let ids = match m.template_id {
        Some(t) => format!(", template id {t}, schema id {}", m.schema_id),
        None => String::new(),
    };
    format!(
        "Message `{}`, version {}{ids}, block length {} (version 1: {}), {shape}.",
        m.name, m.version, m.block_length, m.min_block_length
    )
}

/// The Kaitai primitive of a number, `bool` (a `u1`) or nothing.
pub(super) fn primitive(ty: &TypeSchema) -> Option<&'static str> {
    Some(match ty {
        TypeSchema::Bool | TypeSchema::U8 => "u1",
        TypeSchema::U16 => "u2",
        TypeSchema::U32 => "u4",
        TypeSchema::U64 => "u8",
        TypeSchema::I8 => "s1",
        TypeSchema::I16 => "s2",
        TypeSchema::I32 => "s4",
        TypeSchema::I64 => "s8",
        TypeSchema::F32 => "f4",
        TypeSchema::F64 => "f8",
        _ => return None,
    })
}

/// `valid:` a byte of 0 or 1 (a `bool`, a presence byte).
pub(super) fn zero_or_one() -> Yaml {
    map([("any-of", Yaml::List(vec![Yaml::Int(0), Yaml::Int(1)]))])
}

/// `valid:` a value of one of the enum's entries.
pub(super) fn in_enum() -> Yaml {
    map([("in-enum", Yaml::Bool(true))])
}

fn fixed_str(len: usize, pad: u8) -> Keys {
    let mut keys = vec![
        ("type", Yaml::from("str")),
        ("size", len.into()),
        ("encoding", "UTF-8".into()),
    ];
    if len > 0 {
        keys.push(("pad-right", Yaml::Int(i128::from(pad))));
    }
    keys
}

/// A field's doc: its Rust type and how its bytes mean the value where Kaitai's
/// reading does not say it.
fn describe(ty: &TypeSchema) -> String {
    let name = ty.display();
    match ty {
        TypeSchema::Bool => "`bool`: 0 false, 1 true".into(),
        TypeSchema::Decimal { scale, .. } => {
            format!("`{name}`: the mantissa; the value is mantissa × 10^-{scale} (FORMAT.md §4.8)")
        }
        TypeSchema::Nullable { null, .. } => {
            format!("`{name}`: absent when the value is {null}, the null sentinel (FORMAT.md §4.9)")
        }
        TypeSchema::FixedStr { .. } | TypeSchema::FixedStrPadded { .. } => {
            format!("`{name}`: UTF-8, its trailing padding removed (FORMAT.md §4.3)")
        }
        TypeSchema::Option(inner) => {
            format!("`{name}`: null when absent; otherwise {}", describe(inner))
        }
        _ => format!("`{name}`"),
    }
}
