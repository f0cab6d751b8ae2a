//! Kaitai Struct: a [`SchemaSet`] as a `.ksy` file, from which Kaitai's compiler
//! (`kaitai-struct-compiler`) generates readers of wiremsg's bytes for Python, Java,
//! C++, C#, Go, JavaScript and more.
//!
//! The file reads one of three things (its top level, [`Root`]): one message of a
//! named type (FORMAT.md §2, §3), one message behind its header (§8), or a file of
//! frames (§10), dispatching on each header's template id and schema id.
//!
//! # What each wiremsg type becomes
//!
//! Every message is a Kaitai type named like it in snake case (`OrderInstrStop`:
//! `order_instr_stop`). Its fields are instances named like them, each at its offset
//! (`pos`), so a reader finds the fields it knows in any version's block:
//!
//! | wiremsg | Kaitai |
//! |---|---|
//! | a message with a block length field (§3) | `seq`: `block_length` (`u2`; `block_length__` if a field is named `block_length`) |
//! | `u8`..`u64`, `i8`..`i64`, `f32`, `f64` | `u1`..`u8`, `s1`..`s8`, `f4`, `f8` (`meta: endian: le`) |
//! | `u128`, `i128` | a type of two halves `lo` (`u8`) and `hi` (`u8`, `s8`): Kaitai's integers stop at 64 bits |
//! | `bool` | `u1` (0 false, 1 true), `valid: any-of: [0, 1]` |
//! | `FixedStr<N, PAD>` | `str` of `size: N`, `pad-right: PAD`, UTF-8 |
//! | `#[derive(WireEnum)]` | the repr with `enum:`, an enum of the variants in snake case; a value of no variant reads as its number (a catch-all keeps such values) |
//! | `Decimal<M, S>` | the mantissa `M`; the doc gives the scale |
//! | `#[wire(null = V)] Option<T>` | `T`; the doc gives the sentinel `V` that means absent |
//! | `Option<T>` (§4.5) | `<field>__present` (`u1`) and `<field>`, with `if: <field>__present == 1`; as an element, a type with `present` and `value` |
//! | `[T; N]` | `T` with `repeat-expr: N`; as an element, a type with `items` |
//! | a nested fixed-size message, a fixed-size tuple | its type, over its `size` bytes |
//! | a field with tail data (§3) | `<field>__end` (`u4`, the end offset) and `<field>` over its region, from the previous tail field's end (or `block_length`) |
//! | `String`, `Vec<u8>` | `str` (UTF-8), bytes |
//! | `Vec<T>` (§6), bounded (§6.5) or not | a type with `items`: packed (`repeat: eos`), strided (`stride`, then elements of `size: stride`), split (below), dense (below), or a table (`starts`, `count`, then the elements' regions); lists of lists nest these |
//! | a list of messages or tuples with a tail, split (§6.3) | a type with `items` of `size: stride` (`stride` is 4 + the `block_length` at byte 4, `count` the `first_tail_start` / `stride`), each of the element's type in a list, `<type>_in_list` (`level_in_list`), given the list's bytes (`level_in_list(_io)`) |
//! | an element of a split list | `<type>_in_list`: `params`: `list_io`, the list's bytes; `seq`: `tail_start` (`u4`) and `block_length`; `origin` = `tail_start - block_length`; its fields as a message's, each 4 bytes after its offset in the block, and its tail fields read from `list_io` at `origin` + their end offsets (`io: list_io`, `pos: origin + <previous>__end`). A message or tuple in its tail keeps its own type. (`tail_start`, `origin`, `list_io`: with `__` after them if a field has the name) |
//! | a list of a fixed-size union, dense (§6.8: no catch-all, each variant a unit or a message without a block length field) | a type with `stride` (`u2`), `entry_count` (`u2`), `entries` (the variant table: `<union>_dense_entry`, a `tag` of the union's tag enum and a `block_length`), then `items` of `size: stride`, each a `<union>_in_dense_list`: `index` (the repr), `tag` and `block_length` (its entry's, through `_parent`, the list) and `payload` (`size: block_length`, switched on the tag as a union's). The union's own type is declared only if a field holds one outside a dense list |
//! | `BTreeMap<K, V>`, `HashMap<K, V>` (§6.7) | a type with `items`, as a list of its `(K, V)` entries (strided or split); the doc says the keys are in increasing order |
//! | `Box<T>` (§4.12) | `T`; a recursive message is a type that names itself |
//! | a generic message's instantiation (§4.13) | a type named like it (`Batch_Tick`: `batch_tick`) |
//! | a message with a tail, a tuple with a tail | its type, over its region |
//! | a tagged union (§4.10) | a type: `tag` (an enum of the variants) and `payload`, switched on the tag (a unit variant's and a catch-all's payload are bytes) |
//! | a tuple (§4.11) | a type like a message, its elements `e0`, `e1`, .. |
//! | a field of a later version (§5) | `if: block_length >= <end of the field>` (for a message without a block length field, `_io.size`): null for an older writer's bytes |
//! | `#[wire(reserved)]` | nothing (a reserved tail field keeps its `<field>__end`) |
//! | the message header (§8) | `message_header`; the message is switched on `ids`, the string `schema_id:template_id` (a string needs no integer wider than the ids in any language) |
//! | frames (§10) | `frames`: `length` (`u4`), then its body: the header and the message |
//! | schema frames (§12) | the schema encoding (§11), its messages' types named `schema_*` (`schema_schema_set`, `schema_message`, `schema_field`, ..) |
//!
//! A Kaitai reader reads valid bytes as wiremsg does, and refuses with `valid:` a
//! `bool` or presence byte other than 0 or 1, an enum value or union tag of no
//! variant (without a catch-all), a block length below version 1's block and a
//! stride below the element's; in a dense list, a stride without room for the
//! index, a variant table entry whose block length and the index do not fit in the
//! stride, a table with no element after it, and an element whose entry index is
//! past the table or whose entry's tag is of no variant (entries no element uses are
//! not checked, by wiremsg either); bytes that end early and bad UTF-8 fail as they
//! are read. It checks less than `view` (FORMAT.md §7) all the same: not maximum lengths,
//! the order of end offsets, of table starts or of a split list's tail starts, that a
//! split list's elements all have one block length and that its first tail start is
//! a whole number of elements, a map's key order (strictly increasing), nor the
//! nesting limit.
//!
//! # What does not fit, and why
//!
//! Each is refused ([`ExportError::Unfit`]) with its path, offset and reason; an export
//! writes everything or nothing.
//!
//! - A name without a Kaitai form: Kaitai names are lowercase ASCII letters, digits
//!   and `_`, starting with a letter. Field names are kept as they are (`bidPx` is
//!   refused); type and variant names are written in snake case, and two that become
//!   one (`OrderID` and `OrderId`, or a union and the enum of another type's tags),
//!   or one that is a built-in type of Kaitai (`U4`: `u4`, `Str`: `str`), are
//!   refused.
//! - A field or variant name that is a Python keyword (`r#in`, `From`): Kaitai's
//!   compiler does not escape names, and the Python reader would not compile. (Other
//!   languages' keywords are not checked: Python is the language the export is
//!   tested with.)
//! - An enum variant's value or a union tag above `i64::MAX` (of a `u64` repr):
//!   Kaitai's enum values are signed 64-bit integers.
//! - Two different enums or unions of one name (in different Rust modules): a `.ksy`
//!   file has one namespace.
//! - A field named like an attribute the export adds for another field
//!   (`<name>__end`, `<name>__present`).

