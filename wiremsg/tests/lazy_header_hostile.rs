//! A hostile trial of the on-demand views behind a message header (FORMAT.md §8):
//! `Template::view_lazy_with_header` and a dispatch enum's `view_lazy`, against
//! `view_with_header` and the dispatch enum's `view`.
//!
//! The claim attacked: for any bytes, the header is checked as `view_with_header`
//! checks it; every field read on demand gives the value of `view_with_header`'s
//! view, or, where that refuses the frame for a region on the field's path, its error
//! (kind, offset from the header's start, path); reading every field in field order
//! fails exactly when `view_with_header` fails, with its error; `to_view()` of the
//! lazy root is `view_with_header`'s view or its error; `Debug` never panics.
//!
//! Attacked with: a message with a tail holding every kind of field (text, options of
//! scalars, text and messages, an inline nested message with a tail, a fixed-size
//! nested message, split lists of messages, packed and table lists, lists of lists,
//! tuples, unions with a catch-all and lists of them, maps), a fixed-size message,
//! and a message of another schema under the same template id, each at writer
//! versions 1, 2 and 3 read by a version-2 reader (and a version-1 reader of the
//! newer writers); every byte changed to nine values, truncation at every length,
//! bytes appended, random multi-byte changes; every header field rewritten (block
//! length 0..=1024 and large values, versions 0..4 and `u16::MAX`, template and
//! schema ids of other types); a dispatch enum with three variants, two sharing a
//! template id under different schema ids; recursive messages nested by hand around
//! `MAX_DEPTH`, as the root and inline in another message, broken at their
//! deepest level; `to_view()` of the root and of nested views; `Debug` of every
//! view over every broken frame; the views' `Send`/`Sync` and `Option` size after
//! the niche-free pointers of their proofs.
//!
//! Also: each field read alone on a fresh view (the fields before the one the view
//! refuses read; that one fails with the view's error), and again after the later
//! fields were read; a reader that skips a field is caught by the comparison (so a
//! disagreement would show).
//!
//! Found: no disagreement and no panic. Every frame above, header changes
//! included, gave the same header error, the same values, the same first error
//! (kind, offset from the header's start, path) and the same `to_view()` as
//! `view_with_header` / the dispatch enum's `view`, for the type's reader, the
//! version-1 reader and both dispatch enums. `Debug` of lazy views at the depth
//! limit fits a 2 MiB stack. A framed lazy view cannot outlive its bytes (a view
//! of a temporary frame is E0716). The niche-free proofs change no auto trait
//! (`Send`, `Sync`, `UnwindSafe`, `Unpin` of the views as before; a mutable view
//! `Send + Sync`), views still compare by value across buffers and print, and an
//! `Option` of a view is one word larger; only this crate makes a proof, from a
//! slice (`NonNull::from`), so safe code gets no null pointer.

#[path = "common/handmade.rs"]
mod handmade;

#[path = "common/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

use std::collections::BTreeMap;
use wiremsg::{Error, MAX_DEPTH, MessageHeader, Template, WireDispatch, WireMsg, WireUnion};

/// What an error reports: kind, offset and path.
fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

// ---------------------------------------------------------------------------------
// Types.
// ---------------------------------------------------------------------------------

#[derive(WireMsg, Debug, Clone, PartialEq, Default)]
pub(crate) struct Level {
    px: i64,
    qty: u32,
    live: bool,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Leg {
    venue: String,
    qty: u32,
    flags: Vec<bool>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Inner {
    id: u32,
    note: String,
    levels: Vec<Level>,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
pub(crate) enum Instr {
    Market = 0,
    Limit(Level) = 1,
    Peg {
        offset: i32,
        venue: String,
    } = 2,
    Routed(Leg) = 3,
    #[wire(other)]
    Other {
        tag: u8,
        bytes: Vec<u8>,
    },
}

fn read_level(l: LevelLazy<'_>) -> Result<Level, Error> {
    Ok(Level {
        px: l.px()?,
        qty: l.qty()?,
        live: l.live()?,
    })
}

fn read_leg(l: LegLazy<'_>) -> Result<Leg, Error> {
    Ok(Leg {
        venue: l.venue()?.into(),
        qty: l.qty()?,
        flags: l.flags()?.iter().collect::<Result<_, _>>()?,
    })
}

fn read_inner(i: InnerLazy<'_>) -> Result<Inner, Error> {
    Ok(Inner {
        id: i.id()?,
        note: i.note()?.into(),
        levels: i
            .levels()?
            .iter()
            .map(|l| read_level(l?))
            .collect::<Result<_, _>>()?,
    })
}

fn read_instr(i: InstrLazy<'_>) -> Result<Instr, Error> {
    Ok(match i {
        InstrLazy::Market => Instr::Market,
        InstrLazy::Limit(l) => Instr::Limit(read_level(l)?),
        InstrLazy::Peg(p) => Instr::Peg {
            offset: p.offset()?,
            venue: p.venue()?.into(),
        },
        InstrLazy::Routed(l) => Instr::Routed(read_leg(l)?),
        InstrLazy::Other { tag, bytes } => Instr::Other {
            tag,
            bytes: bytes.to_vec(),
        },
    })
}

/// Reads every field of a `Big` of any version on demand, in field order (a struct
/// expression evaluates its fields in the order written), then the extra fields.
macro_rules! read_big {
    ($b:expr, $Big:ident { $($extra:ident: $read:expr),* $(,)? }) => {{
        let b = &$b;
        $Big {
            id: b.id()?,
            note: b.note()?.into(),
            maybe: b.maybe()?,
            tag: b.tag()?.map(Into::into),
            inner: match b.inner()? {
                Some(i) => Some(read_inner(i)?),
                None => None,
            },
            nested: read_inner(b.nested()?)?,
            top: read_level(b.top()?)?,
            legs: b
                .legs()?
                .iter()
                .map(|l| read_leg(l?))
                .collect::<Result<_, _>>()?,
            words: b
                .words()?
                .iter()
                .map(|w| w.map(String::from))
                .collect::<Result<_, _>>()?,
            grid: b
                .grid()?
                .iter()
                .map(|row| row?.iter().collect::<Result<Vec<u16>, _>>())
                .collect::<Result<_, _>>()?,
            pairs: b
                .pairs()?
                .iter()
                .map(|p| p.map(|(n, s)| (n, s.to_string())))
                .collect::<Result<_, _>>()?,
            instr: read_instr(b.instr()?)?,
            instrs: b
                .instrs()?
                .iter()
                .map(|i| read_instr(i?))
                .collect::<Result<_, _>>()?,
            limits: b
                .limits()?
                .iter()
                .map(|e| e.map(|(k, v)| (k.to_string(), v)))
                .collect::<Result<_, _>>()?,
            by_px: b.by_px()?.iter().collect::<Result<_, _>>()?,
            $($extra: $read,)*
        }
    }};
}

/// The message with a tail, at version `$version`, with `$extra` fields after the
/// common ones; and the fixed-size `Tick` at the same version.
macro_rules! big {
    ($version:literal; { $($extra:tt)* } { $($tick:tt)* }) => {
        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(template_id = 10, schema_id = 3, version = $version)]
        pub(crate) struct Big {
            pub(crate) id: u64,
            pub(crate) note: String,
            pub(crate) maybe: Option<u32>,
            pub(crate) tag: Option<String>,
            pub(crate) inner: Option<Inner>,
            pub(crate) nested: Inner,
            pub(crate) top: Level,
            pub(crate) legs: Vec<Leg>,
            pub(crate) words: Vec<String>,
            pub(crate) grid: Vec<Vec<u16>>,
            pub(crate) pairs: Vec<(u8, String)>,
            pub(crate) instr: Instr,
            pub(crate) instrs: Vec<Instr>,
            pub(crate) limits: BTreeMap<String, u32>,
            pub(crate) by_px: BTreeMap<i64, u32>,
            $($extra)*
        }

        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(template_id = 11, schema_id = 3, version = $version)]
        pub(crate) struct Tick {
            pub(crate) px: i64,
            pub(crate) qty: u32,
            $($tick)*
        }
    };
}

pub(crate) mod v1 {
    use super::*;
    big!(1; {} {});

