//! Kaitai identifiers: wiremsg's Rust names as Kaitai names, and the one namespace
//! that types and enums share (every target language makes both classes of one
//! scope).

use std::collections::HashMap;

/// True if `name` is a Kaitai identifier: lowercase ASCII letters, digits and `_`,
/// starting with a letter.
pub(super) fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Python's keywords, which Kaitai's compiler writes into Python unchanged as
/// attribute and enum member names (`self.from`), so that the generated reader does
/// not compile.
const PYTHON_KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// True if `name` is a keyword of Python (see [`PYTHON_KEYWORDS`]).
pub(super) fn is_python_keyword(name: &str) -> bool {
    PYTHON_KEYWORDS.contains(&name)
}

/// A Rust type or variant name in snake case (`OrderInstrStop`: `order_instr_stop`,
/// `HTTPGateway`: `http_gateway`, `E7Quote`: `e7_quote`); `None` if the result is not
/// a Kaitai identifier (a name with other than ASCII letters, digits and `_`).
pub(super) fn snake(name: &str) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let boundary = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(|p| p.is_ascii_uppercase())
                    && next.is_some_and(|n| n.is_ascii_lowercase()));
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    is_identifier(&out).then_some(out)
}

/// True if `name` is one of Kaitai's built-in types, which a user type of that name
/// would hide: integers (`u4`, `s8le`), floats (`f8`), bit fields (`b12`), `str`,
/// `strz`.
fn is_builtin(name: &str) -> bool {
    let base = name
        .strip_suffix("le")
        .or_else(|| name.strip_suffix("be"))
        .unwrap_or(name);
    let digits = |s: &str, allowed: &[&str]| allowed.contains(&s);
    match base.split_at_checked(1) {
        _ if name == "str" || name == "strz" => true,
        Some(("u" | "s", n)) => digits(n, &["1", "2", "4", "8"]),
        Some(("f", n)) => digits(n, &["4", "8"]),
        Some(("b", n)) => {
            n.parse::<u8>().is_ok_and(|n| (1..=64).contains(&n)) && !n.starts_with('0')
        }
        _ => false,
    }
}

/// The names taken in a `.ksy` file's one namespace of types and enums, and what took
/// each.
#[derive(Debug, Default)]
pub(super) struct Namespace {
    taken: HashMap<String, String>,
}

impl Namespace {
    /// Takes `name` for `what`; `Err` with what holds it if it is taken (a name of
    /// Kaitai's built-in types is always taken).
    pub(super) fn claim(&mut self, name: &str, what: &str) -> Result<(), String> {
        if is_builtin(name) {
            return Err(format!("built-in type `{name}` of Kaitai"));
        }
        match self.taken.get(name) {
            Some(holder) => Err(holder.clone()),
            None => {
                self.taken.insert(name.to_owned(), what.to_owned());
                Ok(())
            }
        }
    }

    /// Takes `base`, or `base_2`, `base_3`, .. if it is taken: for the exporter's
    /// own types, which give way to the schema's names.
    pub(super) fn claim_free(&mut self, base: &str, what: &str) -> String {
        let mut name = base.to_owned();
        let mut n = 2;
        while self.taken.contains_key(&name) || is_builtin(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone(), what.to_owned());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_of_rust_names() {
        for (rust, kaitai) in [
            ("Book", Some("book")),
            ("OrderInstrStop", Some("order_instr_stop")),
            ("HTTPGateway", Some("http_gateway")),
            ("E7Quote", Some("e7_quote")),
            ("LoginRequest", Some("login_request")),
            ("Added", Some("added")),
            ("snake_already", Some("snake_already")),
            ("Café", None),
            ("_Hidden", None),
        ] {
            assert_eq!(snake(rust).as_deref(), kaitai, "{rust}");
        }
        assert!(is_identifier("levels__end"));
        assert!(is_python_keyword("from") && !is_python_keyword("type"));
        assert!(!is_identifier("Levels") && !is_identifier("1st") && !is_identifier(""));
    }

    #[test]
    fn the_schemas_names_come_first_and_own_types_give_way() {
        let mut names = Namespace::default();
        names.claim("frame", "message `Frame`").unwrap();
        assert_eq!(
            names.claim("frame", "enum `Frame`"),
            Err("message `Frame`".into())
        );
        assert_eq!(names.claim_free("frame", "the frame type"), "frame_2");
        assert_eq!(names.claim_free("frame", "another"), "frame_3");
        for builtin in ["u4", "s8le", "f4", "b12", "str", "strz", "u2be"] {
            assert_eq!(
                names.claim(builtin, "message"),
                Err(format!("built-in type `{builtin}` of Kaitai"))
            );
        }
        for free in ["u3", "u16", "b0", "b65", "strings", "s", "bool"] {
            assert_eq!(names.claim(free, "message"), Ok(()), "{free}");
        }
    }
}
