//! The schema-driven reader's on-demand view against its up-front one: shared by
//! `tests/dynamic.rs` and the `dynamic` fuzz target (`fuzz/src/lib.rs`).

use wiremsg::dynamic::{self, DynView};
use wiremsg::{Error, SchemaSet};

/// The on-demand view (`dynamic::view_lazy`) against the up-front one: it fails to
/// open exactly when `view` fails on the block length; where `view` accepts, every
/// field reads the same value; where `view` fails, every field before the failing
/// one reads, the failing one fails with `view`'s error, and `to_view` too.
// `pub`: the fuzz crate includes this file as a public module and calls it from its
// targets; in a test binary it is unreachable from outside.
#[allow(unreachable_pub)]
pub fn agrees(set: &SchemaSet, name: &str, bytes: &[u8], upfront: &Result<DynView<'_>, Error>) {
    let key = |e: &Error| (e.kind().clone(), e.offset(), e.path());
    let lazy = match dynamic::view_lazy(set, name, bytes) {
        Ok(lazy) => lazy,
        Err(err) => {
            let expected = upfront
                .as_ref()
                .expect_err("view_lazy refused what view accepts");
            assert_eq!(key(&err), key(expected), "{name}: view_lazy");
            return;
        }
    };
    let fields: Vec<&str> = set
        .message(name)
        .unwrap()
        .fields
        .iter()
        .filter(|f| !f.reserved)
        .map(|f| f.name.as_ref())
        .collect();
    match upfront {
        Ok(view) => {
            // By `Debug`: a NaN is not equal to itself.
            for field in &fields {
                let (got, want) = (lazy.get(field).unwrap(), view.get(field));
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{name}.{field}");
            }
            assert_eq!(
                format!("{:?}", lazy.to_view().unwrap()),
                format!("{view:?}")
            );
        }
        Err(expected) => {
            assert_eq!(
                lazy.to_view().map(|_| ()).map_err(|e| key(&e)),
                Err(key(expected))
            );
            let path = expected.path();
            let failing = path.split(['.', '[', ' ']).next().unwrap_or_default();
            let Some(at) = fields.iter().position(|f| *f == failing) else {
                return;
            };
            for field in &fields[..at] {
                assert!(lazy.get(field).is_ok(), "{name}.{field} before {path}");
            }
            let err = lazy.get(failing).expect_err("the failing field reads");
            assert_eq!(key(&err), key(expected), "{name}.{failing}");
        }
    }
}