    pub(crate) fn read(b: BigLazy<'_>) -> Result<Big, Error> {
        Ok(read_big!(b, Big {}))
    }

    pub(crate) fn read_tick(t: TickLazy<'_>) -> Result<Tick, Error> {
        Ok(Tick {
            px: t.px()?,
            qty: t.qty()?,
        })
    }
}

big!(2; {
    #[wire(since = 2)]
    pub(crate) extra: u32,
    #[wire(since = 2)]
    pub(crate) more: Vec<Leg>,
} {
    #[wire(since = 2)]
    pub(crate) live: bool,
    #[wire(since = 2)]
    pub(crate) level: Level,
});

fn read(b: BigLazy<'_>) -> Result<Big, Error> {
    Ok(read_big!(
        b,
        Big {
            extra: b.extra()?,
            more: match b.try_more()? {
                Some(more) => more
                    .iter()
                    .map(|l| read_leg(l?))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
        }
    ))
}

fn read_tick(t: TickLazy<'_>) -> Result<Tick, Error> {
    Ok(Tick {
        px: t.px()?,
        qty: t.qty()?,
        live: t.live()?,
        level: match t.try_level()? {
            Some(l) => read_level(l)?,
            None => Level::default(),
        },
    })
}

pub(crate) mod v3 {
    use super::*;
    big!(3; {
        #[wire(since = 2)]
        pub(crate) extra: u32,
        #[wire(since = 2)]
        pub(crate) more: Vec<Leg>,
        #[wire(since = 3)]
        pub(crate) late: u64,
        #[wire(since = 3)]
        pub(crate) later: Option<String>,
    } {
        #[wire(since = 2)]
        pub(crate) live: bool,
        #[wire(since = 2)]
        pub(crate) level: Level,
        #[wire(since = 3)]
        pub(crate) seq: u16,
    });
}

/// Another schema's message under `Big`'s template id.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 10, schema_id = 4)]
struct Alt {
    a: u32,
    s: String,
}

fn read_alt(a: AltLazy<'_>) -> Result<Alt, Error> {
    Ok(Alt {
        a: a.a()?,
        s: a.s()?.into(),
    })
}

#[derive(WireDispatch, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
enum Feed {
    Big(Big),
    Tick(Tick),
    Alt(Alt),
}

fn read_feed(bytes: &[u8]) -> Result<Feed, Error> {
    Ok(match Feed::view_lazy(bytes)?.1 {
        FeedLazy::Big(b) => Feed::Big(read(b)?),
        FeedLazy::Tick(t) => Feed::Tick(read_tick(t)?),
        FeedLazy::Alt(a) => Feed::Alt(read_alt(a)?),
    })
}

// ---------------------------------------------------------------------------------
// Values and frames.
// ---------------------------------------------------------------------------------

fn leg(venue: &str, qty: u32, flags: &[bool]) -> Leg {
    Leg {
        venue: venue.into(),
        qty,
        flags: flags.to_vec(),
    }
}

fn inner(id: u32, note: &str) -> Inner {
    Inner {
        id,
        note: note.into(),
        levels: vec![
            Level {
                px: -5,
                qty: 1,
                live: true,
            },
            Level {
                px: 7,
                qty: 2,
                live: false,
            },
        ],
    }
}

/// The common fields of every version's `Big`, as a macro so that each module's
/// struct expression takes them.
macro_rules! big_value {
    ($Big:ident { $($extra:ident: $value:expr),* $(,)? }) => {
        $Big {
            id: 0x0102_0304_0506_0708,
            note: "nöte".into(),
            maybe: Some(0x1122_3344),
            tag: Some("t".into()),
            inner: Some(inner(4, "in")),
            nested: inner(5, "nest"),
            top: Level {
                px: 100,
                qty: 3,
                live: true,
            },
            legs: vec![
                leg("XNAS", 5, &[true]),
                leg("", 6, &[]),
                leg("BATS", 7, &[false, true]),
            ],
            words: vec!["a".into(), "".into(), "ccc".into()],
            grid: vec![vec![1, 2], vec![], vec![3]],
            pairs: vec![(1, "one".into()), (2, "".into())],
            instr: Instr::Peg {
                offset: -2,
                venue: "IEX".into(),
            },
            instrs: vec![
                Instr::Market,
                Instr::Limit(Level {
                    px: 9,
                    qty: 9,
                    live: false,
                }),
                Instr::Routed(leg("ARCX", 1, &[true, true])),
                Instr::Other {
                    tag: 77,
                    bytes: vec![1, 2, 3],
                },
            ],
            limits: BTreeMap::from([("x".to_string(), 1), ("yy".to_string(), 2)]),
            by_px: BTreeMap::from([(-3, 1), (100, 2)]),
            $($extra: $value,)*
        }
    };
}

fn big() -> Big {
    big_value!(Big {
        extra: 77,
        more: vec![leg("MORE", 8, &[true])],
    })
}

fn big_v1() -> v1::Big {
    use v1::Big;
    big_value!(Big {})
}

fn big_v3() -> v3::Big {
    use v3::Big;
    big_value!(Big {
        extra: 78,
        more: vec![leg("M3", 9, &[false])],
        late: 0xDEAD_BEEF,
        later: Some("later".into()),
    })
}

fn tick() -> Tick {
    Tick {
        px: -1,
        qty: 2,
        live: true,
        level: Level {
            px: 3,
            qty: 4,
            live: true,
        },
    }
}

fn framed<T: Template>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    value.encode_with_header(&mut bytes).unwrap();
    bytes
}

/// Every frame attacked, each with what it is for messages.
fn frames() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("big v2", framed(&big())),
        ("big v1", framed(&big_v1())),
        ("big v3", framed(&big_v3())),
        ("tick v2", framed(&tick())),
        ("tick v1", framed(&v1::Tick { px: 5, qty: 6 })),
        (
            "tick v3",
            framed(&v3::Tick {
                px: 7,
                qty: 8,
                live: false,
                level: Level {
                    px: 1,
                    qty: 1,
                    live: true,
                },
                seq: 0xABCD,
            }),
        ),
        (
            "alt",
            framed(&Alt {
                a: 1,
                s: "alt".into(),
            }),
        ),
    ]
}

