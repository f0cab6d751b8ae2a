//! Lists copied whole (`Field::PLAIN`): where a type's Rust value is its wire block,
//! a list of it is encoded and decoded by one copy. The bytes are those of the
//! per-element path (a generic twin, never plain, writes them), the decoded values
//! equal, and types whose layout differs (reordered by Rust, padded, a field written
//! as something else, big-endian numbers) take the per-element path.

use wiremsg::{ErrorKind, Field, WireMsg};

#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Default)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Default)]
struct Triangle {
    normal: Vec3,
    vertices: [Vec3; 3],
}

/// Numbers, a bool and an array, in an order Rust keeps (by falling alignment).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Fill {
    px: i64,
    qty: u32,
    venue: [u8; 3],
    last: bool,
}

/// The same bytes through a generic message, which is never plain.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct FillG<T: wiremsg::Element + 'static> {
    px: T,
    qty: u32,
    venue: [u8; 3],
    last: bool,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Mesh {
    triangles: Vec<Triangle>,
    fills: Vec<Fill>,
    ids: Vec<u64>,
    flags: Vec<bool>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct MeshG {
    triangles: Vec<Triangle>,
    fills: Vec<FillG<i64>>,
    ids: Vec<u64>,
    flags: Vec<bool>,
}

/// Rust puts `b` first: the struct is not its block.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Reordered {
    a: u16,
    b: u32,
    c: u16,
}

#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Padded {
    a: u32,
    b: u8,
}

#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Sentinel {
    #[wire(null = u32::MAX)]
    limit: Option<u32>,
}

fn fill(i: u32) -> Fill {
    Fill {
        px: -(i as i64) * 1_000,
        qty: i,
        venue: [b'X', b'N', i as u8],
        last: i % 3 == 0,
    }
}

fn mesh(n: u32) -> Mesh {
    Mesh {
        triangles: (0..n)
            .map(|i| {
                let v = |k: f32| Vec3 {
                    x: i as f32 + k,
                    y: -(i as f32),
                    z: f32::from_bits(0x7fc0_0000 | i),
                };
                Triangle {
                    normal: v(0.5),
                    vertices: [v(1.0), v(2.0), v(3.0)],
                }
            })
            .collect(),
        fills: (0..n).map(fill).collect(),
        ids: (0..u64::from(n)).map(|i| i * 0x0101_0101_0101).collect(),
        flags: (0..n).map(|i| i % 2 == 1).collect(),
    }
}

fn generic_twin(m: &Mesh) -> MeshG {
    MeshG {
        triangles: m.triangles.clone(),
        fills: m
            .fills
            .iter()
            .map(|f| FillG {
                px: f.px,
                qty: f.qty,
                venue: f.venue,
                last: f.last,
            })
            .collect(),
        ids: m.ids.clone(),
        flags: m.flags.clone(),
    }
}

#[test]
fn which_types_are_plain() {
    let le = cfg!(target_endian = "little");
    assert_eq!(<u32 as Field>::PLAIN.get(), le);
    assert_eq!(<f64 as Field>::PLAIN.get(), le);
    assert!(<bool as Field>::PLAIN.get());
    assert_eq!(<[i16; 4] as Field>::PLAIN.get(), le);
    assert_eq!(<Vec3 as Field>::PLAIN.get(), le);
    assert_eq!(<Triangle as Field>::PLAIN.get(), le);
    assert_eq!(<Fill as Field>::PLAIN.get(), le);
    assert!(!<FillG<i64> as Field>::PLAIN.get());
    assert!(!<Reordered as Field>::PLAIN.get());
    assert!(!<Padded as Field>::PLAIN.get());
    assert!(!<Sentinel as Field>::PLAIN.get());
    assert!(!<Option<u32> as Field>::PLAIN.get());
    assert!(!<Mesh as Field>::PLAIN.get());
}

#[test]
fn a_plain_list_has_the_bytes_of_the_per_element_path() {
    for n in [0, 1, 2, 7, 100] {
        let m = mesh(n);
        let bytes = m.to_bytes().unwrap();
        assert_eq!(bytes, generic_twin(&m).to_bytes().unwrap(), "n = {n}");
        let decoded = Mesh::decode(&bytes).unwrap();
        // NaN payloads compare by bits.
        let bits = |m: &Mesh| {
            m.triangles
                .iter()
                .flat_map(|t| [t.normal, t.vertices[0], t.vertices[1], t.vertices[2]])
                .flat_map(|v| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()])
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&decoded), bits(&m));
        assert_eq!(
            (&decoded.fills, &decoded.ids, &decoded.flags),
            (&m.fills, &m.ids, &m.flags)
        );
        assert_eq!(MeshG::decode(&bytes).unwrap().fills, generic_twin(&m).fills);
    }
    // Golden: two Vec3 in a strided list (stride 12), little-endian f32s.
    #[derive(WireMsg)]
    struct Points {
        points: Vec<Vec3>,
    }
    let points = Points {
        points: vec![
            Vec3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
            Vec3 {
                x: -0.0,
                y: 0.5,
                z: 4.0,
            },
        ],
    };
    let mut expected = vec![6, 0, 32, 0, 0, 0, 12, 0];
    for f in [1.0f32, 2.0, 3.0, -0.0, 0.5, 4.0] {
        expected.extend(f.to_le_bytes());
    }
    assert_eq!(points.to_bytes().unwrap(), expected);
}

