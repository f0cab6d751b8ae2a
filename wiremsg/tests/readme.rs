//! Every file or directory that the repository's documents name (in backticks or as
//! a link) exists, so that a reader who follows one finds it. The README's Rust
//! snippets are compiled and run as doctests (`ReadmeDoctests` in `src/lib.rs`).

use std::path::{Path, PathBuf};

/// The repository's root: the parent of this crate.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is inside the repository")
        .to_path_buf()
}

/// What `text` names in backticks or links that looks like a path: a token without
/// spaces, `::` or wildcards that ends with `/` or with a file extension the
/// repository uses.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let backticked = text.split('`').skip(1).step_by(2);
    let linked = text
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next());
    for token in backticked.chain(linked) {
        let token = token.trim_end_matches(['.', ',', ':']);
        // A directory ends with `/`; a file has an extension (`log/update_unchecked`
        // is a benchmark's name, not a path).
        let looks_like_path = token.ends_with('/')
            || [
                ".md", ".rs", ".sh", ".xml", ".fbs", ".capnp", ".toml", ".json",
            ]
            .iter()
            .any(|ext| token.ends_with(ext));
        let plain = !token.is_empty()
            && !token.contains([
                ' ', '*', '<', '>', '{', '&', '#', '[', '(', '=', '"', '\'', '\n',
            ])
            && !token.contains("::")
            && !token.starts_with("http")
            && !token.starts_with('-');
        if looks_like_path && plain {
            out.push(token.to_string());
        }
    }
    out
}

#[test]
fn every_file_the_documents_name_exists() {
    let root = root();
    let mut checked = 0;
    for doc in ["README.md", "FORMAT.md", "benches/README.md"] {
        let path = root.join(doc);
        let text = std::fs::read_to_string(&path).expect("the document exists");
        let dir = path.parent().unwrap();
        for named in named_paths(&text) {
            let named = named.trim_start_matches("./");
            assert!(
                root.join(named).exists() || dir.join(named).exists(),
                "{doc} names `{named}`, which is not in the repository"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 10,
        "only {checked} paths found: the scan is broken"
    );
}

#[test]
fn the_scan_finds_paths_and_skips_the_rest() {
    let text = "see `FORMAT.md` §10, [`benches/`](benches/), `wiremsg::frame::WireCodec`, \
                `cargo run -p x`, `tests/ui/*.stderr`, `log/update` and `&'a str`.";
    assert_eq!(
        named_paths(text),
        ["FORMAT.md", "benches/", "benches/"],
        "backticks and the link target"
    );
}
