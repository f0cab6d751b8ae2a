//! The top level of a header and its message (FORMAT.md §8) or of a file of frames
//! (§10): the header and frame types, the switch on the header's ids, and the types
//! of schema frames' messages (§11, §12).

use super::layout;
use super::plan::Plan;
use super::yaml::{Yaml, map};
use wiremsg::schema::{SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID};
use wiremsg::{MessageSchema, SchemaSet};

/// Declares the types of the schema message (FORMAT.md §11), named `schema_*` so as
/// not to take the schema's own names, and returns its type and its header's ids.
pub(super) fn schema_types(plan: &mut Plan<'_>, canonical: &SchemaSet) -> Option<(String, String)> {
    // A schema of the schema encoding itself reads schema frames with its own types.
    if plan
        .set
        .by_template(SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID)
        .is_some()
    {
        return None;
    }
    let root = canonical.by_template(SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID)?;
    let mut schema = Plan::new(canonical);
    schema.prefix = "schema_";
    schema.strip = "Wire";
    schema.names = std::mem::take(&mut plan.names);
    // The types that name nothing of either set (`list_of_str`) are shared.
    schema.helpers = plan
        .helpers
        .iter()
        .filter(|(ty, _)| layout::is_plain(ty))
        .map(|(ty, name)| (ty.clone(), name.clone()))
        .collect();
    schema.split_elements = plan
        .split_elements
        .iter()
        .filter(|(ty, _)| layout::is_plain(ty))
        .map(|(ty, name)| (ty.clone(), name.clone()))
        .collect();
    schema.claim(&[root]);
    let name = schema.queue(root);
    schema.declare_pending();
    plan.names = std::mem::take(&mut schema.names);
    for (ty, name) in schema.helpers.drain() {
        if layout::is_plain(&ty) {
            plan.helpers.insert(ty, name);
        }
    }
    for (ty, name) in schema.split_elements.drain() {
        if layout::is_plain(&ty) {
            plan.split_elements.insert(ty, name);
        }
    }
    plan.types.append(&mut schema.types);
    plan.enum_defs.append(&mut schema.enum_defs);
    plan.unfit.append(&mut schema.unfit);
    let ids = ids(SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID);
    Some((name, ids))
}

/// The top level of a header and its message (`frames` false), or of a file of
/// frames, declaring the header and frame types on the way; `schema` is the type of
/// a schema frame's message, and its ids.
pub(super) fn top<'s>(
    plan: &mut Plan<'s>,
    roots: &[&'s MessageSchema],
    schema: Option<(String, String)>,
    frames: bool,
) -> Vec<(Yaml, Yaml)> {
    let header = plan
        .names
        .claim_free("message_header", "the message header");
    plan.types.push((
        header.clone(),
        map([
            (
                "doc",
                "The message header (FORMAT.md §8): the message's block length, template id, \
                 schema id and the writer's schema version."
                    .into(),
            ),
            (
                "seq",
                Yaml::List(
                    ["block_length", "template_id", "schema_id", "version"]
                        .into_iter()
                        .map(|f| map([("id", Yaml::from(f)), ("type", "u2".into())]))
                        .collect(),
                ),
            ),
        ]),
    ));
    let mut cases = Vec::new();
    let mut fixed = Vec::new();
    for m in roots {
        let ids = ids(m.schema_id, m.template_id.unwrap_or(0));
        let name = plan.queue(m);
        cases.push((Yaml::Str(ids.clone()), Yaml::Str(name)));
        if !m.has_block_length {
            fixed.push(format!("ids == {ids}"));
        }
    }
    if let Some((name, ids)) = schema {
        cases.push((Yaml::Str(ids.clone()), Yaml::Str(name)));
    }
    let fixed = if fixed.is_empty() {
        "false".to_owned()
    } else {
        fixed.join(" or ")
    };
    let body = map([
        (
            "doc",
            "A message behind its header (FORMAT.md §8): of the type its template id and \
             schema id name; a schema frame's (both 0xFFFF, FORMAT.md §12) is the schema \
             encoding (`schema_schema_set`, FORMAT.md §11); a message of another type is bytes."
                .into(),
        ),
        (
            "seq",
            Yaml::List(vec![
                map([("id", "header".into()), ("type", Yaml::Str(header))]),
                map([
                    ("id", "message".into()),
                    (
                        "doc",
                        "The message: the header's block length for a message without a block \
                         length field, else the rest of the bytes."
                            .into(),
                    ),
                    (
                        "size",
                        "fixed_size ? header.block_length : _io.size - 8".into(),
                    ),
                    (
                        "type",
                        map([
                            ("switch-on", Yaml::from("ids")),
                            ("cases", Yaml::Map(cases)),
                        ]),
                    ),
                ]),
            ]),
        ),
        (
            "instances",
            map([
                (
                    "ids",
                    map([
                        (
                            "value",
                            "header.schema_id.to_s + \":\" + header.template_id.to_s".into(),
                        ),
                        (
                            "doc",
                            "The header's schema id and template id, as `schema:template` (`3:5`)."
                                .into(),
                        ),
                    ]),
                ),
                (
                    "fixed_size",
                    map([
                        ("value", Yaml::Str(fixed)),
                        (
                            "doc",
                            "True for a message without a block length field.".into(),
                        ),
                    ]),
                ),
            ]),
        ),
    ]);
    if !frames {
        let Yaml::Map(body) = body else {
            unreachable!("a map")
        };
        return body;
    }
    let frame_body = plan.names.claim_free("frame_body", "the frame body");
    plan.types.push((frame_body.clone(), body));
    let frame = plan.names.claim_free("frame", "the frame");
    plan.types.push((
        frame.clone(),
        map([
            (
                "doc",
                "A frame (FORMAT.md §10): its length, then the header and message.".into(),
            ),
            (
                "seq",
                Yaml::List(vec![
                    map([
                        ("id", "length".into()),
                        ("type", "u4".into()),
                        ("doc", "The bytes that follow: header and message.".into()),
                    ]),
                    map([
                        ("id", "body".into()),
                        ("size", "length".into()),
                        ("type", Yaml::Str(frame_body)),
                    ]),
                ]),
            ),
        ]),
    ));
    vec![
        (
            "doc".into(),
            "A file of frames (FORMAT.md §10), one after another.".into(),
        ),
        (
            "seq".into(),
            Yaml::List(vec![map([
                ("id", "frames".into()),
                ("type", Yaml::Str(frame)),
                ("repeat", "eos".into()),
            ])]),
        ),
    ]
}

/// The Kaitai string literal of a header's ids, `"schema:template"`: a string, so that
/// the switch needs no integer wider than the ids (0xFFFF in both is 2^32 - 1).
fn ids(schema_id: u16, template_id: u16) -> String {
    format!("\"{schema_id}:{template_id}\"")
}
