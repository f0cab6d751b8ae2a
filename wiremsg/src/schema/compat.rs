//! Compatibility of two versions of a schema: every change between them, and for
//! each whether old readers still read new bytes and new readers still read old
//! bytes, by the rules of FORMAT.md §5 (versions), §8 (header) and §4.7 (inline
//! messages are frozen).

use super::set::named_message;
use super::shape::fixed_size_union;
use super::{
    EnumSchema, FieldSchema, MessageSchema, SchemaSet, TypeSchema, UnionSchema, UnionVariantSchema,
};
use Verdict::{Breaking, Caution, Compatible};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// Whether one side still reads the other's bytes after a change.
///
/// Ordered from best to worst, so that `max` gives the verdict of several changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Reads succeed and give the writer's values (or a field's declared default,
    /// where the writer did not have the field).
    Compatible,
    /// Reads succeed, but something a program may rely on changed: a name, a default,
    /// a value read where there used to be one, an unknown value caught by a
    /// catch-all variant, a message type a dispatcher does not know.
    Caution,
    /// Reads fail, or succeed with wrong values.
    Breaking,
}

impl fmt::Display for Verdict {
    /// `ok`, `caution` or `BREAKING`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Verdict::Compatible => "ok",
            Verdict::Caution => "caution",
            Verdict::Breaking => "BREAKING",
        })
    }
}

/// What changed between two versions of a schema (one [`Change`] each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A message is only in the new schema.
    MessageAdded,
    /// A message is only in the old schema.
    MessageRemoved,
    /// The message's template id changed, was given or was taken away (FORMAT.md §8).
    TemplateId,
    /// The message's schema id changed (FORMAT.md §8).
    SchemaId,
    /// The message's schema version was lowered, or raised without a field appended
    /// in the new version (an appended field's change names the version).
    Version,
    /// Fields were added but the schema version was not raised: one version number
    /// now names two blocks (FORMAT.md §5, §8).
    VersionNotBumped,
    /// An all-fixed-size message without `#[wire(block_length)]` gained its first
    /// variable-size field, and with it a leading block length field (FORMAT.md §5).
    FirstTailField,
    /// Whether the message starts with its block length changed for another reason
    /// (`#[wire(block_length)]` added or removed; FORMAT.md §3, §5).
    BlockLengthField,
    /// A field was appended after the old block, in a later version (FORMAT.md §5).
    FieldAppended,
    /// A field was appended after the old block with a `since` the old schema's
    /// versions already had: bytes of those versions do not have it.
    FieldAddedToOldVersion,
    /// A field was added inside the old block.
    FieldInserted,
    /// A field was removed, and its slot with it (not kept as `#[wire(reserved)]`).
    FieldRemoved,
    /// A field was renamed (same offset and type: compatible on the wire).
    FieldRenamed,
    /// A field's offset changed (fields reordered, or an earlier field changed size).
    FieldMoved,
    /// A field's type changed (a rule below names the more specific changes).
    FieldType,
    /// A `FixedStr<N>`'s width changed.
    FixedStrWidth,
    /// An array's length changed.
    ArrayLength,
    /// A list's element type changed.
    ListElement,
    /// A field became an `Option` of its old type.
    OptionAdded,
    /// A field of type `Option<T>` became a `T`.
    OptionRemoved,
    /// A nested message that sits inline in the field (fixed-size, nested by value)
    /// changed its block: an inline block is frozen (FORMAT.md §4.7).
    InlineBlock,
    /// A nested message or enum type was renamed, with the same layout and values.
    TypeRenamed,
    /// A field's `since` version changed.
    Since,
    /// A later field's declared default changed.
    Default,
    /// A field was retired as `#[wire(reserved)]`: its slot stays, written as the
    /// type's default.
    FieldReserved,
    /// A reserved field became a field again.
    FieldUnreserved,
    /// An enum's representation changed (its width on the wire).
    EnumRepr,
    /// An enum gained a variant.
    EnumVariantAdded,
    /// An enum lost a variant.
    EnumVariantRemoved,
    /// An enum variant's wire value changed.
    EnumVariantValue,
    /// An enum variant was renamed (same value).
    EnumVariantRenamed,
    /// An enum or a union lost its catch-all variant (`#[wire(other)]`).
    CatchAllRemoved,
    /// An enum or a union gained a catch-all variant.
    CatchAllAdded,
    /// A union's tag type changed (its width on the wire, FORMAT.md §4.10).
    UnionTag,
    /// A union gained a variant.
    UnionVariantAdded,
    /// A union lost a variant.
    UnionVariantRemoved,
    /// A union variant's tag changed.
    UnionVariantTag,
    /// A union variant was renamed (same tag).
    UnionVariantRenamed,
    /// A union variant carries another message (or none, or one where it had none).
    UnionVariantPayload,
    /// A list's union became fixed-size or stopped being fixed-size (a variant with
    /// a tail or a catch-all added or removed, FORMAT.md §4.10): its lists change
    /// between dense lists (§6.8) and table lists (§6.4).
    UnionListLayout,
    /// A list's declared maximum length (`#[wire(max_len = N)]`, FORMAT.md §6.5)
    /// changed, was added or was removed.
    ListBound,
    /// A null sentinel (`#[wire(null = V)]`, FORMAT.md §4.9) changed.
    NullSentinel,
    /// A decimal's scale changed (FORMAT.md §4.8): the same mantissa is another value.
    DecimalScale,
    /// A `FixedStr`'s padding byte changed (FORMAT.md §4.3).
    TextPadding,
}

/// One change between two versions of a schema, with its verdict for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The message (its name in the new schema, or in the old one if it was removed).
    pub message: String,
    /// The field, if the change is to one (its name in the new schema, or in the old
    /// one if it was removed).
    pub field: Option<String>,
    /// What changed.
    pub kind: ChangeKind,
    /// Whether readers built from the old schema read bytes written with the new one.
    pub old_readers: Verdict,
    /// Whether readers built from the new schema read bytes written with the old one.
    pub new_readers: Verdict,
    /// What changed and what each side sees, in a sentence.
    pub description: String,
}

