//! Cross-language: `.ksy` files written by `wiremsg export --ksy`, compiled to Python
//! by Kaitai Struct's compiler, read every golden vector of FORMAT.md, a v1 message
//! through the v2 schema and the reverse, a message behind its header, and a stream
//! recorded by the market_data example (described by its own schema frame), with
//! every value equal to what `wiremsg json` reads (`tests/kaitai/check.py` compares).
//!
//! Needs `node` with `tests/kaitai/node_modules` (`npm ci` there) and a Python with
//! the `kaitaistruct` runtime (`WIREMSG_KAITAI_PYTHON`, default
//! `target/kaitai-venv/bin/python`), which `cargo test` does not install: every test
//! here is `#[ignore]`d, so that a machine without them reports the tests as ignored,
//! not passed. `cli/tests/kaitai/run.sh` (a step of `.ci/run`) installs both and runs
//! them with `--ignored`; run that way without them, each fails and says what is
//! missing.

#[path = "../../wiremsg/tests/common/golden.rs"]
mod format_golden;
use format_golden::golden;
mod common;
use common::scratch;
use std::path::{Path, PathBuf};
use std::process::Command;

fn kaitai_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kaitai")
}

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../wiremsg/tests/schemas/golden/{name}.wms"))
}

/// Why these tests are ignored by a plain `cargo test`.
const NEEDS: &str = "needs node, Kaitai's compiler and a Python with kaitaistruct: \
                     cli/tests/kaitai/run.sh installs them and runs these with --ignored";

/// The Python that has `kaitaistruct`; a panic saying what is missing unless node,
/// the compiler and it are installed.
fn python() -> PathBuf {
    let python = std::env::var_os("WIREMSG_KAITAI_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/kaitai-venv/bin/python")
        });
    let node = Command::new("node").arg("--version").output();
    let missing = if node.is_err() {
        Some("node is not on PATH".to_owned())
    } else if !kaitai_dir()
        .join("node_modules/kaitai-struct-compiler")
        .exists()
    {
        Some("tests/kaitai/node_modules has no kaitai-struct-compiler (npm ci)".to_owned())
    } else if !python.exists() {
        Some(format!("no Python at {}", python.display()))
    } else {
        None
    };
    if let Some(why) = missing {
        panic!("the Kaitai cross-language test cannot run: {why}; {NEEDS}");
    }
    python
}