mod dispatch;
mod layout;
mod names;
mod plan;
mod yaml;

use super::{ExportError, Format};
use names::{is_identifier, snake};
use plan::Plan;
use wiremsg::{MessageSchema, SchemaSet};
use yaml::{Yaml, map};

/// What the `.ksy` file's top level reads.
///
/// # Examples
///
/// ```
/// use wiremsg_cli::export::ksy::Root;
///
/// let root = Root::Message("Book".into());
/// assert_ne!(root, Root::Frames);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Root {
    /// One message of this type, the whole input (FORMAT.md §2, §3); the file's id is
    /// the type's name in snake case.
    Message(String),
    /// One message behind its header (FORMAT.md §8), of the type its template id and
    /// schema id name.
    Header,
    /// A file of frames (FORMAT.md §10), each a header and a message.
    Frames,
}

/// What to export and how to name it.
///
/// # Examples
///
/// ```
/// use wiremsg_cli::export::ksy::{Options, Root};
///
/// let options = Options::new(Root::Frames);
/// assert_eq!(options.id, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// What the top level reads.
    pub root: Root,
    /// The file's `meta: id` for [`Root::Header`] and [`Root::Frames`] (a Kaitai
    /// name); `None` for `wiremsg_message` or `wiremsg_frames`.
    pub id: Option<String>,
    /// The messages a header may name, by name ([`Root::Header`], [`Root::Frames`]);
    /// empty for every message of the set with a template id.
    pub messages: Vec<String>,
    /// One more line for the comment at the top (e.g. how the file is regenerated).
    pub note: Option<String>,
}

impl Options {
    /// `root`, the default id, every message, no note.
    pub fn new(root: Root) -> Self {
        Options {
            root,
            id: None,
            messages: Vec::new(),
            note: None,
        }
    }
}