// ---------------------------------------------------------------------------------
// The comparison.
// ---------------------------------------------------------------------------------

/// Whether a frame was read (`true`) or refused (`false`) by both.
type Agreed = Result<bool, String>;

/// `$T::view_lazy_with_header` then every field read by `$read` in field order,
/// against `$T::view_with_header` over `$bytes`: the same header or header error, the
/// same value (`$T::decode` of the message's bytes: the rest of the frame for a
/// message with a tail, else the block the header announces) or error, `to_view()` the same
/// view or error, and `Debug` of the lazy view not panicking.
macro_rules! agree {
    ($T:ty, $read:expr, $bytes:expr, tail: $tail:expr) => {{
        let bytes: &[u8] = $bytes;
        let view = <$T>::view_with_header(bytes);
        match (<$T>::view_lazy_with_header(bytes), view) {
            (Err(got), Err(expected)) => {
                if parts(&got) == parts(&expected) {
                    Ok(false)
                } else {
                    Err(format!(
                        "header: on demand {:?}, view {:?}",
                        parts(&got),
                        parts(&expected)
                    ))
                }
            }
            (Ok((header, lazy)), view) => {
                // Debug of a lazy view over any bytes reads every field: no panic.
                let _ = format!("{lazy:?}");
                let read = $read(lazy.clone());
                let to_view = lazy.to_view();
                match view {
                    Ok((h, view)) => {
                        let len = MessageHeader::LEN;
                        let body = if $tail {
                            &bytes[len..]
                        } else {
                            &bytes[len..len + usize::from(h.block_length)]
                        };
                        let decoded = <$T>::decode(body).map_err(|e| parts(&e));
                        let read = read.map_err(|e| parts(&e));
                        if h != header {
                            Err(format!("headers {header:?} and {h:?}"))
                        } else if read != decoded {
                            Err(format!("on demand {read:?}, decoded {decoded:?}"))
                        } else if to_view.as_ref().ok() != Some(&view) {
                            Err(format!(
                                "to_view {:?}, view {view:?}",
                                to_view.map_err(|e| parts(&e))
                            ))
                        } else {
                            Ok(true)
                        }
                    }
                    Err(expected) => {
                        let expected = parts(&expected);
                        match (read, to_view) {
                            (Err(r), Err(t)) if parts(&r) == expected && parts(&t) == expected => {
                                Ok(false)
                            }
                            (read, to_view) => Err(format!(
                                "view {expected:?}, on demand {:?}, to_view {:?}",
                                read.map(|_| ()).map_err(|e| parts(&e)),
                                to_view.map(|_| ()).map_err(|e| parts(&e))
                            )),
                        }
                    }
                }
            }
            (Err(got), Ok(_)) => Err(format!(
                "on demand refused the header ({:?}), view read the frame",
                parts(&got)
            )),
        }
    }};
}

/// `Feed::view_lazy` and every field, against `Feed::view` and `Feed::decode`.
fn agree_feed(bytes: &[u8]) -> Agreed {
    match (Feed::view(bytes), read_feed(bytes)) {
        (Ok((h, view)), Ok(lazy)) => {
            let decoded = Feed::decode(bytes).map_err(|e| parts(&e));
            let (header, l) = Feed::view_lazy(bytes).unwrap();
            let _ = format!("{l:?}");
            let to_view = match l {
                FeedLazy::Big(b) => b.to_view().map(FeedView::Big),
                FeedLazy::Tick(t) => t.to_view().map(FeedView::Tick),
                FeedLazy::Alt(a) => a.to_view().map(FeedView::Alt),
            };
            if decoded.as_ref() != Ok(&lazy) || h != header || to_view.ok() != Some(view) {
                return Err(format!("on demand {lazy:?}, decoded {decoded:?}"));
            }
            Ok(true)
        }
        (Err(expected), Err(got)) => {
            if let Ok((_, l)) = Feed::view_lazy(bytes) {
                let _ = format!("{l:?}");
            }
            if parts(&got) == parts(&expected) {
                Ok(false)
            } else {
                Err(format!(
                    "dispatch: on demand {:?}, view {:?}",
                    parts(&got),
                    parts(&expected)
                ))
            }
        }
        (view, lazy) => Err(format!(
            "dispatch: view {:?}, on demand {:?}",
            view.map(|_| ()).map_err(|e| parts(&e)),
            lazy.map(|_| ()).map_err(|e| parts(&e))
        )),
    }
}

/// Every reader of this file over `bytes`: each type's, the version-1 reader's and
/// the dispatch enum's. Returns how many read the frame.
fn agree_all(bytes: &[u8]) -> Result<usize, String> {
    let results = [
        agree!(Big, read, bytes, tail: true),
        agree!(v1::Big, v1::read, bytes, tail: true),
        agree!(Tick, read_tick, bytes, tail: false),
        agree!(v1::Tick, v1::read_tick, bytes, tail: false),
        agree!(Alt, read_alt, bytes, tail: true),
        agree_feed(bytes),
    ];
    let mut read = 0;
    for (reader, result) in results.into_iter().enumerate() {
        if result.map_err(|e| format!("reader {reader}: {e}"))? {
            read += 1;
        }
    }
    Ok(read)
}

// ---------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------