/// Runs `command`; its standard output, or a panic with everything it said.
fn run(command: &mut Command) -> Vec<u8> {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn wiremsg(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<u8> {
    run(Command::new(env!("CARGO_BIN_EXE_wiremsg")).args(args.iter().map(|a| a.as_ref())))
}

/// What the `.ksy` reads, and how `wiremsg json` is told the same.
#[derive(Clone, Copy)]
enum Root<'a> {
    Message(&'a str),
    Header,
    Frames,
}

/// Exports the `.ksy` of `schema` (a schema file; `None`: the input, a stream that
/// describes itself), compiles it to Python, reads `input` with it and with
/// `wiremsg json`, and compares.
fn check(python: &Path, case: &str, schema: Option<&Path>, root: Root<'_>, input: &[u8]) {
    check_against(python, case, schema, root, input, None);
}

/// [`check`], comparing with `expected` (the JSON `wiremsg json` would write) when it
/// is given instead of with `wiremsg json`.
fn check_against(
    python: &Path,
    case: &str,
    schema: Option<&Path>,
    root: Root<'_>,
    input: &[u8],
    expected_json: Option<&str>,
) {
    let dir = scratch(case);
    let bin = dir.join("input.bin");
    std::fs::write(&bin, input).unwrap();
    let (flags, check_root): (Vec<&str>, String) = match root {
        Root::Message(ty) => (vec!["-t", ty], format!("message:{ty}")),
        Root::Header => (vec!["--header"], "header".into()),
        Root::Frames => (vec!["--frames"], "frames".into()),
    };
    let flags = flags.iter().map(|a| a as &dyn AsRef<std::ffi::OsStr>);
    let ksy = dir.join(format!("{case}.ksy"));
    let source = schema.unwrap_or(&bin);
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> =
        vec![&"export", &"--ksy", &source, &"-o", &ksy];
    args.extend(flags.clone());
    wiremsg(&args);

    // For a stream, the schema its schema frames give (the latest description wins).
    let schema_json = dir.join("schema.json");
    std::fs::write(&schema_json, wiremsg(&[&"schema", &"--json", &source])).unwrap();
    let expected = dir.join("expected.json");
    match expected_json {
        Some(json) => std::fs::write(&expected, json).unwrap(),
        None => {
            let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"json"];
            if let Some(path) = &schema {
                args.extend([&"-s" as &dyn AsRef<std::ffi::OsStr>, path]);
            }
            args.extend(flags);
            args.push(&bin);
            std::fs::write(&expected, wiremsg(&args)).unwrap();
        }
    }

    let py = dir.join("py");
    run(Command::new("node")
        .arg(kaitai_dir().join("compile.js"))
        .arg(&py)
        .arg(&ksy));
    let out = run(Command::new(python)
        .arg(kaitai_dir().join("check.py"))
        .arg(&schema_json)
        .arg(&py)
        .arg(&check_root)
        .arg(&bin)
        .arg(&expected));
    eprintln!("{case}: {}", String::from_utf8_lossy(&out).trim());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_every_golden_vector_as_wiremsg_does() {
    let python = python();
    for (vector, schema_name, ty) in [
        ("E1", "E1", "Padded"),
        ("E2", "E2", "Tick"),
        ("E3", "E3", "LoginRequest"),
        ("E4", "E4", "Book"),
        ("E5", "E5", "Fill"),
        ("E6", "E6", "Sample"),
        ("E7b", "E7", "Quote"),
        ("E7d", "E7", "Order"),
        ("E9b", "E9", "Alert"),
        ("E10", "E10", "TopLevel"),
        ("E11", "E11", "Order"),
        ("E12", "E12", "Segment"),
        ("E13", "E13", "Grid"),
        ("E14", "E14", "Book"),
        ("E16", "E16", "Batch"),
    ] {
        check(
            &python,
            vector,
            Some(&schema(schema_name)),
            Root::Message(ty),
            &golden(vector),
        );
    }
    // E15 is two messages: a linked list (its first 30 bytes), then a formula whose
    // expression tree is a union holding itself. E15.wms is the formula's schema; the
    // list's is made here from the same type as tests/boxes.rs's.
    #[derive(wiremsg::WireMsg)]
    struct Node {
        value: i64,
        next: Option<Box<Node>>,
    }
    let e15 = golden("E15");
    let (list, formula) = e15.split_at(30);
    let node = Node {
        value: 1,
        next: Some(Box::new(Node {
            value: 2,
            next: None,
        })),
    };
    assert_eq!(wiremsg::WireMsg::to_bytes(&node).unwrap(), list);
    let dir = scratch("E15-schema");
    let node_schema = dir.join("node.wms");
    wiremsg::SchemaSet::of::<Node>()
        .unwrap()
        .write_file(&node_schema)
        .unwrap();
    check(
        &python,
        "E15a",
        Some(&node_schema),
        Root::Message("Node"),
        list,
    );
    check(
        &python,
        "E15b",
        Some(&schema("E15")),
        Root::Message("Formula"),
        formula,
    );
}

#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_older_bytes_through_the_newer_schema_and_the_reverse() {
    let python = python();
    for (case, vector, schema_name, ty) in [
        // New readers of old bytes: the later fields are absent.
        ("E7a-v3", "E7a", "E7", "Quote"),
        ("E7c-v2", "E7c", "E7", "Order"),
        ("E9a-v2", "E9a", "E9", "Alert"),
        // Old readers of new bytes: the fields they know, the rest ignored.
        ("E7b-v1", "E7b", "E7-v1", "Quote"),
        ("E7d-v1", "E7d", "E7-v1", "Order"),
        ("E9b-v1", "E9b", "E9-v1", "Alert"),
        ("E7a-v1", "E7a", "E7-v1", "Quote"),
    ] {
        check(
            &python,
            case,
            Some(&schema(schema_name)),
            Root::Message(ty),
            &golden(vector),
        );
    }
}

#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_a_header_and_frames() {
    let python = python();
    check(
        &python,
        "E8",
        Some(&schema("E8")),
        Root::Header,
        &golden("E8"),
    );
    // F1 has no schema frame: its type's schema file, made here (FORMAT.md §10).
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 3, schema_id = 7)]
    struct Text {
        body: String,
    }
    let dir = scratch("F1-schema");
    let text = dir.join("text.wms");
    wiremsg::SchemaSet::of::<Text>()
        .unwrap()
        .write_file(&text)
        .unwrap();
    check(&python, "F1", Some(&text), Root::Frames, &golden("F1"));
    // F2 describes itself: the `.ksy` comes from its schema frame, which Python reads
    // as the schema encoding (checked as such by the S1 case below).
    check(&python, "F2", None, Root::Frames, &golden("F2"));
    // S1, a schema file (a header and the schema encoding), read through the `.ksy` of
    // the schema of schemas: every name, offset and type row as `wiremsg json` reads it.
    let dir = scratch("schema-of-schemas");
    let canonical = dir.join("canonical.wms");
    wiremsg::dynamic::canonical_schema()
        .write_file(&canonical)
        .unwrap();
    check(&python, "S1", Some(&canonical), Root::Header, &golden("S1"));
}

