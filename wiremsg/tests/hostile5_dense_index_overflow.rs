//! Entry indexes at the edge of `usize` (FORMAT.md §6.8): a union with `u64` tags
//! has 8-byte entry indexes, and its variant table entries are 10 bytes. Up-front
//! validation (`dense::try_each`) finds the entry with
//! `table.get(k.checked_mul(size)?..k * size + size)`: the multiplication is
//! checked, the addition is not. For `k = usize::MAX / 10` (0x1999_9999_9999_9999)
//! `k * 10` is `usize::MAX - 5` and `+ 10` overflows: a panic where overflow checks
//! are on (debug builds, tests), instead of `VariantEntryOutOfRange`.

use wiremsg::{ErrorKind, SchemaSet, WireMsg};

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u64)]
    pub(crate) enum E {
        H = 0,
        C { id: u16 } = 5,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<E>,
    }
}
use t::*;

/// A `Batch` whose one element has entry index `k`; the table is the writer's.
fn with_index(k: u64) -> Vec<u8> {
    let mut bytes = Batch {
        seq: 1,
        events: vec![E::C { id: 9 }],
    }
    .to_bytes()
    .unwrap();
    // Block 10; region at 10: stride (2), entries (2), 2 entries of 10, element.
    let at = 10 + 4 + 2 * 10;
    assert_eq!(&bytes[at..at + 8], &1u64.to_le_bytes());
    bytes[at..at + 8].copy_from_slice(&k.to_le_bytes());
    bytes
}

fn check_refused(k: u64) {
    let bytes = with_index(k);
    let typed = std::panic::catch_unwind(|| Batch::view(&bytes).map(|_| ()));
    let typed = match typed {
        Ok(r) => r.unwrap_err(),
        Err(_) => panic!("Batch::view panicked on entry index {k:#x}"),
    };
    assert!(
        matches!(
            typed.kind(),
            ErrorKind::VariantEntryOutOfRange { entries: 2, .. }
        ),
        "{typed:?}"
    );
    assert_eq!(typed.offset(), 34);
    let set = SchemaSet::of::<Batch>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Batch", &bytes).unwrap_err();
    assert_eq!(typed.to_string(), dynamic.to_string());
    let decode = std::panic::catch_unwind(|| Batch::decode(&bytes).map(|_| ()));
    assert!(
        matches!(decode, Ok(Err(_))),
        "decode panicked or accepted at {k:#x}"
    );
    let mut copy = bytes.clone();
    let m = std::panic::catch_unwind(move || Batch::view_mut(&mut copy).is_err());
    assert!(
        matches!(m, Ok(true)),
        "view_mut panicked or accepted at {k:#x}"
    );
    let lazy = Batch::view_lazy(&bytes).unwrap();
    let err = lazy.events().unwrap().get(0).unwrap().unwrap_err();
    assert_eq!(err.to_string(), typed.to_string());
}

#[test]
fn entry_indexes_far_past_the_table_are_refused() {
    for k in [2, 3, 0xffff, 1 << 32, 1 << 63, u64::MAX, u64::MAX - 1] {
        check_refused(k);
    }
}

#[test]
fn an_entry_index_whose_entry_end_overflows_is_refused() {
    #[cfg(target_pointer_width = "64")]
    for k in [
        usize::MAX as u64 / 10,
        usize::MAX as u64 / 10 - 1,
        usize::MAX as u64 / 5,
    ] {
        check_refused(k);
    }
}