/// Every frame reads whole, on demand, as the view and the decoder read it, with
/// the writer's version's fields; the older reader reads the newer frames.
#[test]
fn valid_frames_of_every_version_read_on_demand_as_the_view_reads_them() {
    for (name, bytes) in frames() {
        let read = agree_all(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Each frame is read by its type at the reader's version and at version 1
        // (two readers for Big and Tick), and by the dispatch enum.
        let expected = if name == "alt" { 2 } else { 3 };
        assert_eq!(read, expected, "{name}");
    }
    // Values the version-2 reader gives an older and a newer writer's frames.
    let old_bytes = framed(&big_v1());
    let (_, old) = Big::view_lazy_with_header(&old_bytes).unwrap();
    assert_eq!(old.extra().unwrap(), 0);
    assert!(old.try_more().unwrap().is_none());
    assert!(!old.has_extra());
    let new_bytes = framed(&big_v3());
    let (h, new) = Big::view_lazy_with_header(&new_bytes).unwrap();
    assert_eq!(h.version, 3);
    assert_eq!(new.extra().unwrap(), 78);
    let new_more = new.try_more().unwrap().unwrap();
    assert_eq!(
        read_leg(new_more.get(0).unwrap().unwrap()).unwrap().venue,
        "M3"
    );
    let tick3 = &frames()[5].1;
    let (h, t) = Tick::view_lazy_with_header(tick3).unwrap();
    assert_eq!((h.version, h.block_length), (3, 8 + 4 + 1 + 13 + 2));
    assert_eq!(read_tick(t).unwrap().level.px, 1);
}

/// Every byte of every frame changed to nine values: every reader agrees.
#[test]
fn every_changed_byte_reads_on_demand_as_the_view_reads_it() {
    let (mut read, mut refused) = (0usize, 0usize);
    for (name, good) in frames() {
        for at in 0..good.len() {
            let b = good[at];
            for value in [
                0,
                1,
                0x7F,
                0x80,
                0xFF,
                b ^ 1,
                b ^ 0x80,
                b.wrapping_add(1),
                b.wrapping_sub(1),
            ] {
                let mut bad = good.clone();
                bad[at] = value;
                match agree_all(&bad) {
                    Ok(0) => refused += 1,
                    Ok(_) => read += 1,
                    Err(e) => panic!("{name}, byte {at} = {value:#04x}: {e}"),
                }
            }
        }
    }
    // Both outcomes are exercised.
    assert!(
        read > 1000 && refused > 1000,
        "read {read}, refused {refused}"
    );
}

/// Every truncation of every frame, and bytes appended after it.
#[test]
fn truncated_and_extended_frames_read_on_demand_as_the_view_reads_them() {
    for (name, good) in frames() {
        for len in 0..good.len() {
            let read = agree_all(&good[..len]).unwrap_or_else(|e| panic!("{name}[..{len}]: {e}"));
            // A message cut anywhere is refused by the readers of its version and
            // newer; an older reader reads one cut in what it does not know (the
            // version-1 reader of a version-2 frame; every reader of a version-3 one).
            let most = match &name[name.len() - 2..] {
                "v2" => 1,
                "v3" => 3,
                _ => 0,
            };
            assert!(read <= most, "{name}[..{len}]: {read}");
        }
        for extra in [&[0u8][..], &[0xFF], &[0xAB; 100], &[2, 0, 0, 0, 0, 0, 0, 0]] {
            let mut longer = good.clone();
            longer.extend_from_slice(extra);
            agree_all(&longer).unwrap_or_else(|e| panic!("{name} + {extra:?}: {e}"));
        }
    }
    // Bytes after a fixed-size message are not the message's: read, and ignored.
    let mut tick = framed(&tick());
    tick.extend([0xFF; 9]);
    let (_, lazy) = Tick::view_lazy_with_header(&tick).unwrap();
    assert_eq!(read_tick(lazy.clone()).unwrap(), self::tick());
    assert_eq!(
        lazy.to_view().unwrap(),
        Tick::view_with_header(&tick).unwrap().1
    );
}

/// Each header field rewritten: block length 0..=1024 and large values, at versions
/// 0 to 4 and `u16::MAX`, over frames with and without bytes appended; every
/// template and schema id near the file's types.
#[test]
fn rewritten_headers_are_checked_as_view_with_header_checks_them() {
    let mut read = 0usize;
    for (name, good) in frames() {
        let mut padded = good.clone();
        padded.extend([0x5A; 40]);
        for base in [&good, &padded] {
            for version in [0u16, 1, 2, 3, 4, u16::MAX] {
                let lengths = (0u16..=1024).chain([0x7FFF, 0x8000, 0xFFFE, 0xFFFF]);
                for block_length in lengths {
                    let mut bad = base.clone();
                    bad[0..2].copy_from_slice(&block_length.to_le_bytes());
                    bad[6..8].copy_from_slice(&version.to_le_bytes());
                    read += agree_all(&bad).unwrap_or_else(|e| {
                        panic!("{name}, block length {block_length}, version {version}: {e}")
                    });
                }
            }
            for template_id in (0u16..16).chain([u16::MAX]) {
                for schema_id in (0u16..6).chain([u16::MAX]) {
                    let mut bad = base.clone();
                    bad[2..4].copy_from_slice(&template_id.to_le_bytes());
                    bad[4..6].copy_from_slice(&schema_id.to_le_bytes());
                    read += agree_all(&bad).unwrap_or_else(|e| {
                        panic!("{name}, template {template_id}, schema {schema_id}: {e}")
                    });
                }
            }
        }
    }
    assert!(read > 100, "{read}");
}

/// For messages with a tail, the header's and the message's own block length
/// rewritten together (so that they agree), to every value up to 600, at versions 1
/// to 3: blocks cut inside fields, blocks longer than any version's, a newer
/// version's block with bytes this reader does not know.
#[test]
fn both_block_lengths_rewritten_together_are_checked_as_the_view_checks_them() {
    let mut read = 0usize;
    for (name, good) in frames() {
        if name.starts_with("tick") {
            continue;
        }
        for version in [1u16, 2, 3] {
            for block_length in 0u16..=600 {
                let mut bad = good.clone();
                bad[0..2].copy_from_slice(&block_length.to_le_bytes());
                bad[6..8].copy_from_slice(&version.to_le_bytes());
                bad[8..10].copy_from_slice(&block_length.to_le_bytes());
                read += agree_all(&bad).unwrap_or_else(|e| {
                    panic!("{name}, block lengths {block_length}, version {version}: {e}")
                });
            }
        }
    }
    assert!(read > 10, "{read}");
}

/// Two to four bytes changed at random, many times over each frame.
#[test]
fn random_changes_read_on_demand_as_the_view_reads_them() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut refused = 0;
    for (name, good) in frames() {
        for _ in 0..600 {
            let mut bad = good.clone();
            let changes = 2 + rng.next() % 3;
            for _ in 0..changes {
                // Past the header more often than in it.
                let at = if rng.next() % 4 == 0 {
                    (rng.next() % 8) as usize
                } else {
                    (rng.next() % bad.len() as u64) as usize
                };
                bad[at] = rng.next() as u8;
            }
            if agree_all(&bad).unwrap_or_else(|e| panic!("{name}, {bad:?}: {e}")) == 0 {
                refused += 1;
            }
        }
    }
    assert!(refused > 100, "{refused}");
}

