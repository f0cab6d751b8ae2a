//! SBE: a [`SchemaSet`] as a FIX Simple Binary Encoding 1.0 message schema (XML), for
//! the messages whose bytes SBE can describe exactly.
//!
//! wiremsg's fixed-size messages are SBE blocks already: little-endian, packed, each
//! field at a fixed offset (FORMAT.md §2, §4), and wiremsg's message header (FORMAT.md
//! §8) is SBE's standard 8-byte `messageHeader` (block length, template id, schema
//! id, version, four `uint16`s). So the export writes the header composite, one
//! `<sbe:message>` per message with a template id (its `id`), its `blockLength` and
//! an explicit `offset` for every field, and an SBE encoder of that schema writes the
//! same bytes as wiremsg (the benches' SBE peer proves it on the HFT feed).
//!
//! # What fits
//!
//! | wiremsg | SBE |
//! |---|---|
//! | `u8`..`u64`, `i8`..`i64`, `f32`, `f64` | `uint8`..`uint64`, `int8`..`int64`, `float`, `double` |
//! | `bool` | enum `BooleanType` on `uint8` (`False` 0, `True` 1): SBE has no boolean |
//! | `[T; N]`, `T` a number | `<type>` with `length="N"` |
//! | `FixedStr<N, PAD>` | `char` with `length="N"`, `characterEncoding="UTF-8"`; SBE pads with NUL, so another `PAD` (the default space) is stated in the type's `description` |
//! | `#[derive(WireEnum)]` | `<enum>` with `encodingType` the repr; a catch-all variant is noted in its `description` (SBE readers see other values as unknown, wiremsg keeps them) |
//! | `#[wire(null = V)] Option<T>` | a `<type>` with `presence="optional"` and `nullValue="V"` |
//! | `Decimal<M, S>` | a composite: `mantissa` (`M`) and a constant `exponent` of `-S` (an `int8` taking no bytes) |
//! | a nested fixed-size message | a composite named like the message, its fields as members at their offsets |
//! | a field added in version `N > 1` | `sinceVersion="N"`; the schema's `version` is the highest message version |
//! | `#[wire(reserved)]` | no field: the explicit offsets leave its bytes as a gap (in a composite, a `uint8` array member) |
//!
//! Field ids are the field's position in the message, from 1, reserved fields
//! included, so that they stay put as the message grows.
//!
//! # What does not fit, and why
//!
//! Each is refused ([`ExportError::Unfit`]), naming the message or field, its offset
//! and the reason; an export writes every fitting message or nothing.
//!
//! - A field with data in the tail (`String`, `Vec<T>`, an `Option` of one, a nested
//!   message with a tail): SBE's variable-length parts (repeating groups, `data`)
//!   come after the block with size headers of their own, not wiremsg's end offsets.
//! - `Option<T>` with a presence byte (FORMAT.md §4.5): SBE has no presence byte;
//!   only an optional number with a null value fits (FORMAT.md §4.9).
//! - A message with an in-block block length field (`#[wire(block_length)]`,
//!   FORMAT.md §3): an SBE block has no such field, its length is only in the header.
//! - `u128`, `i128`: SBE 1.0's primitives stop at 64 bits.
//! - Arrays of anything but numbers (`bool`, enums, messages, text, arrays): SBE's
//!   `length` applies to primitive types only.
//! - A message without a template id that no exported message nests: an SBE message
//!   is known by its template id.
//! - Messages of different schema ids in one export: an SBE schema has one id, which
//!   every header carries.
//! - A name that is not an SBE name (`symbolicName_t`: ASCII letters, digits and
//!   `_`, at most 64 characters), which Rust names can be.
//! - An enum with a variant whose value is the largest of its repr: SBE keeps it as
//!   the enum's null value.
//! - Two types of one name (two enums named alike in different modules, a message
//!   both sent alone and nested inline, a name the exporter uses for its own types):
//!   SBE code generators name their classes after the type.
//!
//! Source of the SBE rules: FIX Simple Binary Encoding Technical Specification 1.0
//! (message schema, message header, composite, enum and field attributes).

use super::{ExportError, Format, Unfit};
use std::fmt::Write as _;
use wiremsg::{EnumSchema, FieldSchema, MessageSchema, SchemaSet, TypeSchema};

