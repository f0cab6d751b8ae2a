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
//!   Lists of every shape are refused alike, at the list field (a list of a tagged
//!   union, a table list or, for a fixed-size union, a dense list (FORMAT.md §6.8),
//!   whose reason says that SBE has no union to repeat either).
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

mod plan;
mod render;

use super::{ExportError, Format, Unfit};
use plan::{Plan, PlannedMessage};
use wiremsg::{MessageSchema, SchemaSet};

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
    Ok(render::render(
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
