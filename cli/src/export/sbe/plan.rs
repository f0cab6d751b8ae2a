//! What each wiremsg type becomes in SBE: primitives, the types declared in
//! `<types>` and their names, and the refusals of what SBE cannot express.

use crate::export::Unfit;
use wiremsg::{EnumSchema, FieldSchema, MessageSchema, SchemaSet, TypeSchema};

/// An SBE primitive type: its name in the schema and in generated type names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Prim {
    pub(super) sbe: &'static str,
    pub(super) pascal: &'static str,
    pub(super) signed: bool,
    pub(super) float: bool,
    pub(super) size: u32,
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
pub(super) fn primitive(ty: &TypeSchema) -> Option<Prim> {
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
    pub(super) fn default_null(self) -> i128 {
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
pub(super) struct Declared<'s> {
    pub(super) name: String,
    pub(super) decl: Decl<'s>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Decl<'s> {
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
    pub(super) fn what(&self) -> &'static str {
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
pub(super) struct TypeRef {
    /// A built-in primitive's name, or a declared type's.
    pub(super) name: String,
    pub(super) primitive: bool,
    /// The type is an optional number (`presence="optional"` on the field too).
    pub(super) optional: bool,
}

/// A member of a composite made from a nested message.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Member {
    pub(super) name: String,
    pub(super) offset: usize,
    pub(super) kind: MemberKind,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum MemberKind {
    Type(TypeRef),
    /// A reserved field's bytes, kept as a `uint8` array so the composite keeps its size.
    Reserved {
        len: usize,
    },
}

/// A message to write, with its fields' types resolved.
pub(super) struct PlannedMessage<'s> {
    pub(super) message: &'s MessageSchema,
    pub(super) fields: Vec<(usize, &'s FieldSchema, TypeRef)>,
}

/// The types the exported messages need, and what does not fit.
pub(super) struct Plan<'s> {
    pub(super) set: &'s SchemaSet,
    pub(super) types: Vec<Declared<'s>>,
    pub(super) unfit: Vec<Unfit>,
    /// Names of the messages some planned message nests inline, fitting or not.
    pub(super) nested: Vec<&'s str>,
}

impl<'s> Plan<'s> {
    pub(super) fn refuse(&mut self, path: &str, offset: usize, reason: String) {
        self.unfit.push(Unfit {
            path: path.to_owned(),
            offset,
            reason,
        });
    }

    pub(super) fn message(&mut self, m: &'s MessageSchema) -> PlannedMessage<'s> {
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
            TypeSchema::List(element) | TypeSchema::BoundedList { element, .. } => {
                // A dense list (FORMAT.md §6.8) is refused as every list is, and says
                // why its elements, though of one size, are no group either.
                let dense = match &**element {
                    e if self.set.list_encoding(e) == wiremsg::ListEncoding::Dense => {
                        "; a list of a fixed-size union is a dense list (FORMAT.md §6.8), \
                         a table of its variants' tags and block lengths, then each \
                         element's entry index and payload at a stride, and SBE 1.0 has \
                         no union to repeat"
                    }
                    _ => "",
                };
                return self.no(
                    path,
                    offset,
                    &format!(
                        "a list, `{}`, keeps its elements in the tail after the block \
                         (FORMAT.md §6); SBE's repeating groups follow the block with a \
                         group size header, another layout{dense}",
                        ty.display()
                    ),
                );
            }
            TypeSchema::Map(_) => {
                return self.no(
                    path,
                    offset,
                    &format!(
                        "a map, `{}`, keeps its entries in the tail after the block, as a \
                         list of `(key, value)` tuples in key order (FORMAT.md §6.7): SBE has \
                         no maps, and its repeating groups follow the block with a group \
                         size header, another layout",
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
            TypeSchema::Union(u) => {
                return self.no(
                    path,
                    offset,
                    &format!(
                        "a tagged union, `{}`, sits in the tail as a tag and its variant's \
                         payload (FORMAT.md §4.10); SBE 1.0 has no union (and a union that \
                         holds itself, a recursive type, has no fixed size)",
                        u.name
                    ),
                );
            }
            TypeSchema::Tuple(_) => {
                return self.no(
                    path,
                    offset,
                    &format!(
                        "a tuple, `{}`, has no SBE form here; a fixed-size \
                         `#[derive(WireMsg)]` struct of the same fields has the same bytes \
                         (FORMAT.md §4.11) and nests as a composite",
                        ty.display()
                    ),
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