/// The name SBE gives the header composite; no other type may take it.
const HEADER_TYPE: &str = "messageHeader";

/// What to export and how to name it.
///
/// # Examples
///
/// ```
/// use wiremsg_cli::export::sbe::Options;
///
/// let mut options = Options::new("market.data");
/// options.messages = vec!["AddOrder".into()];
/// assert_eq!(options.package, "market.data");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The schema's `package`: identifiers joined by dots (`market.data`).
    pub package: String,
    /// The messages to export, by name, with what they nest; empty for every message
    /// of the set.
    pub messages: Vec<String>,
    /// One more line for the comment at the top (e.g. how the file is regenerated);
    /// it may not contain `--`, which ends nothing but is not allowed in an XML
    /// comment.
    pub note: Option<String>,
}

impl Options {
    /// Every message of the set, in package `package`, without a note.
    pub fn new(package: impl Into<String>) -> Self {
        Options {
            package: package.into(),
            messages: Vec::new(),
            note: None,
        }
    }
}

/// The SBE 1.0 XML schema of the messages of `set` that `options` selects.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, WireMsg};
/// use wiremsg_cli::export::{ExportError, sbe};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1, schema_id = 7)]
/// struct Fill {
///     #[wire(null = 0)]
///     qty: Option<u32>,
///     px: i64,
/// }
///
/// let xml = sbe::export(&SchemaSet::of::<Fill>()?, &sbe::Options::new("fills"))?;
/// assert!(xml.contains(r#"<sbe:message name="Fill" id="1" blockLength="12">"#));
/// assert!(xml.contains(
///     r#"<type name="OptionalUint32Null0" primitiveType="uint32" presence="optional" nullValue="0"/>"#
/// ));
///
/// // A string has no place in an SBE block.
/// #[derive(WireMsg)]
/// #[wire(template_id = 2)]
/// struct Note {
///     text: String,
/// }
/// let Err(ExportError::Unfit { unfit, .. }) =
///     sbe::export(&SchemaSet::of::<Note>()?, &sbe::Options::new("notes"))
/// else {
///     unreachable!()
/// };
/// assert_eq!(unfit[0].path, "Note.text");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`ExportError::Unfit`] listing every message and field that SBE cannot express
///   (see the module docs);
/// - [`ExportError::Options`] if a name in `options.messages` is not in the set, the
///   package is not dotted identifiers, the note contains `--`, or nothing is
///   selected.
pub fn export(set: &SchemaSet, options: &Options) -> Result<String, ExportError> {
    check_options(options)?;
    let candidates: Vec<&MessageSchema> = if options.messages.is_empty() {
        set.messages().iter().collect()
    } else {
        options
            .messages
            .iter()
            .map(|name| {
                set.message(name).ok_or_else(|| {
                    ExportError::Options(format!("no message named `{name}` in the schema"))
                })
            })
            .collect::<Result<_, _>>()?
    };
    if candidates.is_empty() {
        return Err(ExportError::Options("the schema has no message".into()));
    }

    let mut plan = Plan {
        set,
        types: Vec::new(),
        unfit: Vec::new(),
        nested: Vec::new(),
    };
    let mut roots: Vec<&MessageSchema> = candidates
        .iter()
        .copied()
        .filter(|m| m.template_id.is_some())
        .collect();
    roots.sort_by_key(|m| m.template_id);
    let messages: Vec<PlannedMessage<'_>> = roots.iter().map(|m| plan.message(m)).collect();

    // A message without a template id fits only nested inline (as a composite). One
    // that nothing nests is refused, with what else would stop it, so that every
    // reason shows at once; one that is nested shows its faults at its uses.
    let standalone: Vec<(&MessageSchema, Vec<Unfit>)> = candidates
        .iter()
        .filter(|m| m.template_id.is_none())
        .map(|m| {
            let outer = std::mem::take(&mut plan.unfit);
            plan.message(m);
            (*m, std::mem::replace(&mut plan.unfit, outer))
        })
        .collect();
    for (m, unfit) in standalone {
        if !plan.nested.contains(&m.name.as_ref()) {
            plan.refuse(
                &m.name,
                0,
                "no template id: an SBE message is known by its template id \
                 (`#[wire(template_id = N)]`); without one a message fits only nested \
                 inline in an exported message"
                    .into(),
            );
            plan.unfit.extend(unfit);
        }
    }
    let schema_id = roots.first().map_or(0, |m| m.schema_id);
    for m in roots.iter().skip(1) {
        if m.schema_id != schema_id {
            plan.refuse(
                &m.name,
                0,
                format!(
                    "schema id {}, where `{}` has {schema_id}: an SBE schema has one id, \
                     which every message header carries; export each schema id's messages \
                     on their own (`--type`)",
                    m.schema_id, roots[0].name
                ),
            );
        }
    }
    for t in &plan.types {
        if t.name == HEADER_TYPE {
            plan.unfit.push(Unfit {
                path: t.name.clone(),
                offset: 0,
                reason: "`messageHeader` is the name of SBE's header composite".into(),
            });
        } else if let Some(m) = roots.iter().find(|m| m.name == t.name) {
            plan.unfit.push(Unfit {
                path: m.name.to_string(),
                offset: 0,
                reason: format!(
                    "`{}` names both an SBE message and a type ({}): SBE code generators \
                     name their classes after both",
                    m.name,
                    t.decl.what()
                ),
            });
        }
    }
    if roots.is_empty() && plan.unfit.is_empty() {
        return Err(ExportError::Options(
            "no message with a template id to export".into(),
        ));
    }
    if !plan.unfit.is_empty() {
        return Err(ExportError::Unfit {
            format: Format::Sbe,
            unfit: plan.unfit,
        });
    }
    let version = roots.iter().map(|m| m.version).max().unwrap_or(1);
    Ok(render(
        set,
        options,
        schema_id,
        version,
        &plan.types,
        &messages,
    ))
}

