//! Decoding amplification through dense lists (FORMAT.md §6.8): a hostile table
//! with one unit entry (block 0) allows a stride of 1 byte per element, whatever
//! the size of the union in memory (here over 512 bytes, for a variant whose
//! payload no element uses). `decode` must refuse past its budget (64 times the
//! input), not allocate hundreds of times the input.

use wiremsg::{ErrorKind, WireMsg};

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Big {
        pub(crate) a: [u64; 64],
    }
    // Large in memory on purpose: the decode budget counts its size per element.
    #[allow(clippy::large_enum_variant)]
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(crate) enum E {
        H = 0,
        B(Big) = 1,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) events: Vec<E>,
    }
}
use t::*;

fn hostile(count: usize) -> Vec<u8> {
    let mut region = vec![1, 0, 1, 0, 0, 0, 0];
    region.resize(region.len() + count, 0);
    let mut out = vec![6, 0];
    out.extend_from_slice(&((6 + region.len()) as u32).to_le_bytes());
    out.extend_from_slice(&region);
    out
}

#[test]
fn one_byte_elements_of_a_large_union_are_held_to_the_decode_budget() {
    assert!(core::mem::size_of::<E>() >= 512);
    let small = hostile(3);
    assert_eq!(
        Batch::decode(&small).unwrap().events,
        vec![E::H, E::H, E::H]
    );
    let bytes = hostile(200_000);
    let view = Batch::view(&bytes).unwrap();
    assert_eq!(view.events().len(), 200_000);
    let err = Batch::decode(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DecodeBudgetExceeded { .. }),
        "{err:?}"
    );
}