#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_a_recorded_stream_as_wiremsg_does() {
    use wiremsg_examples::session::SessionConfig;
    let python = python();
    let dir = scratch("recording");
    let frames = dir.join("feed.frames");
    let session = SessionConfig {
        messages: 300,
        symbols: 20,
        seed: 11,
    };
    wiremsg_examples::market_data::record(session, &frames).unwrap();
    let bytes = std::fs::read(&frames).unwrap();
    // The `.ksy` from the stream's own schema frame, and from the schema file beside it.
    check(&python, "feed", None, Root::Frames, &bytes);
    check(
        &python,
        "feed-schema-file",
        Some(&dir.join("feed.frames.wms")),
        Root::Frames,
        &bytes,
    );
}

/// Every wire shape FORMAT.md specifies, in one message: each reads in Python as in
/// Rust.
mod shapes {
    use std::collections::{BTreeMap, HashMap};
    use wiremsg::{Decimal, FixedStr, WireEnum, WireMsg, WireUnion};

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    #[repr(u8)]
    pub(crate) enum Side {
        Buy = 0,
        Sell = 1,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[repr(u16)]
    pub(crate) enum Venue {
        Xnas = 1,
        Xnys = 2,
        #[wire(other)]
        Other(u16),
    }

    /// Values past 2^53, which the `.ksy` writes as strings to keep them exact.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u64)]
    pub(crate) enum Scale {
        Unit = 1,
        Huge = 1 << 60,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Px {
        pub(crate) m: i32,
        pub(crate) q: u16,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Tag {
        pub(crate) k: u8,
        pub(crate) v: String,
    }

    /// An enum and a message that only a map's entries hold.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    #[repr(u32)]
    pub(crate) enum Way {
        North = 7,
        South = 3,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Lot {
        pub(crate) n: u16,
        pub(crate) note: String,
    }

    /// A generic message (FORMAT.md §4.13): `Batch<Tag>` is the message `Batch_Tag`.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Batch<T: WireMsg> {
        pub(crate) seq: u64,
        pub(crate) items: Vec<T>,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u16)]
    pub(crate) enum Ev {
        Tick = 0,
        Quote(Px) = 1,
        Note {
            text: String,
            inner: Option<Px>,
        } = 2,
        #[wire(other)]
        Other {
            tag: u16,
            bytes: Vec<u8>,
        },
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 5, schema_id = 3, version = 2)]
    pub(crate) struct Everything {
        pub(crate) flag: bool,
        /// A raw identifier, a keyword of Rust and Go but not of Python.
        pub(crate) r#type: u8,
        pub(crate) big: i128,
        pub(crate) ubig: u128,
        pub(crate) ratio: f32,
        pub(crate) wide: f64,
        pub(crate) sym: FixedStr<6>,
        pub(crate) nul: FixedStr<4, 0>,
        pub(crate) side: Side,
        pub(crate) scale: Scale,
        pub(crate) venue: Venue,
        pub(crate) px: Decimal<i64, 2>,
        #[wire(null = 0)]
        pub(crate) qty: Option<u32>,
        #[wire(null = i32::MIN)]
        pub(crate) dpx: Option<Decimal<i32, 3>>,
        pub(crate) opt: Option<u16>,
        pub(crate) none: Option<Px>,
        pub(crate) arr: [i16; 3],
        pub(crate) grid: [[u8; 2]; 2],
        pub(crate) opts: [Option<u8>; 2],
        pub(crate) inner: Px,
        pub(crate) pair: (u8, (i16, u8)),
        #[wire(reserved)]
        pub(crate) old: u32,
        pub(crate) text: String,
        pub(crate) maybe: Option<String>,
        pub(crate) bytes: Vec<u8>,
        pub(crate) sides: Vec<Side>,
        pub(crate) bigs: Vec<u128>,
        pub(crate) syms: Vec<FixedStr<3>>,
        pub(crate) pxs: Vec<Px>,
        pub(crate) empty: Vec<Px>,
        pub(crate) tags: Vec<Tag>,
        #[wire(max_len = 3)]
        pub(crate) few: Vec<u32>,
        pub(crate) nested: Vec<Vec<Vec<u8>>>,
        pub(crate) words: Vec<Vec<String>>,
        pub(crate) evs: Vec<Ev>,
        pub(crate) ev: Ev,
        pub(crate) pairs: Vec<(u8, String)>,
        pub(crate) tagged: Tag,
        pub(crate) levels: BTreeMap<Side, Px>,
        pub(crate) venues: HashMap<Venue, u8>,
        pub(crate) labels: BTreeMap<FixedStr<3>, String>,
        pub(crate) signed: BTreeMap<i64, bool>,
        pub(crate) no_map: BTreeMap<u32, u32>,
        pub(crate) maybe_map: Option<BTreeMap<u8, u8>>,
        pub(crate) maps: Vec<BTreeMap<String, Vec<u16>>>,
        pub(crate) ways: BTreeMap<Way, Lot>,
        pub(crate) boxed: Box<Px>,
        pub(crate) boxed_tag: Option<Box<Tag>>,
        pub(crate) batch: Batch<Tag>,
        pub(crate) batches: Vec<Batch<Px>>,
        #[wire(since = 2)]
        pub(crate) later: u64,
        #[wire(since = 2)]
        pub(crate) later_text: String,
    }