impl Change {
    /// The worse of the two verdicts.
    pub fn verdict(&self) -> Verdict {
        self.old_readers.max(self.new_readers)
    }

    /// True if either side's reads fail or misread.
    pub fn is_breaking(&self) -> bool {
        self.verdict() == Verdict::Breaking
    }
}

impl fmt::Display for Change {
    /// `Message.field: description`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(field) = &self.field {
            write!(f, ".{field}")?;
        }
        write!(f, ": {}", self.description)
    }
}

/// Every change between two versions of a schema set, as [`compat`] found them.
///
/// `Display` prints one line per change, with the verdict for old readers of new
/// bytes and for new readers of old bytes in two columns; `Debug` prints the
/// [`Change`] values.
///
/// # Examples
///
/// ```
/// use wiremsg::schema::compat;
/// use wiremsg::SchemaSet;
///
/// mod v1 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Fill { pub qty: u32, pub px: i64 }
/// }
/// mod v2 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Fill { pub quantity: u32, pub px: i64 }
/// }
///
/// let report = compat(
///     &SchemaSet::of::<v1::Fill>().unwrap(),
///     &SchemaSet::of::<v2::Fill>().unwrap(),
/// );
/// assert!(report.is_compatible()); // a rename is flagged, not breaking
/// assert_eq!(
///     report.to_string(),
///     "1 change, 0 breaking (columns: old readers of new bytes, new readers of old bytes)\n  \
///      caution   caution   Fill.quantity: field `qty` renamed to `quantity` (same offset \
///      and type: compatible on the wire, but code, JSON and schema listings see the new \
///      name)\n"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompatReport {
    changes: Vec<Change>,
}

impl CompatReport {
    /// Every change, messages in name order, each message's changes from its own to
    /// its fields'.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// True if the schemas are equal on the wire and in every name and default.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// True if no change is [`Verdict::Breaking`] for either side ([`Verdict::Caution`]
    /// changes are allowed).
    pub fn is_compatible(&self) -> bool {
        !self.changes.iter().any(Change::is_breaking)
    }

    /// The breaking changes.
    pub fn breaking(&self) -> impl Iterator<Item = &Change> + '_ {
        self.changes.iter().filter(|c| c.is_breaking())
    }
}

impl fmt::Display for CompatReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            return f.write_str("no changes\n");
        }
        let breaking = self.breaking().count();
        writeln!(
            f,
            "{} change{}, {} breaking (columns: old readers of new bytes, new readers of old bytes)",
            self.changes.len(),
            if self.changes.len() == 1 { "" } else { "s" },
            breaking
        )?;
        for change in &self.changes {
            writeln!(
                f,
                "  {:<8}  {:<8}  {change}",
                change.old_readers, change.new_readers
            )?;
        }
        Ok(())
    }
}