/// Errors found on demand name the field's path and count from the header, at the
/// place `view_with_header` names, for a broken byte deep in each kind of field.
#[test]
fn errors_deep_in_each_kind_of_field_count_from_the_header() {
    let good = framed(&big());
    let find = |needle: &[u8]| {
        good.windows(needle.len())
            .position(|w| w == needle)
            .unwrap_or_else(|| panic!("{needle:?}"))
    };
    let cases: [(&[u8], &str); 7] = [
        (b"nest", "nested.note"),
        (b"BATS", "legs[2].venue"),
        (b"ccc", "words[2]"),
        (b"IEX", "instr.Peg.venue"),
        (b"ARCX", "instrs[2].Routed.venue"),
        (b"yy", "limits[1].0"),
        (b"MORE", "more[0].venue"),
    ];
    for (needle, path) in cases {
        let mut bad = good.clone();
        let at = find(needle);
        bad[at] = 0xFF;
        let expected = Big::view_with_header(&bad).unwrap_err();
        assert_eq!((expected.offset(), expected.path()), (at, path.to_owned()));
        let (_, lazy) = Big::view_lazy_with_header(&bad).unwrap();
        let got = read(lazy.clone()).unwrap_err();
        assert_eq!(parts(&got), parts(&expected), "{path}");
        assert_eq!(parts(&lazy.to_view().unwrap_err()), parts(&expected));
        // The fields before it still read.
        assert_eq!(lazy.id().unwrap(), big().id);
        assert_eq!(lazy.note().unwrap(), "nöte");
    }
    // A nested view's `to_view`, from the framed root: its own error, with the path
    // from the root.
    let mut bad = good.clone();
    bad[find(b"nest")] = 0xFF;
    let (_, lazy) = Big::view_lazy_with_header(&bad).unwrap();
    let err = lazy.nested().unwrap().to_view().unwrap_err();
    assert_eq!(
        parts(&err),
        parts(&Big::view_with_header(&bad).unwrap_err())
    );
    // And over good bytes, the nested views' `to_view` are the view's parts.
    let (_, lazy) = Big::view_lazy_with_header(&good).unwrap();
    let view = Big::view_with_header(&good).unwrap().1;
    assert_eq!(lazy.nested().unwrap().to_view().unwrap(), view.nested());
    assert_eq!(lazy.legs().unwrap().to_view().unwrap(), view.legs());
    let leg = lazy.legs().unwrap().get(2).unwrap().unwrap();
    assert_eq!(leg.to_view().unwrap(), view.legs().get(2).unwrap());
}

// ---------------------------------------------------------------------------------
// Nesting around the depth limit.
// ---------------------------------------------------------------------------------

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 12)]
struct Chain {
    id: u32,
    name: String,
    kids: Vec<Chain>,
}

/// A chain inline in another message: one level more for the chain's levels.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 13)]
struct Wrap {
    pre: u8,
    chain: Chain,
}

fn read_chain(c: ChainLazy<'_>) -> Result<Chain, Error> {
    Ok(Chain {
        id: c.id()?,
        name: c.name()?.into(),
        kids: c
            .kids()?
            .iter()
            .map(|k| read_chain(k?))
            .collect::<Result<_, _>>()?,
    })
}

fn read_wrap(w: WrapLazy<'_>) -> Result<Wrap, Error> {
    Ok(Wrap {
        pre: w.pre()?,
        chain: read_chain(w.chain()?)?,
    })
}

/// The bytes of a chain of `levels` levels below the root, built by hand (the
/// encoder refuses values past the depth limit); the deepest's name is `last`.
fn chain_bytes(levels: u32, last: &[u8]) -> Vec<u8> {
    use handmade::{Part, message, split};
    let mut bytes = message(&[
        Part::Fixed(&levels.to_le_bytes()),
        Part::Tail(last),
        Part::Tail(&[]),
    ]);
    for id in (0..levels).rev() {
        let kids = split(&[&bytes]);
        bytes = message(&[
            Part::Fixed(&id.to_le_bytes()),
            Part::Tail(b"n"),
            Part::Tail(&kids),
        ]);
    }
    bytes
}

fn chain(levels: u32) -> Chain {
    let mut c = Chain {
        id: levels,
        name: "z".into(),
        kids: vec![],
    };
    for id in (0..levels).rev() {
        c = Chain {
            id,
            name: "n".into(),
            kids: vec![c],
        };
    }
    c
}

fn header_of<T: Template>(block_length: usize) -> Vec<u8> {
    MessageHeader {
        block_length: block_length as u16,
        template_id: T::TEMPLATE_ID,
        schema_id: T::SCHEMA_ID,
        version: T::VERSION,
    }
    .to_bytes()
    .to_vec()
}

fn deep_frames() -> Result<(usize, usize), String> {
    let (mut read, mut refused) = (0, 0);
    assert_eq!(chain_bytes(3, b"z"), chain(3).to_bytes().unwrap());
    for levels in MAX_DEPTH - 2..=MAX_DEPTH + 2 {
        for last in [&b"z"[..], &[0xFF]] {
            let body = chain_bytes(levels, last);
            let mut frame = header_of::<Chain>(Chain::BLOCK_LENGTH);
            frame.extend_from_slice(&body);
            let mut wrapped = header_of::<Wrap>(Wrap::BLOCK_LENGTH);
            wrapped.extend_from_slice(
                &handmade::message(&[handmade::Part::Fixed(&[9]), handmade::Part::Tail(&body)])[..],
            );
            let chain_ok = agree!(Chain, read_chain, &frame, tail: true)
                .map_err(|e| format!("chain of {levels}, last {last:?}: {e}"))?;
            let wrap_ok = agree!(Wrap, read_wrap, &wrapped, tail: true)
                .map_err(|e| format!("wrapped chain of {levels}, last {last:?}: {e}"))?;
            for ok in [chain_ok, wrap_ok] {
                if ok {
                    read += 1;
                } else {
                    refused += 1;
                }
            }
            // The deepest level's error, and the depth error, as the view's.
            let expected = Chain::view_with_header(&frame);
            if levels <= MAX_DEPTH && last == b"z" {
                let (_, lazy) = Chain::view_lazy_with_header(&frame).map_err(|e| e.to_string())?;
                if read_chain(lazy).map_err(|e| e.to_string())? != chain(levels) {
                    return Err(format!("chain of {levels} read another chain"));
                }
            } else if expected.is_ok() {
                return Err(format!("chain of {levels}, last {last:?} read"));
            }
        }
    }
    Ok((read, refused))
}