fn check_options(options: &Options) -> Result<(), ExportError> {
    let identifier = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !options.package.split('.').all(identifier) {
        return Err(ExportError::Options(format!(
            "package `{}`: SBE packages are identifiers joined by dots (`market.data`)",
            options.package
        )));
    }
    if let Some(note) = &options.note {
        if note.contains("--") || note.ends_with('-') || note.contains('\n') {
            return Err(ExportError::Options(
                "the note is one line without `--` (not allowed in an XML comment)".into(),
            ));
        }
    }
    Ok(())
}

/// An SBE primitive type: its name in the schema and in generated type names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Prim {
    sbe: &'static str,
    pascal: &'static str,
    signed: bool,
    float: bool,
    size: u32,
}

const fn prim(sbe: &'static str, pascal: &'static str, signed: bool, size: u32) -> Prim {
    Prim {
        sbe,
        pascal,
        signed,
        float: false,
        size,
    }
}

/// The SBE primitive of a wiremsg number type, if it has one.
fn primitive(ty: &TypeSchema) -> Option<Prim> {
    Some(match ty {
        TypeSchema::U8 => prim("uint8", "Uint8", false, 1),
        TypeSchema::U16 => prim("uint16", "Uint16", false, 2),
        TypeSchema::U32 => prim("uint32", "Uint32", false, 4),
        TypeSchema::U64 => prim("uint64", "Uint64", false, 8),
        TypeSchema::I8 => prim("int8", "Int8", true, 1),
        TypeSchema::I16 => prim("int16", "Int16", true, 2),
        TypeSchema::I32 => prim("int32", "Int32", true, 4),
        TypeSchema::I64 => prim("int64", "Int64", true, 8),
        TypeSchema::F32 => Prim {
            float: true,
            ..prim("float", "Float", true, 4)
        },
        TypeSchema::F64 => Prim {
            float: true,
            ..prim("double", "Double", true, 8)
        },
        _ => return None,
    })
}

impl Prim {
    /// SBE's default null value of an optional integer: the minimum of a signed type,
    /// the maximum of an unsigned one (SBE 1.0, "Range attributes for integer fields").
    fn default_null(self) -> i128 {
        let bits = self.size * 8;
        if self.signed {
            -(1i128 << (bits - 1))
        } else {
            (1i128 << bits) - 1
        }
    }
}