    pub(crate) fn everything() -> Everything {
        Everything {
            flag: true,
            r#type: 42,
            big: -(1i128 << 100) - 7,
            ubig: u128::MAX - 1,
            ratio: 0.1,
            wide: -2.5e-300,
            sym: FixedStr::new("AB").unwrap(),
            nul: FixedStr::new("x").unwrap(),
            side: Side::Sell,
            scale: Scale::Huge,
            venue: Venue::Other(77),
            px: Decimal::from_mantissa(-5),
            qty: None,
            dpx: Some(Decimal::from_mantissa(1234)),
            opt: Some(9),
            none: None,
            arr: [-1, 0, 1],
            grid: [[1, 2], [3, 4]],
            opts: [None, Some(8)],
            inner: Px { m: -3, q: 4 },
            pair: (1, (-2, 3)),
            old: 0,
            text: "héllo".into(),
            maybe: Some("there".into()),
            bytes: vec![0, 255, 7],
            sides: vec![Side::Buy, Side::Sell],
            bigs: vec![1, 1 << 70],
            syms: vec![FixedStr::new("A").unwrap(), FixedStr::new("BCD").unwrap()],
            pxs: vec![Px { m: 1, q: 2 }, Px { m: -1, q: 65535 }],
            empty: vec![],
            tags: vec![
                Tag {
                    k: 1,
                    v: "a".into(),
                },
                Tag {
                    k: 2,
                    v: String::new(),
                },
            ],
            few: vec![10, 20],
            nested: vec![vec![vec![1, 2], vec![]], vec![], vec![vec![3]]],
            words: vec![vec!["x".into(), "yz".into()], vec![]],
            evs: vec![
                Ev::Tick,
                Ev::Quote(Px { m: 5, q: 6 }),
                Ev::Note {
                    text: "n".into(),
                    inner: Some(Px { m: 7, q: 8 }),
                },
                Ev::Other {
                    tag: 300,
                    bytes: vec![0xaa],
                },
            ],
            ev: Ev::Note {
                text: String::new(),
                inner: None,
            },
            pairs: vec![(1, "one".into()), (2, "two".into())],
            tagged: Tag {
                k: 9,
                v: "nine".into(),
            },
            levels: BTreeMap::from([
                (Side::Sell, Px { m: 2, q: 3 }),
                (Side::Buy, Px { m: -1, q: 0 }),
            ]),
            venues: HashMap::from([(Venue::Other(77), 1), (Venue::Xnys, 2), (Venue::Xnas, 3)]),
            labels: BTreeMap::from([
                (FixedStr::new("b").unwrap(), "bee".into()),
                (FixedStr::new("AB").unwrap(), String::new()),
            ]),
            signed: BTreeMap::from([(-5, true), (i64::MIN, false), (9, true)]),
            no_map: BTreeMap::new(),
            maybe_map: Some(BTreeMap::from([(2, 20), (1, 10)])),
            maps: vec![
                BTreeMap::from([("x".into(), vec![1, 2]), ("".into(), vec![])]),
                BTreeMap::new(),
            ],
            ways: BTreeMap::from([
                (
                    Way::South,
                    Lot {
                        n: 3,
                        note: "s".into(),
                    },
                ),
                (
                    Way::North,
                    Lot {
                        n: 1,
                        note: String::new(),
                    },
                ),
            ]),
            boxed: Box::new(Px { m: 11, q: 12 }),
            boxed_tag: Some(Box::new(Tag {
                k: 13,
                v: "boxed".into(),
            })),
            batch: Batch {
                seq: 14,
                items: vec![Tag {
                    k: 15,
                    v: "batched".into(),
                }],
            },
            batches: vec![
                Batch {
                    seq: 16,
                    items: vec![Px { m: 17, q: 18 }],
                },
                Batch {
                    seq: 19,
                    items: vec![],
                },
            ],
            later: u64::MAX,
            later_text: "v2".into(),
        }
    }