#[test]
fn a_list_of_another_version_s_blocks_is_decoded_element_by_element() {
    mod v1 {
        #[derive(wiremsg::WireMsg, Debug, Clone, Copy, PartialEq)]
        pub(super) struct Level {
            pub(super) px: i64,
        }
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(super) struct Book {
            pub(super) levels: Vec<Level>,
        }
    }
    mod v2 {
        #[derive(wiremsg::WireMsg, Debug, Clone, Copy, PartialEq)]
        #[wire(version = 2)]
        pub(super) struct Level {
            pub(super) px: i64,
            #[wire(since = 2)]
            pub(super) qty: u64,
        }
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(super) struct Book {
            pub(super) levels: Vec<Level>,
        }
    }
    assert!(<v1::Level as Field>::PLAIN.get() == cfg!(target_endian = "little"));
    assert!(<v2::Level as Field>::PLAIN.get() == cfg!(target_endian = "little"));
    let old = v1::Book {
        levels: vec![v1::Level { px: 5 }, v1::Level { px: -7 }],
    }
    .to_bytes()
    .unwrap();
    let new = v2::Book::decode(&old).unwrap();
    assert_eq!(
        new.levels,
        [v2::Level { px: 5, qty: 0 }, v2::Level { px: -7, qty: 0 }]
    );
    let newer = new.to_bytes().unwrap();
    let back = v1::Book::decode(&newer).unwrap();
    assert_eq!(back.levels, [v1::Level { px: 5 }, v1::Level { px: -7 }]);
}

#[test]
fn a_bool_that_is_not_0_or_1_is_refused_before_the_copy() {
    let m = Mesh {
        triangles: vec![],
        fills: vec![fill(1)],
        ids: vec![],
        flags: vec![true, false],
    };
    let mut bytes = m.to_bytes().unwrap();
    let at = bytes.len() - 2;
    bytes[at] = 2;
    let err = Mesh::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 2 });
    assert_eq!(err.path(), "flags[0]");
}

#[derive(WireMsg, Debug, PartialEq)]
struct Switches {
    id: u32,
    flags: Vec<bool>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Labelled {
    name: String,
    flags: Vec<bool>,
}

#[test]
fn a_short_bool_list_is_judged_by_its_own_bytes_not_those_before_it() {
    // A list of up to 16 bools is checked by one 16-byte load ending where it ends,
    // over the text before it (bytes 0xC3 0xBF, no bools): every bad byte of its
    // own must count, wherever the list's end falls in that load.
    // Under miri, the lengths at the edges of each load width only.
    let lens: Vec<usize> = if cfg!(miri) {
        vec![0, 1, 3, 4, 8, 15, 16]
    } else {
        (0..=16).collect()
    };
    for len in lens {
        let good = Labelled {
            name: "ÿ".repeat(9),
            flags: (0..len).map(|i| i % 2 == 1).collect(),
        };
        let bytes = good.to_bytes().unwrap();
        assert_eq!(Labelled::view(&bytes).unwrap().flags().len(), len);
        let start = bytes.len() - len;
        for i in 0..len {
            let mut bad = bytes.clone();
            bad[start + i] = 0x81;
            let err = Labelled::view(&bad).unwrap_err();
            assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 0x81 });
            assert_eq!(
                (err.path().as_str(), err.offset()),
                (format!("flags[{i}]").as_str(), start + i)
            );
        }
    }
}

#[test]
fn a_bad_bool_anywhere_in_a_long_list_is_found_at_its_element() {
    // Lists of bools are checked by one pass over their bytes, then element by
    // element only to name the bad one: every position, each kind of bad byte.
    for len in 0..=40 {
        let good = Switches {
            id: 7,
            flags: (0..len).map(|i| i % 3 == 0).collect(),
        };
        let bytes = good.to_bytes().unwrap();
        assert_eq!(Switches::decode(&bytes).unwrap(), good);
        let start = bytes.len() - len;
        for i in 0..len {
            let mut bad = bytes.clone();
            bad[start + i] = 2;
            let err = Switches::view(&bad).unwrap_err();
            assert_eq!(err.path(), format!("flags[{i}]"), "{len}");
        }
    }
    let good = Switches {
        id: 7,
        flags: (0..100).map(|i| i % 3 == 0).collect(),
    };
    let bytes = good.to_bytes().unwrap();
    let start = bytes.len() - 100;
    for i in 0..100 {
        for value in [2u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[start + i] = value;
            let err = Switches::view(&bad).unwrap_err();
            assert_eq!(err.kind(), &ErrorKind::InvalidBool { value });
            assert_eq!(err.path(), format!("flags[{i}]"));
            assert_eq!(err.offset(), start + i);
        }
    }
}
