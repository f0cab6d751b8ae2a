//! What an `UnsupportedFormat` told from a list's shape (FORMAT.md §6.3, §6.8) must
//! carry beside it: shared by `split_lists.rs` and `dense.rs`. Included with `#[path]`.

/// The error the bytes gave read as format 3: `err`'s `source()`, of another kind, and
/// the end of `err`'s message.
pub(crate) fn format_3_reading(err: &wiremsg::Error) -> &wiremsg::Error {
    let current = std::error::Error::source(err)
        .and_then(|s| s.downcast_ref::<wiremsg::Error>())
        .expect("the format-3 error");
    assert_ne!(current.kind(), err.kind());
    assert!(
        err.to_string().ends_with(&format!(
            "; or the bytes are corrupt: read as format version 3, {current}"
        )),
        "{err}"
    );
    current
}