    /// A recursive message: the `.ksy`'s top-level type is its own element type.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Tree {
        pub(crate) v: u8,
        pub(crate) kids: Vec<Tree>,
        pub(crate) tags: Vec<Tag>,
    }

    pub(crate) fn tree() -> Tree {
        let leaf = |v| Tree {
            v,
            kids: vec![],
            tags: vec![],
        };
        Tree {
            v: 1,
            kids: vec![
                Tree {
                    v: 2,
                    kids: vec![leaf(3), leaf(4)],
                    tags: vec![Tag {
                        k: 5,
                        v: "deep".into(),
                    }],
                },
                leaf(6),
            ],
            tags: vec![],
        }
    }

    /// Version 1 of a message that gains an option, a list and a union in version 2,
    /// and of the list elements it holds, which gain a field each (a strided list's
    /// and a split list's).
    pub(crate) mod v1 {
        use wiremsg::WireMsg;

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        pub(crate) struct Leg {
            pub(crate) qty: u32,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        pub(crate) struct Memo {
            pub(crate) text: String,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(template_id = 6, schema_id = 3)]
        pub(crate) struct Evolve {
            pub(crate) id: u32,
            pub(crate) note: String,
            pub(crate) legs: Vec<Leg>,
            pub(crate) memos: Vec<Memo>,
        }
    }

    /// Version 2 of [`v1::Evolve`] and its elements.
    pub(crate) mod v2 {
        use super::Ev;
        use wiremsg::WireMsg;

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Leg {
            pub(crate) qty: u32,
            #[wire(since = 2)]
            pub(crate) px: i64,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Memo {
            pub(crate) text: String,
            #[wire(since = 2)]
            pub(crate) n: u16,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(template_id = 6, schema_id = 3, version = 2)]
        pub(crate) struct Evolve {
            pub(crate) id: u32,
            pub(crate) note: String,
            pub(crate) legs: Vec<Leg>,
            pub(crate) memos: Vec<Memo>,
            #[wire(since = 2)]
            pub(crate) level: Option<u16>,
            #[wire(since = 2)]
            pub(crate) names: Vec<String>,
            #[wire(since = 2)]
            pub(crate) ev: Ev,
        }
    }
}

#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_every_wire_shape_as_wiremsg_does() {
    use shapes::{v1, v2};
    use wiremsg::{FrameWriter, SchemaSet, WireMsg};
    let python = python();
    let dir = scratch("shapes-files");
    let value = shapes::everything();
    let everything = dir.join("everything.wms");
    SchemaSet::of::<shapes::Everything>()
        .unwrap()
        .write_file(&everything)
        .unwrap();
    check(
        &python,
        "every-shape",
        Some(&everything),
        Root::Message("Everything"),
        &value.to_bytes().unwrap(),
    );

