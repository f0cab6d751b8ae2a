//! Variance is checked, not remembered (issue 30). Every public type that carries a
//! kind or a proof about its type parameters must be invariant in each of them: with
//! rustc's higher-ranked subtyping, `W<for<'a> fn(&'a ())>` is a subtype of
//! `W<fn(&'static ())>`, both may implement `Field` with different kinds, and a
//! covariant view would turn bytes validated as one kind into a view read as the
//! other (a `MapView` did, before it was made invariant).
//!
//! `tests/variance/` holds one compile-fail case per such type, the coercion from the
//! subtype to the supertype in each parameter. The second test reads every
//! `pub struct` and `pub enum` with a type parameter from the crate's source and
//! fails if it has neither a case nor a reason below why it carries no kind or
//! proof: a new view type without a case fails here, not in a user's hands.

use std::collections::BTreeSet;
use std::path::Path;

/// Public generic types that carry no kind and no proof, with the reason. Their
/// subtyping is that of the values they hold, which is sound.
const EXEMPT: &[(&str, &str)] = &[
    (
        "FrameReader",
        "a reader over any `std::io::Read`; frames are validated per read",
    ),
    ("FrameWriter", "a writer over any `std::io::Write`"),
    ("EncodeWith", "a closure that encodes into a frame"),
    (
        "NullAs",
        "a value to encode (`Option<T>` with a sentinel); its kind names `T` invariantly",
    ),
    ("Decimal", "a value (a mantissa and a scale)"),
    (
        "Bounded",
        "a value to encode (`&[T]`); its kind, `BoundedListOf<T>`, is invariant",
    ),
    ("Node", "a schema node: data, read by nothing `unsafe`"),
    (
        "Gate",
        "a namespace of the views' reads, never a value (its field is private and no \
         function makes one); what it reads with comes from the proofs it is given",
    ),
    (
        "Probe",
        "compile-time facts for the derive's layout checks; no `unsafe` code reads them",
    ),
    (
        "MapKeyOf",
        "never built: the derive names it only to require that a type is a map key",
    ),
    (
        "SerializeView",
        "its parameter is a sealed kind, named only through the projection `K::View`, which is invariant",
    ),
];

#[test]
fn every_kind_or_proof_carrying_type_is_invariant() {
    trybuild::TestCases::new().compile_fail("tests/variance/*.rs");
}

#[test]
fn every_public_generic_type_has_a_variance_case_or_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = BTreeSet::new();
    collect(&root.join("src"), &mut found);
    assert!(
        found.contains("MapView") && found.contains("List"),
        "{found:?}"
    );

    let cases: BTreeSet<String> = std::fs::read_dir(root.join("tests/variance"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".rs").map(str::to_owned))
        .collect();
    let exempt: BTreeSet<&str> = EXEMPT.iter().map(|(name, _)| *name).collect();
    let missing: Vec<_> = found
        .iter()
        .filter(|name| !cases.contains(&kebab(name)) && !exempt.contains(name.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "public generic types with neither a case in tests/variance/ (named in kebab case) \
         nor a reason in EXEMPT: {missing:?}"
    );
    let stale: Vec<_> = exempt.iter().filter(|n| !found.contains(**n)).collect();
    assert!(
        stale.is_empty(),
        "EXEMPT names types that no longer exist: {stale:?}"
    );
}

/// The names of the `pub struct`s and `pub enum`s below `dir` with a type parameter.
fn collect(dir: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines() {
                if let Some(name) = generic_type(line.trim_start()) {
                    found.insert(name);
                }
            }
        }
    }
}

/// `Some(name)` if `line` declares a `pub struct` or `pub enum` with a type
/// parameter (not only lifetimes and constants).
fn generic_type(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("pub struct ")
        .or_else(|| line.strip_prefix("pub enum "))?;
    let open = rest.find('<')?;
    let name = &rest[..open];
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut depth = 0usize;
    let mut params = String::new();
    for c in rest[open..].chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        params.push(c);
        if depth == 0 {
            break;
        }
    }
    let inner = &params[1..params.len() - 1];
    let mut level = 0usize;
    let mut param = String::new();
    let mut has_type = false;
    for c in inner.chars().chain([',']) {
        match c {
            '<' | '(' => level += 1,
            '>' | ')' => level -= 1,
            ',' if level == 0 => {
                let p = param.trim();
                if !p.is_empty() && !p.starts_with('\'') && !p.starts_with("const ") {
                    has_type = true;
                }
                param.clear();
                continue;
            }
            _ => {}
        }
        param.push(c);
    }
    has_type.then(|| name.to_owned())
}

/// `MapView` -> `map-view`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn kebab_and_the_scan_read_names_as_meant() {
    assert_eq!(kebab("ListIterMut"), "list-iter-mut");
    assert_eq!(kebab("VPair"), "v-pair");
    assert_eq!(
        generic_type("pub struct List<'v, T> {").as_deref(),
        Some("List")
    );
    assert_eq!(
        generic_type("pub struct FixedStr<const N: usize, const PAD: u8 = b' '> {"),
        None
    );
    assert_eq!(generic_type("pub struct DynList<'a> {"), None);
    assert_eq!(
        generic_type("pub struct SerializeView<'v, K: Kind + 'v>(pub K::View<'v>);").as_deref(),
        Some("SerializeView")
    );
    assert_eq!(
        generic_type("pub enum Node<T: 'static> {").as_deref(),
        Some("Node")
    );
}
