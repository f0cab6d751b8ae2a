//! The YAML of a `.ksy` file: a small tree of maps, lists and scalars, written in
//! block style with every scalar that YAML could read as something else quoted.

use std::fmt::Write;

/// A YAML value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Yaml {
    /// An integer, written as its digits.
    Int(i128),
    /// `true` or `false`.
    Bool(bool),
    /// A string: plain if YAML reads it back as this string, else double-quoted.
    Str(String),
    /// A list, one `- ` item a line.
    List(Vec<Yaml>),
    /// A map, keys in insertion order.
    Map(Vec<(Yaml, Yaml)>),
}

impl From<&str> for Yaml {
    fn from(s: &str) -> Self {
        Yaml::Str(s.to_owned())
    }
}

impl From<String> for Yaml {
    fn from(s: String) -> Self {
        Yaml::Str(s)
    }
}

impl From<usize> for Yaml {
    fn from(n: usize) -> Self {
        Yaml::Int(n as i128)
    }
}

/// Builds a map: `map([("id", "x".into()), ...])`.
pub(super) fn map<K: Into<Yaml>>(entries: impl IntoIterator<Item = (K, Yaml)>) -> Yaml {
    Yaml::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

/// The document: `value` (a map) at the top level, ending with a newline.
pub(super) fn render(value: &Yaml) -> String {
    let mut out = String::new();
    block(&mut out, value, 0);
    out
}

fn block(out: &mut String, value: &Yaml, indent: usize) {
    match value {
        Yaml::Map(entries) => {
            for (key, value) in entries {
                pad(out, indent);
                scalar(out, key);
                entry(out, value, indent);
            }
        }
        Yaml::List(items) => {
            for item in items {
                pad(out, indent);
                out.push('-');
                match item {
                    // A map item starts on the dash's line: `- id: x`.
                    Yaml::Map(entries) if !entries.is_empty() => {
                        out.push(' ');
                        let mut first = true;
                        for (key, value) in entries {
                            if !first {
                                pad(out, indent + 2);
                            }
                            first = false;
                            scalar(out, key);
                            entry(out, value, indent + 2);
                        }
                    }
                    _ => entry_after_dash(out, item, indent),
                }
            }
        }
        scalar_value => {
            pad(out, indent);
            scalar(out, scalar_value);
            out.push('\n');
        }
    }
}

/// After `key`: `: value` on the line, or `:` and the block below.
fn entry(out: &mut String, value: &Yaml, indent: usize) {
    match value {
        Yaml::Map(e) if e.is_empty() => out.push_str(": {}\n"),
        Yaml::List(e) if e.is_empty() => out.push_str(": []\n"),
        Yaml::Map(_) | Yaml::List(_) => {
            out.push_str(":\n");
            block(out, value, indent + 2);
        }
        _ => {
            out.push_str(": ");
            scalar(out, value);
            out.push('\n');
        }
    }
}

fn entry_after_dash(out: &mut String, value: &Yaml, indent: usize) {
    match value {
        Yaml::Map(_) => out.push_str(" {}\n"),
        Yaml::List(e) if e.is_empty() => out.push_str(" []\n"),
        Yaml::List(_) => {
            out.push('\n');
            block(out, value, indent + 2);
        }
        _ => {
            out.push(' ');
            scalar(out, value);
            out.push('\n');
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn scalar(out: &mut String, value: &Yaml) {
    match value {
        Yaml::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Yaml::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Yaml::Str(s) if plain(s) => out.push_str(s),
        // A JSON string is a YAML double-quoted scalar with the same escapes.
        Yaml::Str(s) => out.push_str(&serde_json::Value::from(s.as_str()).to_string()),
        Yaml::Map(_) | Yaml::List(_) => unreachable!("only scalars are keys"),
    }
}

/// True if YAML reads `s` unquoted as the string `s`: a word of letters, digits, `_`
/// and `-` starting with a letter that is not a boolean, null or number in YAML 1.1
/// or 1.2.
fn plain(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "true", "false", "yes", "no", "on", "off", "null", "y", "n", "nan", "inf",
    ];
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !WORDS.contains(&s.to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lists_and_quoting() {
        let doc = map([
            (
                "meta",
                map([("id", "book".into()), ("ks-version", "0.10".into())]),
            ),
            (
                "seq",
                Yaml::List(vec![map([
                    ("id", "block_length".into()),
                    ("type", "u2".into()),
                    ("doc", "a \"quoted\" line\nand another".into()),
                ])]),
            ),
            (
                "enums",
                map([("side", map([(Yaml::Int(0), "buy".into())]))]),
            ),
            (
                "flags",
                map([("on", "no".into()), ("size", "a - b".into())]),
            ),
        ]);
        assert_eq!(
            render(&doc),
            "meta:\n  id: book\n  ks-version: \"0.10\"\nseq:\n  - id: block_length\n    type: u2\n    \
             doc: \"a \\\"quoted\\\" line\\nand another\"\nenums:\n  side:\n    0: buy\nflags:\n  \
             \"on\": \"no\"\n  size: \"a - b\"\n"
        );
    }
}