    let tree = dir.join("tree.wms");
    SchemaSet::of::<shapes::Tree>()
        .unwrap()
        .write_file(&tree)
        .unwrap();
    check(
        &python,
        "recursive",
        Some(&tree),
        Root::Message("Tree"),
        &shapes::tree().to_bytes().unwrap(),
    );

    // A stream of both versions of `Evolve`, each described before its first message;
    // the `.ksy` takes the latest description, which reads the version 1 frames too.
    let old = v1::Evolve {
        id: 1,
        note: "old".into(),
        legs: vec![v1::Leg { qty: 5 }, v1::Leg { qty: 6 }],
        memos: vec![v1::Memo { text: "m".into() }],
    };
    let new = v2::Evolve {
        id: 2,
        note: "new".into(),
        legs: vec![v2::Leg { qty: 7, px: -8 }],
        memos: vec![
            v2::Memo {
                text: "p".into(),
                n: 9,
            },
            v2::Memo {
                text: String::new(),
                n: 10,
            },
        ],
        level: Some(3),
        names: vec!["a".into(), "b".into()],
        ev: shapes::Ev::Quote(shapes::Px { m: 1, q: 1 }),
    };
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&value).unwrap();
    writer.write(&old).unwrap();
    writer.write(&old).unwrap();
    writer
        .write_schema(&SchemaSet::of::<v2::Evolve>().unwrap())
        .unwrap();
    writer.write(&new).unwrap();
    writer.write(&value).unwrap();
    let stream = writer.into_inner();
    check(&python, "versions-stream", None, Root::Frames, &stream);

    // The version 1 bytes through the version 2 schema, and the reverse.
    let (v1_schema, v2_schema) = (dir.join("evolve-v1.wms"), dir.join("evolve-v2.wms"));
    SchemaSet::of::<v1::Evolve>()
        .unwrap()
        .write_file(&v1_schema)
        .unwrap();
    SchemaSet::of::<v2::Evolve>()
        .unwrap()
        .write_file(&v2_schema)
        .unwrap();
    let (old, new) = (old.to_bytes().unwrap(), new.to_bytes().unwrap());
    check(
        &python,
        "evolve-v1-through-v2",
        Some(&v2_schema),
        Root::Message("Evolve"),
        &old,
    );
    check(
        &python,
        "evolve-v2-through-v1",
        Some(&v1_schema),
        Root::Message("Evolve"),
        &new,
    );
}