/// A type declared in `<types>`.
#[derive(Debug, Clone, PartialEq)]
struct Declared<'s> {
    name: String,
    decl: Decl<'s>,
}

#[derive(Debug, Clone, PartialEq)]
enum Decl<'s> {
    Array {
        prim: Prim,
        len: usize,
    },
    Chars {
        len: usize,
        pad: u8,
    },
    Optional {
        prim: Prim,
        null: i128,
    },
    Boolean,
    Enum(&'s EnumSchema),
    Decimal {
        prim: Prim,
        scale: u32,
        null: Option<i128>,
    },
    Composite {
        message: &'s MessageSchema,
        members: Vec<Member>,
    },
}

impl Decl<'_> {
    /// What the type is, in a refusal.
    fn what(&self) -> &'static str {
        match self {
            Decl::Array { .. } => "an array type",
            Decl::Chars { .. } => "a character array type",
            Decl::Optional { .. } => "an optional number type",
            Decl::Boolean => "the exporter's boolean enum",
            Decl::Enum(_) => "an enum",
            Decl::Decimal { .. } => "a decimal composite",
            Decl::Composite { .. } => "the composite of a message nested inline",
        }
    }
}

/// How a field or member names its type.
#[derive(Debug, Clone, PartialEq)]
struct TypeRef {
    /// A built-in primitive's name, or a declared type's.
    name: String,
    primitive: bool,
    /// The type is an optional number (`presence="optional"` on the field too).
    optional: bool,
}

/// A member of a composite made from a nested message.
#[derive(Debug, Clone, PartialEq)]
struct Member {
    name: String,
    offset: usize,
    kind: MemberKind,
}

#[derive(Debug, Clone, PartialEq)]
enum MemberKind {
    Type(TypeRef),
    /// A reserved field's bytes, kept as a `uint8` array so the composite keeps its size.
    Reserved {
        len: usize,
    },
}

/// A message to write, with its fields' types resolved.
struct PlannedMessage<'s> {
    message: &'s MessageSchema,
    fields: Vec<(usize, &'s FieldSchema, TypeRef)>,
}

/// The types the exported messages need, and what does not fit.
struct Plan<'s> {
    set: &'s SchemaSet,
    types: Vec<Declared<'s>>,
    unfit: Vec<Unfit>,
    /// Names of the messages some planned message nests inline, fitting or not.
    nested: Vec<&'s str>,
}

impl<'s> Plan<'s> {
    fn refuse(&mut self, path: &str, offset: usize, reason: String) {
        self.unfit.push(Unfit {
            path: path.to_owned(),
            offset,
            reason,
        });
    }