#[test]
fn chains_around_the_depth_limit_read_on_demand_as_the_view_reads_them() {
    let (read, refused) = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(deep_frames)
        .unwrap()
        .join()
        .unwrap()
        .unwrap();
    // MAX_DEPTH - 2 ..= MAX_DEPTH read as the root (3), one level fewer inline (2).
    assert_eq!((read, refused), (5, 15));
}

// ---------------------------------------------------------------------------------
// The views' proofs (niche-free pointers).
// ---------------------------------------------------------------------------------

fn send_sync<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe + Unpin>() {}
fn send<T: Send>() {}

#[test]
fn views_keep_send_sync_debug_and_equality() {
    send_sync::<BigView<'static>>();
    send_sync::<TickView<'static>>();
    send_sync::<FeedView<'static>>();
    // A mutable view is a `&mut [u8]`: `Send` and `Sync`, not `UnwindSafe`.
    send::<BigMut<'static>>();
    fn sync<T: Sync>() {}
    sync::<BigMut<'static>>();
    send::<BigLazy<'static>>();
    send::<FeedLazy<'static>>();
    // An `Option` of a view has its own tag now: one word more, never a null view.
    assert!(
        std::mem::size_of::<Option<BigView<'static>>>() > std::mem::size_of::<BigView<'static>>()
    );
    let a = framed(&big());
    let b = framed(&big());
    let (_, va) = Big::view_with_header(&a).unwrap();
    let (_, vb) = Big::view_with_header(&b).unwrap();
    // Equal by value, over other bytes; unequal when a value differs.
    assert_eq!(va, vb);
    let mut c = framed(&big());
    c[8 + 2] ^= 1; // `id`'s low byte
    let (_, vc) = Big::view_with_header(&c).unwrap();
    assert_ne!(va, vc);
    assert_eq!(vc.id(), big().id ^ 1);
    let dbg = format!("{va:?}");
    assert!(dbg.contains("note: \"nöte\""), "{dbg}");
    let some = Some(va);
    assert_eq!(some.map(|v| v.id()), Some(big().id));
    let mut views: Vec<Option<BigView<'_>>> = vec![None; 3];
    views[1] = Some(vb);
    assert_eq!(views.iter().flatten().count(), 1);
    // Lists of views in a loop (`Option` per element), and the same list's views
    // compared element-wise.
    let legs: Vec<_> = va.legs().iter().map(|l| l.venue()).collect();
    assert_eq!(legs, ["XNAS", "", "BATS"]);
    assert_eq!(va.legs().get(3), None);
    assert!(va.legs().get(0) != va.legs().get(1));
    // Mutable views still write and read back.
    let mut m = framed(&tick());
    let (_, mut tm) = Tick::view_mut_with_header(&mut m).unwrap();
    tm.set_qty(99);
    assert_eq!(Tick::view_with_header(&m).unwrap().1.qty(), 99);
}

// ---------------------------------------------------------------------------------
// More shapes: a fixed-size message with its block length on the wire, empty
// messages, a recursive option, and a fixed-size message of another schema under a
// fixed-size message's template id, behind a second dispatch enum.
// ---------------------------------------------------------------------------------

pub(crate) mod pre1 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 14, schema_id = 3, block_length)]
    pub(crate) struct Pre {
        pub(crate) at: u64,
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 14, schema_id = 3, version = 2, block_length)]
struct Pre {
    at: u64,
    #[wire(since = 2)]
    ok: bool,
    #[wire(since = 2)]
    level: Level,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 15, schema_id = 3)]
struct Empty {}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 16, schema_id = 3, block_length)]
struct EmptyPre {}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 17, schema_id = 3)]
struct Node {
    v: u32,
    next: Option<Box<Node>>,
}

/// Fixed-size, under `Tick`'s template id with another schema id.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 11, schema_id = 4)]
struct AltTick {
    on: bool,
    px: i64,
}

#[derive(WireDispatch, Debug, PartialEq)]
enum Misc {
    Pre(Pre),
    Empty(Empty),
    EmptyPre(EmptyPre),
    Node(Node),
    AltTick(AltTick),
    Tick(Tick),
}

fn read_pre(p: PreLazy<'_>) -> Result<Pre, Error> {
    Ok(Pre {
        at: p.at()?,
        ok: p.ok()?,
        level: match p.try_level()? {
            Some(l) => read_level(l)?,
            None => Level::default(),
        },
    })
}

fn read_pre1(p: pre1::PreLazy<'_>) -> Result<pre1::Pre, Error> {
    Ok(pre1::Pre { at: p.at()? })
}

fn read_node(n: NodeLazy<'_>) -> Result<Node, Error> {
    Ok(Node {
        v: n.v()?,
        next: match n.next()? {
            Some(next) => Some(Box::new(read_node(next)?)),
            None => None,
        },
    })
}

fn read_alt_tick(a: AltTickLazy<'_>) -> Result<AltTick, Error> {
    Ok(AltTick {
        on: a.on()?,
        px: a.px()?,
    })
}

fn read_misc(bytes: &[u8]) -> Result<Misc, Error> {
    Ok(match Misc::view_lazy(bytes)?.1 {
        MiscLazy::Pre(p) => Misc::Pre(read_pre(p)?),
        MiscLazy::Empty(_) => Misc::Empty(Empty {}),
        MiscLazy::EmptyPre(_) => Misc::EmptyPre(EmptyPre {}),
        MiscLazy::Node(n) => Misc::Node(read_node(n)?),
        MiscLazy::AltTick(a) => Misc::AltTick(read_alt_tick(a)?),
        MiscLazy::Tick(t) => Misc::Tick(read_tick(t)?),
    })
}

fn agree_misc(bytes: &[u8]) -> Agreed {
    match (Misc::view(bytes), read_misc(bytes)) {
        (Ok((_, view)), Ok(lazy)) => {
            let (_, l) = Misc::view_lazy(bytes).unwrap();
            let _ = format!("{l:?}");
            let to_view = match l {
                MiscLazy::Pre(v) => v.to_view().map(MiscView::Pre),
                MiscLazy::Empty(v) => v.to_view().map(MiscView::Empty),
                MiscLazy::EmptyPre(v) => v.to_view().map(MiscView::EmptyPre),
                MiscLazy::Node(v) => v.to_view().map(MiscView::Node),
                MiscLazy::AltTick(v) => v.to_view().map(MiscView::AltTick),
                MiscLazy::Tick(v) => v.to_view().map(MiscView::Tick),
            };
            let decoded = Misc::decode(bytes).map_err(|e| parts(&e));
            if decoded.as_ref() != Ok(&lazy) || to_view.ok() != Some(view) {
                return Err(format!("misc: on demand {lazy:?}, decoded {decoded:?}"));
            }
            Ok(true)
        }
        (Err(expected), Err(got)) if parts(&got) == parts(&expected) => {
            if let Ok((_, l)) = Misc::view_lazy(bytes) {
                let _ = format!("{l:?}");
            }
            Ok(false)
        }
        (view, lazy) => Err(format!(
            "misc: view {:?}, on demand {:?}",
            view.map(|_| ()).map_err(|e| parts(&e)),
            lazy.map(|_| ()).map_err(|e| parts(&e))
        )),
    }
}

