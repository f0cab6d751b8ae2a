//! Hostile code against dense lists (FORMAT.md §6.8): a hand-made field type that
//! claims a fixed-size union's kind (`UnionOf<E's layout>`) and lies in what it
//! writes (an unknown tag, a payload no reader accepts, a tail length of 0 or far
//! too long, nothing at all). The dense writer (`write_dense`) takes the element's
//! tag from the bytes the value wrote and writes its entry index; nothing it writes
//! is trusted: every reader refuses or reads the same value, nothing panics.

use wiremsg::kind::UnionOf;
use wiremsg::{Field, SchemaSet, TypeSchema, WireMsg, WireUnion};

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    pub(crate) enum E {
        H = 0,
        C { id: u16, flag: bool } = 5,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) events: Vec<E>,
    }
}
use t::{Batch, E};

/// Writes `bytes` (tag first) and says its tail is `claimed` bytes.
#[derive(Debug, Clone)]
struct Forged {
    bytes: Vec<u8>,
    claimed: usize,
}

impl Field for Forged {
    type Kind = UnionOf<<E as WireUnion>::Layout>;
    const TYPE: &'static TypeSchema = <E as Field>::TYPE;

    fn tail_len(&self) -> usize {
        self.claimed
    }

    fn write(&self, _: &mut [u8], tail: &mut [u8]) {
        let n = tail.len().min(self.bytes.len());
        tail[..n].copy_from_slice(&self.bytes[..n]);
    }
}

impl wiremsg::Element for Forged {
    type ListView<'v> = wiremsg::List<'v, Self>;
    fn list_view<'v>(list: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self> {
        list
    }
    fn list_of<'v>(view: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self>
    where
        Self: 'v,
    {
        view
    }
}

#[derive(WireMsg, Debug)]
#[wire(no_decode)]
struct Holder {
    events: Vec<Forged>,
}

fn read_all(bytes: &[u8]) -> Option<Vec<E>> {
    let set = SchemaSet::of::<Batch>().unwrap();
    let typed = Batch::view(bytes);
    let dynamic = wiremsg::dynamic::view(&set, "Batch", bytes);
    let held = Holder::view(bytes);
    assert_eq!(typed.is_ok(), dynamic.is_ok());
    assert_eq!(typed.is_ok(), held.is_ok());
    match typed {
        Ok(view) => {
            let decoded = Batch::decode(bytes).unwrap();
            assert_eq!(view.decode(), decoded);
            // The forged type's own list reads the same views.
            let held = held.unwrap();
            let a: Vec<_> = held.events().iter().collect();
            let b: Vec<_> = view.events().iter().collect();
            assert_eq!(a, b);
            let lazy = Batch::view_lazy(bytes).unwrap();
            assert_eq!(lazy.events().unwrap().to_view().unwrap(), view.events());
            Some(decoded.events)
        }
        Err(e) => {
            assert_eq!(e.to_string(), dynamic.unwrap_err().to_string());
            None
        }
    }
}

#[test]
fn forged_union_values_are_validated_never_trusted() {
    let c = |id: u16, flag: u8| {
        let mut b = 5u16.to_le_bytes().to_vec();
        b.extend_from_slice(&id.to_le_bytes());
        b.push(flag);
        b
    };
    let cases: Vec<(Vec<Forged>, Option<Vec<E>>)> = vec![
        // Honest.
        (
            vec![
                Forged {
                    bytes: c(9, 1),
                    claimed: 5,
                },
                Forged {
                    bytes: vec![0, 0],
                    claimed: 2,
                },
            ],
            Some(vec![E::C { id: 9, flag: true }, E::H]),
        ),
        // A tag no variant has: its entry index is past the table.
        (
            vec![Forged {
                bytes: vec![77, 0, 1, 2, 3],
                claimed: 5,
            }],
            None,
        ),
        // A payload no reader accepts (`flag` 2).
        (
            vec![Forged {
                bytes: c(9, 2),
                claimed: 5,
            }],
            None,
        ),
        // Claims no tail: nothing written, the zeroed element is entry 0 (H).
        (
            vec![Forged {
                bytes: c(9, 1),
                claimed: 0,
            }],
            Some(vec![E::H]),
        ),
        // Claims one byte of a two-byte tag: the writer reads no tag from it (0: H)
        // and writes entry index 0 over the byte.
        (
            vec![Forged {
                bytes: c(9, 1),
                claimed: 1,
            }],
            Some(vec![E::H]),
        ),
        // Claims far more than the stride: cut at the stride.
        (
            vec![Forged {
                bytes: c(9, 1),
                claimed: 1 << 20,
            }],
            Some(vec![E::C { id: 9, flag: true }]),
        ),
        // Writes nothing though it claims 5.
        (
            vec![Forged {
                bytes: vec![],
                claimed: 5,
            }],
            Some(vec![E::H]),
        ),
    ];
    for (i, (events, want)) in cases.into_iter().enumerate() {
        let bytes = match (Holder { events }).to_bytes() {
            Ok(bytes) => bytes,
            Err(e) => {
                assert!(
                    want.is_none(),
                    "case {i}: the writer refused ({e}) a value readers take"
                );
                continue;
            }
        };
        assert_eq!(read_all(&bytes), want, "case {i}: {bytes:02x?}");
    }
}