    fn message(&mut self, m: &'s MessageSchema) -> PlannedMessage<'s> {
        if m.has_block_length && !m.has_tail {
            self.refuse(
                &m.name,
                0,
                "the block starts with its own u16 block length (`#[wire(block_length)]`, \
                 FORMAT.md §3): an SBE block has no such field, its length is only in the \
                 message header; without the attribute (a breaking change) the message fits"
                    .into(),
            );
        }
        if m.block_length > usize::from(u16::MAX) {
            self.refuse(
                &m.name,
                0,
                format!(
                    "a block of {} bytes: SBE's blockLength is a uint16",
                    m.block_length
                ),
            );
        }
        self.check_name(&m.name, "message", &m.name, 0);
        let mut fields = Vec::new();
        for (i, f) in m.fields.iter().enumerate() {
            if f.reserved {
                continue;
            }
            let path = format!("{}.{}", m.name, f.name);
            self.check_name(&f.name, "field", &path, f.offset);
            if let Some(ty) = self.type_of(&f.ty, &path, f.offset) {
                fields.push((i + 1, f, ty));
            }
        }
        PlannedMessage { message: m, fields }
    }

    /// The SBE type of a field of type `ty` at `path`, declaring what it needs; `None`
    /// (and a refusal) if SBE cannot express it.
    fn type_of(&mut self, ty: &'s TypeSchema, path: &str, offset: usize) -> Option<TypeRef> {
        if let Some(p) = primitive(ty) {
            return Some(TypeRef {
                name: p.sbe.into(),
                primitive: true,
                optional: false,
            });
        }
        let (name, decl) = match ty {
            TypeSchema::Bool => ("BooleanType".to_owned(), Decl::Boolean),
            TypeSchema::FixedStr { len } => chars(*len, b' '),
            TypeSchema::FixedStrPadded { len, pad } => chars(*len, *pad),
            TypeSchema::Array { element, len } => match primitive(element) {
                Some(_) if *len == 0 => {
                    return self.no(
                        path,
                        offset,
                        "an empty array: SBE types have a length of 1 or more",
                    );
                }
                Some(prim) => (
                    format!("{}Array{len}", prim.pascal),
                    Decl::Array { prim, len: *len },
                ),
                None => {
                    return self.no(
                        path,
                        offset,
                        &format!(
                            "an array of `{}`: SBE's `length` applies to primitive types \
                             (numbers) only",
                            element.display()
                        ),
                    );
                }
            },
            TypeSchema::Enum(e) => {
                self.check_name(&e.name, "enum", path, offset);
                let null = primitive(&e.repr).map(Prim::default_null);
                for v in e.variants.iter() {
                    self.check_name(&v.name, "variant", path, offset);
                    if null == Some(i128::from(v.value)) {
                        self.refuse(
                            path,
                            offset,
                            format!(
                                "the enum's variant {} = {} is SBE's null value of its \
                                 encoding type (the largest value), which SBE enums keep \
                                 for \"no value\"",
                                v.name, v.value
                            ),
                        );
                    }
                }
                (e.name.to_string(), Decl::Enum(e))
            }
            TypeSchema::Decimal { mantissa, scale } => match decimal(mantissa, *scale, None) {
                Some(named) => named,
                None => {
                    return self.no(
                        path,
                        offset,
                        "a decimal whose mantissa is not an SBE integer",
                    );
                }
            },
            TypeSchema::Nullable { value, null } => match (primitive(value), &**value) {
                (Some(prim), _) => {
                    let name = if *null == prim.default_null() {
                        format!("Optional{}", prim.pascal)
                    } else {
                        format!("Optional{}Null{}", prim.pascal, signed_name(*null))
                    };
                    (name, Decl::Optional { prim, null: *null })
                }
                (None, TypeSchema::Decimal { mantissa, scale }) => {
                    match decimal(mantissa, *scale, Some(*null)) {
                        Some(named) => named,
                        None => {
                            return self.no(
                                path,
                                offset,
                                "a decimal whose mantissa is not an SBE integer",
                            );
                        }
                    }
                }
                (None, _) => {
                    return self.no(
                        path,
                        offset,
                        "a null sentinel on a type SBE has no optional form of",
                    );
                }
            },
            TypeSchema::Message(m) => match self.set.message(&m.name) {
                Some(nested) if !nested.has_block_length => {
                    return self.composite(nested, path, offset);
                }
                _ => {
                    return self.no(
                        path,
                        offset,
                        "a nested message with a block length field (it has a tail, or is \
                         `#[wire(block_length)]`) sits in the tail (FORMAT.md §4.7): only a \
                         fixed-size message nests inline, as an SBE composite",
                    );
                }
            },
            TypeSchema::Option(inner) => {
                let hint = if primitive(inner).is_some_and(|p| p.size <= 8 && !p.float)
                    || matches!(**inner, TypeSchema::Decimal { .. })
                {
                    "; `#[wire(null = V)]` on the field (FORMAT.md §4.9, a breaking change) fits"
                } else {
                    ""
                };
                return self.no(
                    path,
                    offset,
                    &format!(
                        "`Option<{}>` has a presence byte (FORMAT.md §4.5), which SBE does \
                         not have: SBE's optional fields are numbers with a null value{hint}",
                        inner.display()
                    ),
                );
            }
            TypeSchema::Str => {
                return self.no(
                    path,
                    offset,
                    "a `String` keeps its bytes in the tail after the block (FORMAT.md §4.2); \
                     SBE's variable-length `data` follows the block with its own length \
                     prefix, another layout; `FixedStr<N>` fits",
                );
            }
            TypeSchema::List(_) | TypeSchema::BoundedList { .. } => {
                return self.no(
                    path,
                    offset,
                    &format!(
                        "a list, `{}`, keeps its elements in the tail after the block \
                         (FORMAT.md §6); SBE's repeating groups follow the block with a \
                         group size header, another layout",
                        ty.display()
                    ),
                );
            }
            TypeSchema::U128 | TypeSchema::I128 => {
                return self.no(
                    path,
                    offset,
                    "a 128-bit integer: SBE 1.0's primitive types stop at 64 bits",
                );
            }
            _ => return self.no(path, offset, &format!("{}: no SBE form", ty.display())),
        };
        let optional = matches!(decl, Decl::Optional { .. });
        self.declare(name, decl, path, offset).map(|name| TypeRef {
            name,
            primitive: false,
            optional,
        })
    }

    /// Refuses `name` unless it is an SBE name (`symbolicName_t` of the SBE 1.0 XSD:
    /// an ASCII letter or `_`, then ASCII letters, digits or `_`, 64 at most); Rust
    /// names may be longer, or not ASCII.
    fn check_name(&mut self, name: &str, what: &str, path: &str, offset: usize) -> bool {
        let mut chars = name.chars();
        let fits = name.len() <= 64
            && chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !fits {
            self.refuse(
                path,
                offset,
                format!(
                    "the {what} name `{name}` is not an SBE name (ASCII letters, digits \
                     and `_`, at most 64 characters)"
                ),
            );
        }
        fits
    }

    fn no(&mut self, path: &str, offset: usize, reason: &str) -> Option<TypeRef> {
        self.refuse(path, offset, reason.to_owned());
        None
    }

    /// The composite of `m`, nested at `path`, declared with its members the first
    /// time (inline nesting is acyclic and bounded: the set was checked).
    fn composite(&mut self, m: &'s MessageSchema, path: &str, offset: usize) -> Option<TypeRef> {
        if !self.nested.contains(&m.name.as_ref()) {
            self.nested.push(&m.name);
        }
        let declared = self.types.iter().find(|t| t.name == *m.name);
        if !matches!(declared, Some(Declared { decl: Decl::Composite { message, .. }, .. }) if *message == m)
        {
            let mut members = Vec::new();
            let mut fits = self.check_name(&m.name, "message", path, offset);
            for f in m.fields.iter() {
                let inner = format!("{path}.{}", f.name);
                fits &= self.check_name(&f.name, "field", &inner, offset + f.offset);
                let kind = if f.reserved {
                    MemberKind::Reserved { len: f.size }
                } else {
                    match self.type_of(&f.ty, &inner, offset + f.offset) {
                        Some(ty) => MemberKind::Type(ty),
                        // Refused; the other members are still looked at.
                        None => {
                            fits = false;
                            continue;
                        }
                    }
                };
                members.push(Member {
                    name: f.name.to_string(),
                    offset: f.offset,
                    kind,
                });
            }
            if !fits {
                return None;
            }
            self.declare(
                m.name.to_string(),
                Decl::Composite {
                    message: m,
                    members,
                },
                path,
                offset,
            )?;
        }
        Some(TypeRef {
            name: m.name.to_string(),
            primitive: false,
            optional: false,
        })
    }

    /// Declares `decl` as `name` unless an equal type already is; a different type of
    /// the same name is refused.
    fn declare(
        &mut self,
        name: String,
        decl: Decl<'s>,
        path: &str,
        offset: usize,
    ) -> Option<String> {
        match self.types.iter().find(|t| t.name == name) {
            Some(t) if t.decl == decl => Some(name),
            Some(t) => {
                let reason = format!(
                    "its type needs the SBE type name `{name}`, which {} already has: SBE \
                     names each type once",
                    t.decl.what()
                );
                self.refuse(path, offset, reason);
                None
            }
            None => {
                self.types.push(Declared {
                    name: name.clone(),
                    decl,
                });
                Some(name)
            }
        }
    }
}

fn chars<'s>(len: usize, pad: u8) -> (String, Decl<'s>) {
    let name = match pad {
        0 => format!("Char{len}"),
        b' ' => format!("Char{len}SpacePadded"),
        other => format!("Char{len}Pad{other:02X}"),
    };
    (name, Decl::Chars { len, pad })
}