fn agree_more(bytes: &[u8]) -> Result<usize, String> {
    let results = [
        agree!(Pre, read_pre, bytes, tail: true),
        agree!(pre1::Pre, read_pre1, bytes, tail: true),
        agree!(Node, read_node, bytes, tail: true),
        agree!(AltTick, read_alt_tick, bytes, tail: false),
        agree!(Tick, read_tick, bytes, tail: false),
        agree_misc(bytes),
    ];
    let mut read = 0;
    for (reader, result) in results.into_iter().enumerate() {
        if result.map_err(|e| format!("reader {reader}: {e}"))? {
            read += 1;
        }
    }
    // The empty messages: whole frames, no field to read.
    for result in [
        agree!(Empty, |_| Ok(Empty {}), bytes, tail: false),
        agree!(EmptyPre, |_| Ok(EmptyPre {}), bytes, tail: true),
    ] {
        if result? {
            read += 1;
        }
    }
    Ok(read)
}

fn more_frames() -> Vec<(&'static str, Vec<u8>)> {
    let node = Node {
        v: 1,
        next: Some(Box::new(Node {
            v: 2,
            next: Some(Box::new(Node { v: 3, next: None })),
        })),
    };
    vec![
        (
            "pre v2",
            framed(&Pre {
                at: 9,
                ok: true,
                level: Level {
                    px: -1,
                    qty: 2,
                    live: true,
                },
            }),
        ),
        ("pre v1", framed(&pre1::Pre { at: 10 })),
        ("empty", framed(&Empty {})),
        ("empty pre", framed(&EmptyPre {})),
        ("node", framed(&node)),
        ("alt tick", framed(&AltTick { on: true, px: -3 })),
        ("tick", framed(&tick())),
    ]
}

/// The more shapes: valid, every byte changed, truncated, extended, and every
/// block length and version in the header.
#[test]
fn more_shapes_read_on_demand_as_the_view_reads_them() {
    let (mut read, mut refused) = (0usize, 0usize);
    for (name, good) in more_frames() {
        // Each valid frame is read by its own reader and the dispatch enum's (the
        // version-1 `Pre` frame also by the version-1 reader).
        let valid = agree_more(&good).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = match name {
            "pre v2" | "pre v1" => 3,
            "empty" | "empty pre" => 2,
            _ => 2,
        };
        assert_eq!(valid, expected, "{name}");
        for at in 0..good.len() {
            let b = good[at];
            for value in [0, 1, 2, 0x7F, 0x80, 0xFF, b ^ 1, b.wrapping_add(1)] {
                let mut bad = good.clone();
                bad[at] = value;
                match agree_more(&bad) {
                    Ok(0) => refused += 1,
                    Ok(_) => read += 1,
                    Err(e) => panic!("{name}, byte {at} = {value:#04x}: {e}"),
                }
            }
        }
        let mut padded = good.clone();
        padded.extend([0xA5; 24]);
        for len in 0..padded.len() {
            agree_more(&padded[..len]).unwrap_or_else(|e| panic!("{name}[..{len}]: {e}"));
        }
        for base in [&good, &padded] {
            for version in [0u16, 1, 2, 3, u16::MAX] {
                for block_length in (0u16..=64).chain([0x7FFF, 0xFFFF]) {
                    let mut bad = base.clone();
                    bad[0..2].copy_from_slice(&block_length.to_le_bytes());
                    bad[6..8].copy_from_slice(&version.to_le_bytes());
                    agree_more(&bad).unwrap_or_else(|e| {
                        panic!("{name}, block length {block_length}, version {version}: {e}")
                    });
                }
            }
        }
    }
    assert!(
        read > 100 && refused > 100,
        "read {read}, refused {refused}"
    );
}

/// `levels` nodes below the root, built by hand (FORMAT.md §3): a block of the
/// block length, `v`, the option's presence byte and its end offset, then the next
/// node. The deepest node's presence byte is `last` (0: none; 2: not a flag).
fn node_bytes(levels: u32, last: u8) -> Vec<u8> {
    let node = |v: u32, flag: u8, next: &[u8]| {
        let mut out = vec![11, 0];
        out.extend(v.to_le_bytes());
        out.push(flag);
        out.extend((11 + next.len() as u32).to_le_bytes());
        out.extend_from_slice(next);
        out
    };
    let mut bytes = node(levels, last, &[]);
    for v in (0..levels).rev() {
        bytes = node(v, 1, &bytes);
    }
    bytes
}

fn deep_nodes() -> Result<Vec<(u32, bool)>, String> {
    let mut read = Vec::new();
    let two = Node {
        v: 0,
        next: Some(Box::new(Node {
            v: 1,
            next: Some(Box::new(Node { v: 2, next: None })),
        })),
    };
    assert_eq!(node_bytes(2, 0), two.to_bytes().unwrap());
    for levels in MAX_DEPTH - 2..=MAX_DEPTH + 2 {
        for last in [0, 2] {
            let mut frame = header_of::<Node>(Node::BLOCK_LENGTH);
            frame.extend(node_bytes(levels, last));
            if agree!(Node, read_node, &frame, tail: true)
                .map_err(|e| format!("{levels} nodes, last {last}: {e}"))?
            {
                read.push((levels, last == 0));
            }
            agree_misc(&frame).map_err(|e| format!("misc: {levels} nodes: {e}"))?;
        }
    }
    Ok(read)
}

#[test]
fn options_nested_around_the_depth_limit_read_on_demand_as_the_view_reads_them() {
    let read = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(deep_nodes)
        .unwrap()
        .join()
        .unwrap()
        .unwrap();
    // Only unbroken chains at or under the limit read.
    assert_eq!(
        read,
        [
            (MAX_DEPTH - 2, true),
            (MAX_DEPTH - 1, true),
            (MAX_DEPTH, true)
        ]
    );
}

// ---------------------------------------------------------------------------------
// Fields read alone, out of order.
// ---------------------------------------------------------------------------------

