//! What `dump` and `json` share: the schema, the message type, and the input as one
//! message or as frames.

use crate::cli::MessageArgs;
use crate::input::Fatal;
use wiremsg::SchemaSet;

/// The message type to read bytes without a header as: `--type`, or the schema's
/// only message, or its only message with a template id (the others being the
/// messages it nests).
pub(crate) fn type_name<'a>(set: &'a SchemaSet, args: &'a MessageArgs) -> Result<&'a str, Fatal> {
    if let Some(name) = &args.type_name {
        if set.message(name).is_none() {
            let names: Vec<&str> = set.messages().iter().map(|m| m.name.as_ref()).collect();
            return Err(format!(
                "no message `{name}` in the schema (it has: {})",
                names.join(", ")
            )
            .into());
        }
        return Ok(name);
    }
    if let [only] = set.messages() {
        return Ok(&only.name);
    }
    // The one message a stream can carry (with a template id); the others are the
    // messages it nests.
    let mut roots = set.messages().iter().filter(|m| m.template_id.is_some());
    match (roots.next(), roots.next()) {
        (Some(only), None) => Ok(&only.name),
        _ => Err(
            "the schema has several messages: name one with --type, or read a header \
                  with --header"
                .into(),
        ),
    }
}