fn decimal<'s>(
    mantissa: &TypeSchema,
    scale: u32,
    null: Option<i128>,
) -> Option<(String, Decl<'s>)> {
    let prim = primitive(mantissa)?;
    let base = format!("Decimal{}Scale{scale}", prim.pascal);
    let name = match null {
        None => base,
        Some(n) if n == prim.default_null() => format!("Optional{base}"),
        Some(n) => format!("Optional{base}Null{}", signed_name(n)),
    };
    Some((name, Decl::Decimal { prim, scale, null }))
}

/// A number in a type name: `5`, `Minus5`.
fn signed_name(n: i128) -> String {
    if n < 0 {
        format!("Minus{}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

/// `text` with the five XML special characters escaped, for an attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

// `write!` to a `String` cannot fail: its results are ignored below.

fn render(
    set: &SchemaSet,
    options: &Options,
    schema_id: u16,
    version: u16,
    types: &[Declared<'_>],
    messages: &[PlannedMessage<'_>],
) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n");
    let _ = writeln!(
        out,
        "  Generated by wiremsg's SBE exporter (wiremsg export, or\n  \
         wiremsg_cli::export::sbe) from the schema set with fingerprint\n  \
         {}: change the Rust types, not this file. Every block is laid\n  \
         out byte for byte like wiremsg's (FORMAT.md), and wiremsg's message header\n  \
         (FORMAT.md §8) is SBE's messageHeader.",
        set.fingerprint()
    );
    if let Some(note) = &options.note {
        let _ = writeln!(out, "  {note}");
    }
    out.push_str("-->\n");
    let _ = writeln!(
        out,
        "<sbe:messageSchema xmlns:sbe=\"http://fixprotocol.io/2016/sbe\"\n                   \
         package=\"{}\" id=\"{schema_id}\" version=\"{version}\" byteOrder=\"littleEndian\">",
        escape(&options.package)
    );
    out.push_str("    <types>\n");
    out.push_str(concat!(
        "        <composite name=\"messageHeader\" description=\"wiremsg's message header (FORMAT.md §8)\">\n",
        "            <type name=\"blockLength\" primitiveType=\"uint16\"/>\n",
        "            <type name=\"templateId\" primitiveType=\"uint16\"/>\n",
        "            <type name=\"schemaId\" primitiveType=\"uint16\"/>\n",
        "            <type name=\"version\" primitiveType=\"uint16\"/>\n",
        "        </composite>\n",
    ));
    for t in types {
        render_type(&mut out, t);
    }
    out.push_str("    </types>\n");
    for m in messages {
        render_message(&mut out, m, version);
    }
    out.push_str("</sbe:messageSchema>\n");
    out
}

fn render_type(out: &mut String, t: &Declared<'_>) {
    let name = escape(&t.name);
    match &t.decl {
        Decl::Array { prim, len } => {
            let _ = writeln!(
                out,
                "        <type name=\"{name}\" primitiveType=\"{}\" length=\"{len}\"/>",
                prim.sbe
            );
        }
        Decl::Chars { len, pad } => {
            let padding = match pad {
                0 => "NUL, as SBE pads".to_owned(),
                b' ' => "spaces (0x20), not NUL".to_owned(),
                other => format!("0x{other:02x} bytes, not NUL"),
            };
            let _ = writeln!(
                out,
                "        <type name=\"{name}\" primitiveType=\"char\" length=\"{len}\" \
                 characterEncoding=\"UTF-8\" description=\"UTF-8 text right-padded with \
                 {padding} (wiremsg FixedStr)\"/>"
            );
        }
        Decl::Optional { prim, null } => {
            let _ = writeln!(
                out,
                "        <type name=\"{name}\" primitiveType=\"{}\" presence=\"optional\" \
                 nullValue=\"{null}\"/>",
                prim.sbe
            );
        }
        Decl::Boolean => {
            let _ = writeln!(
                out,
                "        <enum name=\"{name}\" encodingType=\"uint8\" description=\"bool\">"
            );
            out.push_str("            <validValue name=\"False\">0</validValue>\n");
            out.push_str("            <validValue name=\"True\">1</validValue>\n");
            out.push_str("        </enum>\n");
        }
        Decl::Enum(e) => {
            let repr = primitive(&e.repr).map_or("uint8", |p| p.sbe);
            let description = match &e.catch_all {
                Some(other) => format!(
                    " description=\"wiremsg keeps other values in the catch-all variant {}\"",
                    escape(other)
                ),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "        <enum name=\"{name}\" encodingType=\"{repr}\"{description}>"
            );
            for v in e.variants.iter() {
                let _ = writeln!(
                    out,
                    "            <validValue name=\"{}\">{}</validValue>",
                    escape(&v.name),
                    v.value
                );
            }
            out.push_str("        </enum>\n");
        }
        Decl::Decimal { prim, scale, null } => {
            let _ = writeln!(
                out,
                "        <composite name=\"{name}\" description=\"mantissa × 10^-{scale} \
                 (wiremsg Decimal)\">"
            );
            match null {
                None => {
                    let _ = writeln!(
                        out,
                        "            <type name=\"mantissa\" primitiveType=\"{}\"/>",
                        prim.sbe
                    );
                }
                Some(null) => {
                    let _ = writeln!(
                        out,
                        "            <type name=\"mantissa\" primitiveType=\"{}\" \
                         presence=\"optional\" nullValue=\"{null}\"/>",
                        prim.sbe
                    );
                }
            }
            let _ = writeln!(
                out,
                "            <type name=\"exponent\" primitiveType=\"int8\" \
                 presence=\"constant\">-{scale}</type>"
            );
            out.push_str("        </composite>\n");
        }
        Decl::Composite { message, members } => {
            let _ = writeln!(
                out,
                "        <composite name=\"{name}\" description=\"the message {name} nested \
                 inline ({} bytes)\">",
                message.block_length
            );
            for m in members {
                let member = escape(&m.name);
                let offset = m.offset;
                let _ = match &m.kind {
                    MemberKind::Type(t) if t.primitive => writeln!(
                        out,
                        "            <type name=\"{member}\" primitiveType=\"{}\" \
                         offset=\"{offset}\"/>",
                        t.name
                    ),
                    MemberKind::Type(t) => writeln!(
                        out,
                        "            <ref name=\"{member}\" type=\"{}\" offset=\"{offset}\"/>",
                        escape(&t.name)
                    ),
                    MemberKind::Reserved { len } => writeln!(
                        out,
                        "            <type name=\"{member}\" primitiveType=\"uint8\" \
                         length=\"{len}\" offset=\"{offset}\" description=\"reserved: \
                         written as zeros, not read\"/>"
                    ),
                };
            }
            out.push_str("        </composite>\n");
        }
    }
}

fn render_message(out: &mut String, planned: &PlannedMessage<'_>, schema_version: u16) {
    let m = planned.message;
    let name = escape(&m.name);
    let _ = write!(
        out,
        "\n    <!-- {name}: version {}, {} bytes.",
        m.version, m.block_length
    );
    if m.version != schema_version {
        let _ = write!(
            out,
            " Its wiremsg header says version {}, an SBE encoder's the\n         \
             schema's, {schema_version}; each reads the other's.",
            m.version
        );
    }
    out.push_str(" -->\n");
    let _ = writeln!(
        out,
        "    <sbe:message name=\"{name}\" id=\"{}\" blockLength=\"{}\">",
        m.template_id.unwrap_or_default(),
        m.block_length
    );
    let mut fields = planned.fields.iter().peekable();
    for (i, f) in m.fields.iter().enumerate() {
        let Some((id, _, ty)) = fields.next_if(|(id, ..)| *id == i + 1) else {
            let _ = writeln!(
                out,
                "        <!-- reserved: {} (bytes {}..{}) -->",
                escape(&f.name),
                f.offset,
                f.offset + f.size
            );
            continue;
        };
        let _ = write!(
            out,
            "        <field name=\"{}\" id=\"{id}\" type=\"{}\" offset=\"{}\"",
            escape(&f.name),
            escape(&ty.name),
            f.offset
        );
        if ty.optional {
            out.push_str(" presence=\"optional\"");
        }
        if f.since > 1 {
            let _ = write!(out, " sinceVersion=\"{}\"", f.since);
        }
        out.push_str("/>\n");
    }
    out.push_str("    </sbe:message>\n");
}