/// Lists every change from `old` to `new`, with whether old readers still read new
/// bytes and new readers still read old bytes, by the rules of FORMAT.md §5
/// (versions), §8 (header) and §4.7 (inline messages), summed up in FORMAT.md §5
/// "Compatibility rules".
///
/// Messages are matched by name, fields by name (then a field gone and a field new
/// at the same offset with the same type are a rename). Offsets are compared from
/// the start of the block proper, so that a change of block length field is one
/// change, not one per field. Enum changes are reported at each field that uses the
/// enum (through options, arrays and lists too).
///
/// # Examples
///
/// ```
/// use wiremsg::schema::{compat, ChangeKind, Verdict};
/// use wiremsg::SchemaSet;
///
/// mod v1 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Quote { pub price: i64, pub size: u32 }
/// }
/// mod v2 {
///     #[derive(wiremsg::WireMsg)]
///     #[wire(version = 2)]
///     pub struct Quote {
///         pub price: i64,
///         pub size: u64, // was u32
///         #[wire(since = 2)]
///         pub venue: u8,
///     }
/// }
///
/// let old = SchemaSet::of::<v1::Quote>().unwrap();
/// let new = SchemaSet::of::<v2::Quote>().unwrap();
/// let report = compat(&old, &new);
/// assert!(!report.is_compatible());
///
/// let size = report.changes().iter().find(|c| c.field.as_deref() == Some("size")).unwrap();
/// assert_eq!(size.kind, ChangeKind::FieldType);
/// assert_eq!((size.old_readers, size.new_readers), (Verdict::Breaking, Verdict::Breaking));
///
/// let venue = report.changes().iter().find(|c| c.kind == ChangeKind::FieldAppended).unwrap();
/// assert_eq!(venue.field.as_deref(), Some("venue"));
/// assert_eq!(venue.verdict(), Verdict::Compatible);
///
/// assert!(report
///     .to_string()
///     .contains("BREAKING  BREAKING  Quote.size: type u32 -> u64"));
/// ```
pub fn compat(old: &SchemaSet, new: &SchemaSet) -> CompatReport {
    let mut removed: Vec<&MessageSchema> = old
        .messages()
        .iter()
        .filter(|o| new.message(&o.name).is_none())
        .collect();
    let mut added: Vec<&MessageSchema> = new
        .messages()
        .iter()
        .filter(|n| old.message(&n.name).is_none())
        .collect();
    // A message renamed: the same template id (and schema id) under another name, or
    // the one root message without a template id of each side that has no partner by
    // name (a message sent on its own, say one `check_snapshot::<T>` checks).
    let mut renamed: Vec<(&MessageSchema, &MessageSchema, &'static str)> = Vec::new();
    removed.retain(|o| {
        let twin = added.iter().position(|n| {
            o.template_id.is_some() && n.template_id == o.template_id && n.schema_id == o.schema_id
        });
        match twin {
            Some(i) => {
                renamed.push((o, added.remove(i), "by its template id"));
                false
            }
            None => true,
        }
    });
    let old_roots: Vec<usize> = (0..removed.len())
        .filter(|&i| removed[i].template_id.is_none() && is_root(old, removed[i]))
        .collect();
    let new_roots: Vec<usize> = (0..added.len())
        .filter(|&i| added[i].template_id.is_none() && is_root(new, added[i]))
        .collect();
    if let ([o], [n]) = (old_roots.as_slice(), new_roots.as_slice()) {
        renamed.push((removed.remove(*o), added.remove(*n), "as the only root"));
    }

    enum Step<'a> {
        Same(&'a MessageSchema, &'a MessageSchema),
        Renamed(&'a MessageSchema, &'a MessageSchema, &'static str),
        Removed(&'a MessageSchema),
        Added(&'a MessageSchema),
    }
    let mut steps: Vec<(&str, Step<'_>)> = old
        .messages()
        .iter()
        .filter_map(|o| Some((o.name.as_ref(), Step::Same(o, new.message(&o.name)?))))
        .collect();
    steps.extend(
        renamed
            .iter()
            .map(|&(o, n, how)| (n.name.as_ref(), Step::Renamed(o, n, how))),
    );
    steps.extend(removed.iter().map(|&o| (o.name.as_ref(), Step::Removed(o))));
    steps.extend(added.iter().map(|&n| (n.name.as_ref(), Step::Added(n))));
    steps.sort_by_key(|(name, _)| *name);

    let mut cx = Cx {
        old,
        new,
        renames: renamed
            .iter()
            .map(|(o, n, _)| (o.name.to_string(), n.name.to_string()))
            .collect(),
        changes: Vec::new(),
    };
    for (_, step) in steps {
        match step {
            Step::Same(o, n) => cx.message(o, n),
            Step::Renamed(o, n, how) => {
                cx.push(
                    At {
                        message: &n.name,
                        field: None,
                    },
                    ChangeKind::TypeRenamed,
                    Caution,
                    Caution,
                    format!(
                        "message `{}` renamed to `{}` (matched {how}; names are not on the wire)",
                        o.name, n.name
                    ),
                );
                cx.message(o, n);
            }
            Step::Removed(o) => cx.message_removed(o),
            Step::Added(n) => cx.message_added(n),
        }
    }
    CompatReport {
        changes: cx.changes,
    }
}

/// True if `ty` names message `name` anywhere (through arrays, options, lists and
/// tuples).
fn names_message(ty: &TypeSchema, name: &str) -> bool {
    let mut found = false;
    super::shape::each_reached_message(ty, &mut |m, _| found |= m.name == name);
    found
}

/// True if no message of `set` nests `message`: a message sent on its own.
fn is_root(set: &SchemaSet, message: &MessageSchema) -> bool {
    !set.messages()
        .iter()
        .any(|m| m.fields.iter().any(|f| names_message(&f.ty, &message.name)))
}

struct Cx<'s> {
    old: &'s SchemaSet,
    new: &'s SchemaSet,
    /// Messages matched under two names: (old name, new name).
    renames: Vec<(String, String)>,
    changes: Vec<Change>,
}

/// Where a change is: a message and perhaps a field.
#[derive(Clone, Copy)]
struct At<'a> {
    message: &'a str,
    field: Option<&'a str>,
}

impl Cx<'_> {
    fn push(
        &mut self,
        at: At<'_>,
        kind: ChangeKind,
        old_readers: Verdict,
        new_readers: Verdict,
        description: String,
    ) {
        self.changes.push(Change {
            message: at.message.to_string(),
            field: at.field.map(str::to_string),
            kind,
            old_readers,
            new_readers,
            description,
        });
    }

    fn message_added(&mut self, n: &MessageSchema) {
        let at = At {
            message: &n.name,
            field: None,
        };
        match n.template_id {
            Some(id) => self.push(
                at,
                ChangeKind::MessageAdded,
                Caution,
                Compatible,
                format!(
                    "message added with template id {id}: old readers do not know it \
                     (a dispatch fails with UnexpectedTemplate on that message only)"
                ),
            ),
            None => self.push(
                at,
                ChangeKind::MessageAdded,
                Compatible,
                Compatible,
                if is_root(self.new, n) {
                    "message added (without a template id: only readers built for it are \
                     sent it)"
                } else {
                    "message added (without a template id: it only travels inside other \
                     messages, whose changes are listed)"
                }
                .to_string(),
            ),
        }
    }

    fn message_removed(&mut self, o: &MessageSchema) {
        let at = At {
            message: &o.name,
            field: None,
        };
        let description = match o.template_id {
            Some(id) => format!(
                "message removed (template id {id}): new readers cannot read it from old \
                 writers (UnexpectedTemplate)"
            ),
            None if is_root(self.old, o) => "message removed: new readers cannot read it \
                 from old writers"
                .to_string(),
            None => {
                return self.push(
                    at,
                    ChangeKind::MessageRemoved,
                    Compatible,
                    Compatible,
                    "message removed (it only travelled inside other messages, whose \
                     changes are listed)"
                        .to_string(),
                );
            }
        };
        self.push(
            at,
            ChangeKind::MessageRemoved,
            Compatible,
            Breaking,
            description,
        );
    }

    fn message(&mut self, o: &MessageSchema, n: &MessageSchema) {
        let at = At {
            message: &n.name,
            field: None,
        };
        self.ids(at, o, n);
        if o.has_block_length != n.has_block_length {
            self.block_length_field(at, o, n);
        }
        let mark = self.changes.len();
        self.fields(o, n);
        // A raised version is worth a line of its own only if no field appended in a
        // later version (whose line names it) explains it.
        let explained = self.changes[mark..]
            .iter()
            .any(|c| c.kind == ChangeKind::FieldAppended);
        if (n.version > o.version && !explained) || n.version < o.version {
            let (verdict, what) = if n.version > o.version {
                (Compatible, "raised")
            } else {
                (
                    Caution,
                    "lowered: new writers announce an older version in a header; the \
                     fields' changes say whether its block still agrees",
                )
            };
            let change = Change {
                message: n.name.to_string(),
                field: None,
                kind: ChangeKind::Version,
                old_readers: verdict,
                new_readers: verdict,
                description: format!("schema version {} -> {} ({what})", o.version, n.version),
            };
            self.changes.insert(mark, change);
        }
    }

    fn ids(&mut self, at: At<'_>, o: &MessageSchema, n: &MessageSchema) {
        match (o.template_id, n.template_id) {
            (Some(a), Some(b)) if a != b => self.push(
                at,
                ChangeKind::TemplateId,
                Breaking,
                Breaking,
                format!(
                    "template id {a} -> {b}: each side's header names a template the other \
                     does not expect (UnexpectedTemplate)"
                ),
            ),
            (None, Some(b)) => self.push(
                at,
                ChangeKind::TemplateId,
                Compatible,
                Compatible,
                format!("template id {b} given: the message can now travel behind a header"),
            ),
            (Some(a), None) => self.push(
                at,
                ChangeKind::TemplateId,
                Breaking,
                Breaking,
                format!(
                    "template id {a} taken away: new code neither reads nor writes the \
                     message behind a header, which old code does"
                ),
            ),
            _ => {}
        }
        if o.schema_id != n.schema_id {
            let headed = o.template_id.is_some() || n.template_id.is_some();
            let verdict = if headed { Breaking } else { Compatible };
            self.push(
                at,
                ChangeKind::SchemaId,
                verdict,
                verdict,
                format!(
                    "schema id {} -> {}{}",
                    o.schema_id,
                    n.schema_id,
                    if headed {
                        ": each side's header names a schema the other refuses (SchemaMismatch)"
                    } else {
                        " (the message has no template id, so no header carries it)"
                    }
                ),
            );
        }
    }

    fn block_length_field(&mut self, at: At<'_>, o: &MessageSchema, n: &MessageSchema) {
        let first_tail = n
            .fields
            .iter()
            .find(|f| o.field(&f.name).is_none() && self.has_tail_data(self.new, &f.ty));
        let effect = "every field moves by 2 bytes, and each side reads the other's \
                      block length field as field bytes (or field bytes as a block length)";
        match first_tail {
            Some(field) if !o.has_block_length && !o.has_tail && n.has_tail => self.push(
                at,
                ChangeKind::FirstTailField,
                Breaking,
                Breaking,
                format!(
                    "first variable-size field `{}` added to an all-fixed-size message \
                     without #[wire(block_length)]: the message now starts with a u16 block \
                     length (FORMAT.md §5); {effect}; declare #[wire(block_length)] from the \
                     first version, or send the field in a new message",
                    field.name
                ),
            ),
            _ => self.push(
                at,
                ChangeKind::BlockLengthField,
                Breaking,
                Breaking,
                format!(
                    "the message {} with a u16 block length (FORMAT.md §3): {effect}",
                    if n.has_block_length {
                        "now starts"
                    } else {
                        "no longer starts"
                    }
                ),
            ),
        }
    }

    /// True if a value of `ty` has data in the tail (FORMAT.md §3).
    fn has_tail_data(&self, set: &SchemaSet, ty: &TypeSchema) -> bool {
        match ty {
            TypeSchema::Str
            | TypeSchema::List(_)
            | TypeSchema::BoundedList { .. }
            | TypeSchema::Map(_) => true,
            TypeSchema::Option(inner) => self.has_tail_data(set, inner),
            TypeSchema::Message(m) => set.message(&m.name).is_some_and(|m| m.has_block_length),
            TypeSchema::Tuple(elements) => elements.iter().any(|e| self.has_tail_data(set, e)),
            _ => false,
        }
    }

    fn fields(&mut self, o: &MessageSchema, n: &MessageSchema) {
        // Offsets from the start of the block proper (after a block length field).
        let base = |m: &MessageSchema| if m.has_block_length { 2 } else { 0 };
        let rel_o = |f: &FieldSchema| f.offset.saturating_sub(base(o));
        let rel_n = |f: &FieldSchema| f.offset.saturating_sub(base(n));
        let old_end = o.block_length.saturating_sub(base(o));

        let mut pairs: Vec<(&FieldSchema, &FieldSchema, bool)> = Vec::new();
        let mut gone: Vec<&FieldSchema> = Vec::new();
        for of in o.fields.iter() {
            match n.field(&of.name) {
                Some(nf) => pairs.push((of, nf, false)),
                None => gone.push(of),
            }
        }
        let mut added: Vec<&FieldSchema> = n
            .fields
            .iter()
            .filter(|nf| o.field(&nf.name).is_none())
            .collect();
        // A field gone and a field new at the same offset with the same type and size:
        // a rename.
        gone.retain(|of| {
            let twin = added.iter().position(|nf| {
                rel_o(of) == rel_n(nf) && of.size == nf.size && self.same_shape(&of.ty, &nf.ty)
            });
            match twin {
                Some(i) => {
                    pairs.push((of, added.remove(i), true));
                    false
                }
                None => true,
            }
        });
        pairs.sort_by_key(|(_, nf, _)| nf.offset);

        for (of, nf, renamed) in pairs {
            self.field(n, of, nf, renamed, rel_o(of), rel_n(nf));
        }
        let new_end = n.block_length.saturating_sub(base(n));
        for of in gone {
            let reused = n.fields.iter().any(|nf| {
                let (a, b) = (rel_o(of), rel_n(nf));
                a < b + nf.size && b < a + of.size
            });
            // Old readers see a field past the new block's end as absent, and a header's
            // version agrees, if the field is newer than the new writers' version (a
            // version taken back): they lose its value, nothing else.
            let absent = new_end <= rel_o(of) && of.since > n.version;
            let (old_readers, what) = if reused {
                (Breaking, "old readers read it from other fields' bytes")
            } else if absent {
                (
                    Caution,
                    "old readers read it as absent (the new version is older than the field)",
                )
            } else {
                (
                    Breaking,
                    "old readers need it in a block that new writers make shorter",
                )
            };
            self.push(
                At {
                    message: &n.name,
                    field: Some(&of.name),
                },
                ChangeKind::FieldRemoved,
                old_readers,
                if reused { Breaking } else { Compatible },
                format!(
                    "field removed with its slot (offset {}, {} bytes): {what}; keep it as \
                     #[wire(reserved)] (FORMAT.md §5)",
                    of.offset, of.size,
                ),
            );
        }
        let mut appended = false;
        for nf in added {
            let at = At {
                message: &n.name,
                field: Some(&nf.name),
            };
            if rel_n(nf) < old_end {
                self.push(
                    at,
                    ChangeKind::FieldInserted,
                    Breaking,
                    Breaking,
                    format!(
                        "field inserted at offset {}, inside the old block (which ends at {}): \
                         each side reads it as other fields; fields are only appended \
                         (FORMAT.md §5)",
                        nf.offset, o.block_length
                    ),
                );
            } else if nf.since > o.version {
                appended = true;
                self.push(
                    at,
                    ChangeKind::FieldAppended,
                    Compatible,
                    Compatible,
                    format!(
                        "field appended in version {} at offset {}, after the old block: old \
                         readers skip it, new readers of old bytes read it as absent, with {}",
                        nf.since,
                        nf.offset,
                        default_text(nf)
                    ),
                );
            } else {
                appended = true;
                self.push(
                    at,
                    ChangeKind::FieldAddedToOldVersion,
                    Compatible,
                    Breaking,
                    format!(
                        "field appended with since {}, a version the old schema already had \
                         (up to {}): bytes of that version were written without it, and new \
                         readers fail on them (Truncated or BlockLengthTooSmall; behind a \
                         header, HeaderMismatch); give it since {} and raise the version",
                        nf.since,
                        o.version,
                        o.version + 1
                    ),
                );
            }
        }
        if appended && n.version <= o.version {
            self.push(
                At {
                    message: &n.name,
                    field: None,
                },
                ChangeKind::VersionNotBumped,
                Breaking,
                Breaking,
                format!(
                    "fields were appended but the schema version stayed {}: behind a header \
                     (FORMAT.md §8) version {} now names two blocks, and each side refuses \
                     the other's (HeaderMismatch)",
                    n.version, n.version
                ),
            );
        }
    }

    fn field(
        &mut self,
        n: &MessageSchema,
        of: &FieldSchema,
        nf: &FieldSchema,
        renamed: bool,
        rel_o: usize,
        rel_n: usize,
    ) {
        let at = At {
            message: &n.name,
            field: Some(&nf.name),
        };
        if renamed {
            self.push(
                at,
                ChangeKind::FieldRenamed,
                Caution,
                Caution,
                format!(
                    "field `{}` renamed to `{}` (same offset and type: compatible on the \
                     wire, but code, JSON and schema listings see the new name)",
                    of.name, nf.name
                ),
            );
        }
        if rel_o != rel_n {
            self.push(
                at,
                ChangeKind::FieldMoved,
                Breaking,
                Breaking,
                format!(
                    "offset {} -> {}: each side reads the field from the other's bytes of \
                     other fields",
                    of.offset, nf.offset
                ),
            );
        }
        let both_reserved = of.reserved && nf.reserved;
        if let Some((kind, mut text)) = self.shape_change(&of.ty, &nf.ty) {
            if kind == ChangeKind::FieldType {
                // Name the whole types, not the innermost ones that differ.
                text = format!(
                    "type {} -> {}: each side misreads the other's bytes",
                    of.ty.display(),
                    nf.ty.display()
                );
            }
            let verdict = if both_reserved && of.size == nf.size {
                Compatible
            } else {
                Breaking
            };
            self.push(at, kind, verdict, verdict, text);
        } else {
            if of.size != nf.size {
                let name = named_message(&nf.ty).unwrap_or("?");
                self.push(
                    at,
                    ChangeKind::InlineBlock,
                    Breaking,
                    Breaking,
                    format!(
                        "the message `{name}` nested inline changed its slot from {} to {} \
                         bytes: an inline block is frozen (FORMAT.md §4.7), so each side \
                         misreads the other's bytes from here on; nest it in a Vec (its \
                         stride carries its block length) or give it #[wire(block_length)]",
                        of.size, nf.size
                    ),
                );
            }
            self.walk_types(at, &of.ty, &nf.ty);
        }
        if of.since != nf.since {
            let (lo, hi) = (of.since.min(nf.since), of.since.max(nf.since));
            self.push(
                at,
                ChangeKind::Since,
                Compatible,
                Breaking,
                format!(
                    "since {} -> {}: the schemas disagree on whether bytes of versions {lo} to \
                     {} hold the field, so new readers misjudge those bytes' block \
                     (Truncated, BlockLengthTooSmall, or HeaderMismatch behind a header)",
                    of.since,
                    nf.since,
                    hi - 1
                ),
            );
        }
        match (of.reserved, nf.reserved) {
            (false, true) => self.push(
                at,
                ChangeKind::FieldReserved,
                Caution,
                Compatible,
                "field retired as #[wire(reserved)]: its slot stays, but new writers fill \
                 it with the type's default, which old readers read as the value"
                    .to_string(),
            ),
            (true, false) => self.push(
                at,
                ChangeKind::FieldUnreserved,
                Compatible,
                Caution,
                "reserved field made readable again: new readers of old bytes read the \
                 type's default that old writers put in the slot"
                    .to_string(),
            ),
            _ => {}
        }
        if (of.since > 1 || nf.since > 1) && of.default != nf.default {
            self.push(
                at,
                ChangeKind::Default,
                Compatible,
                Caution,
                format!(
                    "declared default {} -> {}: new readers of bytes written before version \
                     {} read the new default where old readers read the old one",
                    declared_default(of),
                    declared_default(nf),
                    nf.since
                ),
            );
        }
    }

    /// The outermost difference in shape (what the bytes mean, leaving aside enum
    /// variants and the contents of messages by name), or `None` if the shapes are
    /// the same.
    fn shape_change(&self, o: &TypeSchema, n: &TypeSchema) -> Option<(ChangeKind, String)> {
        use TypeSchema as T;
        let (a, b) = (o.display(), n.display());
        match (o, n) {
            (T::Option(x), T::Option(y)) => self.shape_change(x, y),
            (
                T::Array {
                    element: x,
                    len: lx,
                },
                T::Array {
                    element: y,
                    len: ly,
                },
            ) => {
                if lx != ly {
                    Some((
                        ChangeKind::ArrayLength,
                        format!(
                            "array length {lx} -> {ly} ({a} -> {b}): the slot changes size, and \
                             each side misreads the elements and every later field"
                        ),
                    ))
                } else {
                    self.shape_change(x, y)
                }
            }
            (
                T::List(x) | T::BoundedList { element: x, .. },
                T::List(y) | T::BoundedList { element: y, .. },
            ) => self.shape_change(x, y).map(|_| {
                (
                    ChangeKind::ListElement,
                    format!(
                        "list element type {} -> {}: each side reads the other's elements \
                         with the wrong layout",
                        x.display(),
                        y.display()
                    ),
                )
            }),
            (T::FixedStr { len: lx }, T::FixedStr { len: ly }) if lx != ly => Some((
                ChangeKind::FixedStrWidth,
                format!(
                    "FixedStr width {lx} -> {ly}: the slot changes size, text is cut or \
                     runs into the next field, and every later field moves"
                ),
            )),
            (
                T::FixedStr { len: lx } | T::FixedStrPadded { len: lx, .. },
                T::FixedStr { len: ly } | T::FixedStrPadded { len: ly, .. },
            ) if lx == ly => None,
            (T::Decimal { mantissa: x, .. }, T::Decimal { mantissa: y, .. })
            | (T::Nullable { value: x, .. }, T::Nullable { value: y, .. }) => {
                self.shape_change(x, y)
            }
            (T::Enum(x), T::Enum(y)) if x.repr != y.repr => Some((
                ChangeKind::EnumRepr,
                format!(
                    "enum `{}` representation {} -> {}: the slot changes width, and each \
                     side misreads the value and every later field",
                    y.name,
                    x.repr.display(),
                    y.repr.display()
                ),
            )),
            (T::Enum(_), T::Enum(_)) => None,
            (T::Union(x), T::Union(y)) if x.tag != y.tag => Some((
                ChangeKind::UnionTag,
                format!(
                    "union `{}` tag {} -> {}: each side reads the other's tag with the wrong width, and its payload from the wrong byte",
                    y.name,
                    x.tag.display(),
                    y.tag.display()
                ),
            )),
            (T::Union(_), T::Union(_)) => None,
            (T::Tuple(x), T::Tuple(y)) if x.len() == y.len() => x
                .iter()
                .zip(y.iter())
                .find_map(|(x, y)| self.shape_change(x, y))
                .map(|(kind, what)| (kind, format!("in tuple {a} -> {b}: {what}"))),
            // A key of another type reads (and orders) the other side's keys wrongly.
            (T::Map(x), T::Map(y)) => self
                .shape_change(x, y)
                .map(|(kind, what)| (kind, format!("in map {a} -> {b}: {what}"))),
            (T::Message(x), T::Message(y))
                if x.name == y.name
                    || self.is_rename(&x.name, &y.name)
                    || self.same_layout(x, y) =>
            {
                None
            }
            (T::Option(x), y) if self.shape_change(x, y).is_none() => Some((
                ChangeKind::OptionRemoved,
                format!(
                    "{a} -> {b}: the presence byte is gone, so each side reads the value one \
                     byte off"
                ),
            )),
            (x, T::Option(y)) if self.shape_change(x, y).is_none() => Some((
                ChangeKind::OptionAdded,
                format!(
                    "{a} -> {b}: a presence byte now comes first, so each side reads the \
                     value one byte off"
                ),
            )),
            (x, y) if x == y => None,
            _ => Some((
                ChangeKind::FieldType,
                format!("type {a} -> {b}: each side misreads the other's bytes"),
            )),
        }
    }

    /// True if the old message `x` was matched with the new message `y`.
    fn is_rename(&self, x: &str, y: &str) -> bool {
        self.renames.iter().any(|(o, n)| o == x && n == y)
    }

    /// Two differently named messages that have the same fields at the same offsets.
    fn same_layout(&self, x: &super::MessageRef, y: &super::MessageRef) -> bool {
        match (self.old.message(&x.name), self.new.message(&y.name)) {
            (Some(a), Some(b)) => {
                a.block_length == b.block_length
                    && a.has_block_length == b.has_block_length
                    && a.fields == b.fields
            }
            _ => false,
        }
    }

    fn same_shape(&self, o: &TypeSchema, n: &TypeSchema) -> bool {
        self.shape_change(o, n).is_none()
    }

    /// Walks two types of the same shape side by side and reports what changed in
    /// their enums and in the names of their nested types.
    fn walk_types(&mut self, at: At<'_>, o: &TypeSchema, n: &TypeSchema) {
        use TypeSchema as T;
        match (o, n) {
            (T::Option(x), T::Option(y))
            | (T::Array { element: x, .. }, T::Array { element: y, .. }) => {
                self.walk_types(at, x, y);
            }
            (
                T::List(x) | T::BoundedList { element: x, .. },
                T::List(y) | T::BoundedList { element: y, .. },
            ) => {
                self.list_bound(at, o, n);
                self.union_list_layout(at, x, y);
                self.walk_types(at, x, y);
            }
            (T::Nullable { value: x, null: a }, T::Nullable { value: y, null: b }) => {
                if a != b {
                    self.push(
                        at,
                        ChangeKind::NullSentinel,
                        Breaking,
                        Breaking,
                        format!(
                            "null sentinel {a} -> {b}: each side reads the other's \"absent\" \
                             as a present value"
                        ),
                    );
                }
                self.walk_types(at, x, y);
            }
            (T::Decimal { scale: a, .. }, T::Decimal { scale: b, .. }) if a != b => self.push(
                at,
                ChangeKind::DecimalScale,
                Breaking,
                Breaking,
                format!(
                    "decimal scale {a} -> {b}: the same mantissa is another value, off by a \
                     power of ten"
                ),
            ),
            (
                T::FixedStr { .. } | T::FixedStrPadded { .. },
                T::FixedStr { .. } | T::FixedStrPadded { .. },
            ) => {
                let pad = |t: &TypeSchema| match t {
                    T::FixedStrPadded { pad, .. } => *pad,
                    _ => b' ',
                };
                let (a, b) = (pad(o), pad(n));
                if a != b {
                    self.push(
                        at,
                        ChangeKind::TextPadding,
                        Breaking,
                        Breaking,
                        format!(
                            "padding byte {a:#04x} -> {b:#04x}: each side reads the other's \
                             padding as text (or rejects it)"
                        ),
                    );
                }
            }
            (T::Enum(x), T::Enum(y)) => self.enumeration(at, x, y),
            (T::Union(x), T::Union(y)) => self.union(at, x, y),
            (T::Tuple(x), T::Tuple(y)) => {
                for (x, y) in x.iter().zip(y.iter()) {
                    self.walk_types(at, x, y);
                }
            }
            (T::Map(x), T::Map(y)) => self.walk_types(at, x, y),
            (T::Message(x), T::Message(y)) if x.name != y.name => self.push(
                at,
                ChangeKind::TypeRenamed,
                Caution,
                Caution,
                format!(
                    "nested message `{}` renamed to `{}` (names are not on the wire; its \
                     own changes, if any, are listed under it)",
                    x.name, y.name
                ),
            ),
            _ => {}
        }
    }

    /// A list's maximum length: a lower one refuses longer lists that the other side
    /// writes (FORMAT.md §6.5).
    fn list_bound(&mut self, at: At<'_>, o: &TypeSchema, n: &TypeSchema) {
        let bound = |t: &TypeSchema| match t {
            TypeSchema::BoundedList { max_len, .. } => Some(*max_len),
            _ => None,
        };
        let (a, b) = (bound(o), bound(n));
        if a == b {
            return;
        }
        // A side refuses what the other may write when its bound is lower.
        let lower = |x: Option<usize>, y: Option<usize>| match (x, y) {
            (Some(x), Some(y)) => x < y,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let verdict = |refuses: bool| if refuses { Breaking } else { Compatible };
        let show = |x: Option<usize>| x.map_or("none".to_string(), |x| x.to_string());
        self.push(
            at,
            ChangeKind::ListBound,
            verdict(lower(a, b)),
            verdict(lower(b, a)),
            format!(
                "max_len {} -> {}: the side with the lower bound refuses a longer list the \
                 other writes (ListTooLong)",
                show(a),
                show(b)
            ),
        );
    }

    /// A list of a union that is fixed-size on one side only (FORMAT.md §4.10): one
    /// side's lists are dense (§6.8), the other's table lists (§6.4), and each
    /// misreads or refuses the other's (a union value outside a list has the same
    /// bytes either way).
    fn union_list_layout(&mut self, at: At<'_>, o: &TypeSchema, n: &TypeSchema) {
        let (TypeSchema::Union(x), TypeSchema::Union(y)) = (o, n) else {
            return;
        };
        let (was, is) = (
            fixed_size_union(self.old, x).is_some(),
            fixed_size_union(self.new, y).is_some(),
        );
        if was == is {
            return;
        }
        let layout = |fixed: bool| {
            if fixed {
                "dense lists (FORMAT.md §6.8)"
            } else {
                "table lists (§6.4)"
            }
        };
        let why = if was {
            "gained a variant with a tail or a catch-all"
        } else {
            "became fixed-size (no catch-all, no variant with a tail)"
        };
        self.push(
            at,
            ChangeKind::UnionListLayout,
            Breaking,
            Breaking,
            format!(
                "union `{}` {why}: its lists change from {} to {}, and each side misreads \
                 or refuses the other's",
                y.name,
                layout(was),
                layout(is)
            ),
        );
    }

    fn enumeration(&mut self, at: At<'_>, o: &EnumSchema, n: &EnumSchema) {
        let name = &n.name;
        if o.name != n.name {
            self.push(
                at,
                ChangeKind::TypeRenamed,
                Caution,
                Caution,
                format!(
                    "enum `{}` renamed to `{}` (the wire carries values, not names)",
                    o.name, n.name
                ),
            );
        }
        let unknown = |catch_all: &Option<super::Name>, value: u64| match catch_all {
            Some(other) => (Caution, format!("read it as `{other}({value})`")),
            None => (Breaking, "fail on it (UnknownEnumValue)".to_string()),
        };
        for ov in o.variants.iter() {
            if let Some(nv) = n.variants.iter().find(|v| v.name == ov.name) {
                if nv.value != ov.value {
                    self.push(
                        at,
                        ChangeKind::EnumVariantValue,
                        Breaking,
                        Breaking,
                        format!(
                            "enum `{name}` variant `{}` value {} -> {}: each side reads the \
                             other's `{}` as another variant or an unknown value",
                            ov.name, ov.value, nv.value, ov.name
                        ),
                    );
                }
            } else if let Some(nv) = n.variants.iter().find(|v| v.value == ov.value) {
                self.push(
                    at,
                    ChangeKind::EnumVariantRenamed,
                    Caution,
                    Caution,
                    format!(
                        "enum `{name}` variant `{}` renamed to `{}` (same value {})",
                        ov.name, nv.name, ov.value
                    ),
                );
            } else {
                let (verdict, what) = unknown(&n.catch_all, ov.value);
                self.push(
                    at,
                    ChangeKind::EnumVariantRemoved,
                    Compatible,
                    verdict,
                    format!(
                        "enum `{name}` variant `{}` ({}) removed: new readers meeting it in \
                         old bytes {what}",
                        ov.name, ov.value
                    ),
                );
            }
        }
        for nv in n.variants.iter() {
            let known_name = o.variants.iter().any(|v| v.name == nv.name);
            let renamed = o
                .variants
                .iter()
                .any(|v| v.value == nv.value && !n.variants.iter().any(|w| w.name == v.name));
            if !known_name && !renamed {
                let (verdict, what) = unknown(&o.catch_all, nv.value);
                self.push(
                    at,
                    ChangeKind::EnumVariantAdded,
                    verdict,
                    Compatible,
                    format!(
                        "enum `{name}` variant `{}` ({}) added: old readers meeting it in new \
                         bytes {what}",
                        nv.name, nv.value
                    ),
                );
            }
        }
        match (&o.catch_all, &n.catch_all) {
            (Some(other), None) => self.push(
                at,
                ChangeKind::CatchAllRemoved,
                Compatible,
                Breaking,
                format!(
                    "enum `{name}` lost its catch-all `{other}`: old writers may write any \
                     value, and new readers fail on the unknown ones (UnknownEnumValue)"
                ),
            ),
            (None, Some(other)) => self.push(
                at,
                ChangeKind::CatchAllAdded,
                Breaking,
                Compatible,
                format!(
                    "enum `{name}` gained a catch-all `{other}`: new writers may write any \
                     value (one they kept, or relay), and old readers fail on the values they \
                     have no variant for (UnknownEnumValue)"
                ),
            ),
            (Some(a), Some(b)) if a != b => self.push(
                at,
                ChangeKind::EnumVariantRenamed,
                Caution,
                Caution,
                format!("enum `{name}` catch-all `{a}` renamed to `{b}`"),
            ),
            _ => {}
        }
    }
}

impl Cx<'_> {
    /// The variants of two versions of a union (FORMAT.md §4.10): matched by name,
    /// else by tag (a rename). A payload's own changes are those of its message,
    /// reported under it.
    fn union(&mut self, at: At<'_>, o: &UnionSchema, n: &UnionSchema) {
        let name = &n.name;
        if o.name != n.name {
            self.push(
                at,
                ChangeKind::TypeRenamed,
                Caution,
                Caution,
                format!(
                    "union `{}` renamed to `{}` (the wire carries tags, not names)",
                    o.name, n.name
                ),
            );
        }
        let unknown = |catch_all: &Option<super::Name>, tag: u64| match catch_all {
            Some(other) => (
                Caution,
                format!("keep it as `{other}` (tag {tag}, raw bytes)"),
            ),
            None => (Breaking, "fail on it (UnknownVariant)".to_string()),
        };
        let payload = |v: &UnionVariantSchema| v.payload.as_ref().map(|m| m.name.clone());
        for ov in o.variants.iter() {
            let by_name = n.variants.iter().find(|v| v.name == ov.name);
            let by_tag = n.variants.iter().find(|v| v.tag == ov.tag);
            let matched = match (by_name, by_tag) {
                (Some(nv), _) => {
                    if nv.tag != ov.tag {
                        self.push(
                            at,
                            ChangeKind::UnionVariantTag,
                            Breaking,
                            Breaking,
                            format!(
                                "union `{name}` variant `{}` tag {} -> {}: each side reads the other's `{}` as another variant or an unknown tag",
                                ov.name, ov.tag, nv.tag, ov.name
                            ),
                        );
                    }
                    Some(nv)
                }
                (None, Some(nv)) if !o.variants.iter().any(|v| v.name == nv.name) => {
                    self.push(
                        at,
                        ChangeKind::UnionVariantRenamed,
                        Caution,
                        Caution,
                        format!(
                            "union `{name}` variant `{}` renamed to `{}` (same tag {})",
                            ov.name, nv.name, ov.tag
                        ),
                    );
                    Some(nv)
                }
                _ => None,
            };
            match matched {
                Some(nv) => {
                    let (a, b) = (payload(ov), payload(nv));
                    let same = match (&a, &b) {
                        (Some(x), Some(y)) => x == y || self.is_rename(x, y),
                        (None, None) => true,
                        _ => false,
                    };
                    if !same {
                        let show = |p: &Option<super::Name>| {
                            p.as_ref()
                                .map_or("no payload".to_string(), |m| format!("`{m}`"))
                        };
                        self.push(
                            at,
                            ChangeKind::UnionVariantPayload,
                            Breaking,
                            Breaking,
                            format!(
                                "union `{name}` variant `{}` payload {} -> {}: each side reads the other's payload as another message",
                                nv.name,
                                show(&a),
                                show(&b)
                            ),
                        );
                    }
                }
                None => {
                    let (verdict, what) = unknown(&n.catch_all, ov.tag);
                    self.push(
                        at,
                        ChangeKind::UnionVariantRemoved,
                        Compatible,
                        verdict,
                        format!(
                            "union `{name}` variant `{}` (tag {}) removed: new readers meeting it in old bytes {what}",
                            ov.name, ov.tag
                        ),
                    );
                }
            }
        }
        for nv in n.variants.iter() {
            let known_name = o.variants.iter().any(|v| v.name == nv.name);
            let renamed = o
                .variants
                .iter()
                .any(|v| v.tag == nv.tag && !n.variants.iter().any(|w| w.name == v.name));
            if !known_name && !renamed {
                let (verdict, what) = unknown(&o.catch_all, nv.tag);
                self.push(
                    at,
                    ChangeKind::UnionVariantAdded,
                    verdict,
                    Compatible,
                    format!(
                        "union `{name}` variant `{}` (tag {}) added: old readers meeting it in new bytes {what}",
                        nv.name, nv.tag
                    ),
                );
            }
        }
        match (&o.catch_all, &n.catch_all) {
            (Some(other), None) => self.push(
                at,
                ChangeKind::CatchAllRemoved,
                Compatible,
                Breaking,
                format!(
                    "union `{name}` lost its catch-all `{other}`: old writers may relay any tag, and new readers fail on the unknown ones (UnknownVariant)"
                ),
            ),
            (None, Some(other)) => self.push(
                at,
                ChangeKind::CatchAllAdded,
                Breaking,
                Compatible,
                format!(
                    "union `{name}` gained a catch-all `{other}`: new writers may relay tags they kept, and old readers fail on those (UnknownVariant)"
                ),
            ),
            (Some(a), Some(b)) if a != b => self.push(
                at,
                ChangeKind::UnionVariantRenamed,
                Caution,
                Caution,
                format!("union `{name}` catch-all `{a}` renamed to `{b}`"),
            ),
            _ => {}
        }
    }
}

/// What a reader gets for a field its writer did not have.
fn default_text(f: &FieldSchema) -> String {
    match &f.default {
        Some(d) => format!("its default {d:?}"),
        None => "the type's default".to_string(),
    }
}

/// A field's declared default, as bytes, or `none`.
fn declared_default(f: &FieldSchema) -> String {
    match &f.default {
        Some(d) => format!("{d:?}"),
        None => "none".to_string(),
    }
}