/// A read of one field of a `Big`, whole (every element and nested field).
type ReadOne = fn(&BigLazy<'_>) -> Result<(), Error>;

fn all<T>(items: impl Iterator<Item = Result<T, Error>>) -> Result<(), Error> {
    items.into_iter().try_for_each(|item| item.map(drop))
}

/// Each field of a `Big` with its reader, in field order.
fn one_field_readers() -> Vec<(&'static str, ReadOne)> {
    vec![
        ("id", |b| b.id().map(drop)),
        ("note", |b| b.note().map(drop)),
        ("maybe", |b| b.maybe().map(drop)),
        ("tag", |b| b.tag().map(drop)),
        ("inner", |b| match b.inner()? {
            Some(i) => read_inner(i).map(drop),
            None => Ok(()),
        }),
        ("nested", |b| read_inner(b.nested()?).map(drop)),
        ("top", |b| read_level(b.top()?).map(drop)),
        ("legs", |b| all(b.legs()?.iter().map(|l| read_leg(l?)))),
        ("words", |b| all(b.words()?.iter())),
        ("grid", |b| {
            all(b.grid()?.iter().map(|row| all(row?.iter())))
        }),
        ("pairs", |b| all(b.pairs()?.iter())),
        ("instr", |b| read_instr(b.instr()?).map(drop)),
        ("instrs", |b| {
            all(b.instrs()?.iter().map(|i| read_instr(i?)))
        }),
        ("limits", |b| all(b.limits()?.iter())),
        ("by_px", |b| all(b.by_px()?.iter())),
        ("extra", |b| b.extra().map(drop)),
        ("more", |b| match b.try_more()? {
            Some(more) => all(more.iter().map(|l| read_leg(l?))),
            None => Ok(()),
        }),
    ]
}

/// The field a path starts in.
fn first_field(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or("")
}

/// Each field read alone on a fresh view of `bytes` against `view_with_header`:
/// where it refuses the frame in field `e`, each field before `e` reads, and `e`
/// alone fails with its error. Returns whether the frame was refused in a field.
fn fields_alone_agree(bytes: &[u8]) -> Result<bool, String> {
    let Err(expected) = Big::view_with_header(bytes) else {
        return Ok(false);
    };
    let Ok((_, lazy)) = Big::view_lazy_with_header(bytes) else {
        return Ok(false);
    };
    let path = expected.path();
    let failing = first_field(&path);
    let readers = one_field_readers();
    let Some(e) = readers.iter().position(|(name, _)| *name == failing) else {
        return Err(format!("no reader for the field of {path:?}"));
    };
    for (i, (name, read_one)) in readers.iter().enumerate() {
        let got = read_one(&Big::view_lazy_with_header(bytes).unwrap().1);
        if i < e && got.is_err() {
            return Err(format!(
                "{name} before {failing}: {:?}, view {:?}",
                got.map_err(|e| parts(&e)),
                parts(&expected)
            ));
        }
        if i == e {
            let got = got.map_err(|e| parts(&e));
            if got != Err(parts(&expected)) {
                return Err(format!(
                    "{name} alone: {got:?}, view {:?}",
                    parts(&expected)
                ));
            }
        }
    }
    // And on the one view, read backwards: the failing field still fails as the
    // view does (nothing cached by the later fields' reads changes it).
    for (_, read_one) in readers.iter().rev() {
        let _ = read_one(&lazy);
    }
    let again = readers[e].1(&lazy).map_err(|e| parts(&e));
    if again != Err(parts(&expected)) {
        return Err(format!("{failing} after the others: {again:?}"));
    }
    Ok(true)
}

#[test]
fn each_field_read_alone_fails_only_where_the_view_does() {
    let mut in_fields = 0;
    for good in [framed(&big()), framed(&big_v1()), framed(&big_v3())] {
        for at in 8..good.len() {
            let b = good[at];
            for value in [0, 0x7F, 0x80, 0xFF, b ^ 1, b.wrapping_add(1)] {
                let mut bad = good.clone();
                bad[at] = value;
                if fields_alone_agree(&bad)
                    .unwrap_or_else(|e| panic!("byte {at} = {value:#04x}: {e}"))
                {
                    in_fields += 1;
                }
            }
        }
    }
    assert!(in_fields > 500, "{in_fields}");
}

/// The harness finds a disagreement: a reader that skips a field's elements reads a
/// frame the view refuses.
#[test]
fn the_comparison_catches_a_reader_that_skips_a_field() {
    fn skips_flags(b: BigLazy<'_>) -> Result<Big, Error> {
        match read(b.clone()) {
            Err(e) if e.path().contains("flags") => Ok(big()),
            value => value,
        }
    }
    let mut bad = framed(&big());
    // The first leg's one flag, `true`, made 7: not a `bool`.
    let good_view = Big::view_with_header(&bad).unwrap().1;
    let flag = good_view.legs().get(0).unwrap().flags();
    assert_eq!(flag.iter().collect::<Vec<_>>(), [true]);
    let at = bad
        .windows(5)
        .position(|w| w == b"XNAS\x01")
        .map(|p| p + 4)
        .unwrap();
    bad[at] = 7;
    assert_eq!(
        Big::view_with_header(&bad).unwrap_err().path(),
        "legs[0].flags[0]"
    );
    let caught: Agreed = agree!(Big, skips_flags, &bad, tail: true);
    assert!(caught.unwrap_err().starts_with("view "));
    assert_eq!(agree!(Big, read, &bad, tail: true), Ok(false));
}

/// `Debug` of framed lazy views nested to the depth limit and one past it, which
/// reads every field, on a 2 MiB stack (the bound `tests/depth.rs` states; 512 KiB
/// overflowed in Rust 1.85's debug build): no overflow, and the level past the limit
/// shows the view's error.
#[test]
fn debug_of_deep_framed_lazy_views_fits_a_2_mib_stack() {
    let (chain, node) = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut frame = header_of::<Chain>(Chain::BLOCK_LENGTH);
            frame.extend(chain_bytes(MAX_DEPTH, b"z"));
            let (_, lazy) = Chain::view_lazy_with_header(&frame).unwrap();
            let chain = format!("{lazy:?}");
            let mut frame = header_of::<Node>(Node::BLOCK_LENGTH);
            frame.extend(node_bytes(MAX_DEPTH + 1, 0));
            let (_, lazy) = Node::view_lazy_with_header(&frame).unwrap();
            (chain, format!("{lazy:?}"))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(chain.matches("name: Ok(\"n\")").count(), MAX_DEPTH as usize);
    assert!(chain.contains("name: Ok(\"z\")"), "{chain}");
    assert!(
        node.contains("DepthLimitExceeded") || node.contains("depth"),
        "{node}"
    );
}