/// The `.ksy` file (YAML) that reads `options.root` with the messages of `set`.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, WireMsg};
/// use wiremsg_cli::export::ksy::{self, Options, Root};
///
/// #[derive(WireMsg)]
/// struct Venue {
///     code: u8,
///     name: String,
/// }
///
/// let set = SchemaSet::of::<Venue>()?;
/// let ksy = ksy::export(&set, &Options::new(Root::Message("Venue".into())))?;
/// assert!(ksy.contains("meta:\n  id: venue\n"));
/// assert!(ksy.contains("  name:\n    pos: block_length\n    type: str\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`ExportError::Unfit`] listing every name Kaitai cannot carry (see the module
///   docs);
/// - [`ExportError::Options`] if the root message or a message of `options.messages`
///   is not in the set or (for a header or frames) has no template id, no message has
///   one, the id
///   is not a Kaitai name or is a type's, or the note has a line break.
pub fn export(set: &SchemaSet, options: &Options) -> Result<String, ExportError> {
    if options.note.as_deref().is_some_and(|n| n.contains('\n')) {
        return Err(ExportError::Options("the note is one line".into()));
    }
    let find = |name: &str| {
        set.message(name)
            .ok_or_else(|| ExportError::Options(format!("no message named `{name}` in the schema")))
    };
    // The schema of schema frames (FORMAT.md §11, §12), for a header or frames.
    let canonical = wiremsg::dynamic::canonical_schema();
    let mut plan = Plan::new(set);
    let mut top: Vec<(Yaml, Yaml)>;
    let id;
    match &options.root {
        Root::Message(name) => {
            let m = find(name)?;
            plan.claim(&[m]);
            plan.top = Some(&m.name);
            id = snake(&m.name).unwrap_or_default();
            let Yaml::Map(body) = plan.message_body(m) else {
                unreachable!("a message body is a map")
            };
            top = body;
        }
        Root::Header | Root::Frames => {
            let candidates: Vec<&MessageSchema> = if options.messages.is_empty() {
                set.messages()
                    .iter()
                    .filter(|m| m.template_id.is_some())
                    .collect()
            } else {
                options
                    .messages
                    .iter()
                    .map(|n| find(n))
                    .collect::<Result<_, _>>()?
            };
            if let Some(m) = candidates.iter().find(|m| m.template_id.is_none()) {
                return Err(ExportError::Options(format!(
                    "`{}` has no template id: a header names its message by template id \
                     (`#[wire(template_id = N)]`)",
                    m.name
                )));
            }
            let mut roots = candidates;
            if roots.is_empty() {
                return Err(ExportError::Options(
                    "no message with a template id: a header names its message by template id"
                        .into(),
                ));
            }
            roots.sort_by_key(|m| (m.schema_id, m.template_id));
            plan.claim(&roots);
            let frames = options.root == Root::Frames;
            id = options.id.clone().unwrap_or_else(|| {
                if frames {
                    "wiremsg_frames".into()
                } else {
                    "wiremsg_message".into()
                }
            });
            if !is_identifier(&id) {
                return Err(ExportError::Options(format!(
                    "id `{id}`: a Kaitai name is lowercase ASCII letters, digits and `_`, \
                     starting with a letter"
                )));
            }
            if let Err(holder) = plan.names.claim(&id, "the file's id") {
                return Err(ExportError::Options(format!(
                    "id `{id}` is the Kaitai name of the {holder}: choose another"
                )));
            }
            let schema = dispatch::schema_types(&mut plan, &canonical);
            top = dispatch::top(&mut plan, &roots, schema, frames);
        }
    }
    plan.declare_pending();
    if !plan.unfit.is_empty() {
        return Err(ExportError::Unfit {
            format: Format::Ksy,
            unfit: plan.unfit,
        });
    }
    let mut types = std::mem::take(&mut plan.types);
    types.sort_by(|a, b| a.0.cmp(&b.0));
    let mut enums = std::mem::take(&mut plan.enum_defs);
    enums.sort_by(|a, b| a.0.cmp(&b.0));
    let meta = map([
        ("id", Yaml::Str(id)),
        ("title", "wiremsg messages (FORMAT.md)".into()),
        ("endian", "le".into()),
        // `valid: in-enum` is 0.11's.
        ("ks-version", "0.11".into()),
    ]);
    top.insert(0, ("meta".into(), meta));
    if !types.is_empty() {
        top.push(("types".into(), map(types)));
    }
    if !enums.is_empty() {
        top.push(("enums".into(), map(enums)));
    }
    let mut out = String::from(
        "# Generated by `wiremsg export --ksy` from a wiremsg schema; the byte layout is\n\
         # FORMAT.md's. Compile with kaitai-struct-compiler.\n",
    );
    if let Some(note) = &options.note {
        out.push_str(&format!("# {note}\n"));
    }
    out.push_str(&yaml::render(&Yaml::Map(top)));
    Ok(out)
}