/// The compiler takes the `.ksy` of every wire shape, of a dense list, of a header and
/// of frames for the other languages too (compiled, not run: this machine runs Python).
#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn the_ksy_compiles_for_other_languages() {
    use wiremsg::SchemaSet;
    python();
    let dir = scratch("languages");
    let schema = dir.join("everything.wms");
    let mut set = SchemaSet::of::<shapes::Everything>().unwrap();
    set.add::<shapes::v2::Evolve>().unwrap();
    // A dense list (FORMAT.md §6.8), whose elements read their table through
    // `_parent`.
    set.add::<dense::Batch>().unwrap();
    set.write_file(&schema).unwrap();
    let mut files = Vec::new();
    for (name, flags) in [
        ("everything", &["-t", "Everything"][..]),
        ("dense", &["-t", "Batch"][..]),
        ("header", &["--header"][..]),
        ("frames", &["--frames"][..]),
    ] {
        let ksy = dir.join(format!("{name}.ksy"));
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> =
            vec![&"export", &"--ksy", &schema, &"-o", &ksy];
        args.extend(flags.iter().map(|a| a as &dyn AsRef<std::ffi::OsStr>));
        wiremsg(&args);
        files.push(ksy);
    }
    for language in ["java", "cpp_stl", "csharp", "go", "javascript"] {
        run(Command::new("node")
            .arg(kaitai_dir().join("compile.js"))
            .args(["-t", language])
            .arg(dir.join(language))
            .args(&files));
        let generated = std::fs::read_dir(dir.join(language)).unwrap().count();
        assert!(generated > 0, "{language}: nothing generated");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bytes that wiremsg refuses, the generated parser refuses too (`valid:` on bool,
/// presence, enum and block length (a message's, a split list element's), stride
/// bytes; the end of the bytes; bad UTF-8).
#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_refuses_what_wiremsg_refuses() {
    let python = python();
    // The byte at an offset set to a value, or (`None`) the bytes cut there.
    for (case, vector, ty, at, byte) in [
        ("bool", "E5", "Fill", 15, Some(0x02)),
        ("presence", "E5", "Fill", 0, Some(0x02)),
        ("enum", "E2", "Tick", 48, Some(0x05)),
        ("block-length", "E4", "Book", 0, Some(0x10)),
        ("stride", "E4", "Book", 24, Some(0x03)),
        // A split list's element 0 (E14's `names`, at 24): its block length, after its
        // u32 tail start, below the entry's block.
        ("split-block-length", "E14", "Book", 28, Some(0x03)),
        ("utf8", "E3", "LoginRequest", 15, Some(0xff)),
        ("cut", "E6", "Sample", 60, None),
    ] {
        let dir = scratch(&format!("refused-{case}"));
        let mut bytes = golden(vector);
        match byte {
            Some(byte) => bytes[at] = byte,
            None => bytes.truncate(at),
        }
        let bin = dir.join("input.bin");
        std::fs::write(&bin, &bytes).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_wiremsg"))
            .args(["json", "-t", ty, "-s"])
            .arg(schema(vector))
            .arg(&bin)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{case}: wiremsg read it: {stderr}"
        );
        eprintln!("{case}: wiremsg: {}", stderr.trim());
        python_refuses(&python, case, &dir, &schema(vector), ty, &bin);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The Python that Kaitai's compiler makes of the `.ksy` of `schema` (a schema file)
/// refuses the message of type `ty` in file `bin` (`check.py --invalid`), in `dir`.
fn python_refuses(python: &Path, case: &str, dir: &Path, schema: &Path, ty: &str, bin: &Path) {
    let ksy = dir.join(format!("{case}.ksy"));
    wiremsg(&[&"export", &"--ksy", &schema, &"-t", &ty, &"-o", &ksy]);
    let schema_json = dir.join("schema.json");
    std::fs::write(&schema_json, wiremsg(&[&"schema", &"--json", &schema])).unwrap();
    let py = dir.join("py");
    run(Command::new("node")
        .arg(kaitai_dir().join("compile.js"))
        .arg(&py)
        .arg(&ksy));
    let out = run(Command::new(python)
        .arg(kaitai_dir().join("check.py"))
        .arg("--invalid")
        .arg(&schema_json)
        .arg(&py)
        .arg(format!("message:{ty}"))
        .arg(bin));
    eprintln!("{case}: {}", String::from_utf8_lossy(&out).trim());
}

/// E16's types (FORMAT.md §6.8: a dense list of a fixed-size union), and the union
/// at two other versions: an older reader's without `Cancel`, and a newer writer's
/// whose `Fill` has a field more and which has a variant more.
mod dense {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Fill {
        pub(crate) qty: u32,
        pub(crate) px: i64,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
        Cancel { id: u16 } = 5,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<Event>,
    }

    pub(crate) mod older {
        use super::Fill;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion, Debug, Clone, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        pub(crate) struct Batch {
            pub(crate) seq: u32,
            pub(crate) events: Vec<Event>,
        }
    }

    pub(crate) mod newer {
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
            pub(crate) px: i64,
            #[wire(since = 2)]
            pub(crate) venue: u16,
        }

        #[derive(WireUnion, Debug, Clone, PartialEq)]
        #[repr(u8)]
        #[wire(version = 2)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
            Cancel {
                id: u16,
            } = 5,
            #[wire(since = 2)]
            Halt = 7,
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        pub(crate) struct Batch {
            pub(crate) seq: u32,
            pub(crate) events: Vec<Event>,
        }
    }
}

/// A dense list (FORMAT.md §6.8) reads in Python with the values FORMAT.md gives
/// E16, and across versions of its union and payload as wiremsg reads it; its schema
/// is made here from E16's types, and the values are compared with the typed views'
/// (the schema-driven `wiremsg json` is checked on E16 by the golden vectors' test).
#[test]
#[ignore = "needs node, Kaitai's compiler and Python's kaitaistruct: cli/tests/kaitai/run.sh"]
fn python_reads_a_dense_list_as_the_typed_views_do() {
    use dense::{Batch, Event, Fill, newer, older};
    use wiremsg::{SchemaSet, WireMsg};
    let python = python();
    let dir = scratch("dense-schemas");
    let write = |name: &str, set: SchemaSet| {
        let path = dir.join(format!("{name}.wms"));
        set.write_file(&path).unwrap();
        path
    };
    let current = write("e16", SchemaSet::of::<Batch>().unwrap());
    let old = write("older", SchemaSet::of::<older::Batch>().unwrap());
    let new = write("newer", SchemaSet::of::<newer::Batch>().unwrap());

    let e16 = golden("E16");
    let value = Batch {
        seq: 1,
        events: vec![
            Event::Fill(Fill { qty: 3, px: 100 }),
            Event::Heartbeat,
            Event::Cancel { id: 9 },
        ],
    };
    assert_eq!(value.to_bytes().unwrap(), e16);
    assert_eq!(Batch::decode(&e16).unwrap(), value);
    check_against(
        &python,
        "E16-values",
        Some(&current),
        Root::Message("Batch"),
        &e16,
        Some(r#"{"seq":1,"events":[{"Fill":{"qty":3,"px":100}},"Heartbeat",{"Cancel":{"id":9}}]}"#),
    );

    // A newer writer's table has variants the older reader lacks, which its elements
    // do not use, and a longer `Fill` block, whose extra bytes the reader ignores.
    let newer_bytes = newer::Batch {
        seq: 2,
        events: vec![
            newer::Event::Fill(newer::Fill {
                qty: 1,
                px: -1,
                venue: 7,
            }),
            newer::Event::Heartbeat,
        ],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        older::Batch::decode(&newer_bytes).unwrap(),
        older::Batch {
            seq: 2,
            events: vec![
                older::Event::Fill(Fill { qty: 1, px: -1 }),
                older::Event::Heartbeat
            ],
        }
    );
    check_against(
        &python,
        "dense-newer-through-older",
        Some(&old),
        Root::Message("Batch"),
        &newer_bytes,
        Some(r#"{"seq":2,"events":[{"Fill":{"qty":1,"px":-1}},"Heartbeat"]}"#),
    );

    // An older writer's `Fill` block ends before the newer reader's `venue`: absent.
    let older_bytes = older::Batch {
        seq: 3,
        events: vec![older::Event::Fill(Fill { qty: 4, px: 5 })],
    }
    .to_bytes()
    .unwrap();
    let view = newer::Batch::view(&older_bytes).unwrap();
    let first = view.events().iter().next().unwrap();
    assert!(matches!(first, newer::EventView::Fill(f) if f.try_venue().is_none()));
    check_against(
        &python,
        "dense-older-through-newer",
        Some(&new),
        Root::Message("Batch"),
        &older_bytes,
        Some(r#"{"seq":3,"events":[{"Fill":{"qty":4,"px":5}}]}"#),
    );

    // Bytes the typed view refuses, Python refuses too: E16 with one byte changed.
    for (case, at, byte) in [
        // Element 0's entry index 3, of 3 entries (`VariantEntryOutOfRange`).
        ("dense-index", 23, 0x03),
        // Entry 2's tag 6, of no variant, which element 2 uses (`UnknownVariant`).
        ("dense-tag", 20, 0x06),
        // Entry 1's block length 13: with the index, past the stride of 13
        // (`StrideTooSmall`).
        ("dense-block-length", 18, 0x0d),
        // A stride of 0, which has no room for the index (`StrideTooSmall`).
        ("dense-stride", 10, 0x00),
        // 17 entries: the table runs past the list (`Truncated`).
        ("dense-entries", 12, 0x11),
    ] {
        let mut bytes = e16.clone();
        bytes[at] = byte;
        let err = Batch::view(&bytes).expect_err(case);
        eprintln!("{case}: wiremsg: {err}");
        let case_dir = scratch(&format!("refused-{case}"));
        let bin = case_dir.join("input.bin");
        std::fs::write(&bin, &bytes).unwrap();
        python_refuses(&python, case, &case_dir, &current, "Batch", &bin);
    }
}
