//! SBE (ironsbe 0.8.0, issue 6) against wiremsg: the SBE schema is the export of the
//! bench's own wiremsg types, and gives the same values out of every message of the
//! feed; what each does with bad input.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ironsbe_core::decoder::{DecodeError, SbeDecoder};
use wiremsg::{DecodeField, ErrorKind, SchemaSet, Template, WireMsg};
use wiremsg_benches::datasets::Dataset;
use wiremsg_benches::datasets::feed::{
    AddOrder, Feed, FeedMsg, OrderCancel, OrderDelete, OrderExecuted, Trade,
};
use wiremsg_benches::formats::sbe::generated::{self as g, TickDecoder};
use wiremsg_benches::formats::sbe::{self, HEADER_LEN, Sbe, SbeMsg};
use wiremsg_benches::model::{Message, Side, Tick};
use wiremsg_benches::{Format, checksum::Fold};

/// Set to `1` to rewrite `schema/sbe.xml` from the bench's types.
const UPDATE_SBE: &str = "WIREMSG_UPDATE_SBE";

/// The SBE peer's schema, `schema/sbe.xml`, is what wiremsg's SBE exporter writes
/// for the bench's own types (the tick and the five kinds of the feed): the
/// generated SBE codec and wiremsg share one description of the bytes.
#[test]
fn the_sbe_schema_is_the_export_of_the_bench_types() {
    let mut set = SchemaSet::of::<Tick>().unwrap();
    set.add::<AddOrder>().unwrap();
    set.add::<OrderExecuted>().unwrap();
    set.add::<OrderCancel>().unwrap();
    set.add::<OrderDelete>().unwrap();
    set.add::<Trade>().unwrap();
    let mut options = wiremsg_cli::export::sbe::Options::new("wiremsg_benches");
    options.note = Some(
        "The SBE peer of wiremsg-benches (issue 6); regenerate: benches/schema/regenerate.sh"
            .into(),
    );
    let xml = wiremsg_cli::export::sbe::export(&set, &options).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/sbe.xml");
    if std::env::var_os(UPDATE_SBE).is_some_and(|v| v == "1") {
        std::fs::write(&path, &xml).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == xml,
        "{} is not the export of the bench's types; rewrite it with \
         {UPDATE_SBE}=1 cargo test -p wiremsg-benches --test sbe (the export:\n{xml})",
        path.display()
    );
}

/// Encodes `msg` in both formats, decodes both, and checks both give `msg`
/// back; returns the SBE message's length.
fn same_values<K>(msg: &K, sbe_buf: &mut Vec<u8>, wm_buf: &mut Vec<u8>) -> usize
where
    K: SbeMsg + WireMsg + PartialEq + std::fmt::Debug + for<'v> DecodeField<'v>,
{
    sbe_buf.clear();
    sbe::append(msg, sbe_buf);
    wm_buf.clear();
    msg.encode(wm_buf).unwrap();
    let from_sbe = K::decode_sbe(sbe_buf).unwrap();
    let from_wiremsg = K::decode(wm_buf).unwrap();
    assert_eq!(from_sbe, from_wiremsg);
    assert_eq!(&from_sbe, msg);
    // The schema lays the block out like wiremsg: only the header differs.
    assert_eq!(&sbe_buf[HEADER_LEN..], &wm_buf[..]);
    sbe_buf.len()
}

#[test]
fn sbe_and_wiremsg_decode_every_feed_message_to_the_same_values() {
    let feed = Feed::generate(Feed::LEN);
    let (mut s, mut w) = (Vec::new(), Vec::new());
    let mut bytes = 0;
    for msg in &feed.messages {
        bytes += match msg {
            FeedMsg::Add(m) => same_values(m, &mut s, &mut w),
            FeedMsg::Executed(m) => same_values(m, &mut s, &mut w),
            FeedMsg::Cancel(m) => same_values(m, &mut s, &mut w),
            FeedMsg::Delete(m) => same_values(m, &mut s, &mut w),
            FeedMsg::Trade(m) => same_values(m, &mut s, &mut w),
        };
    }
    let wiremsg_bytes: usize = feed
        .messages
        .iter()
        .map(|m| match m {
            FeedMsg::Add(m) => m.encoded_len(),
            FeedMsg::Executed(m) => m.encoded_len(),
            FeedMsg::Cancel(m) => m.encoded_len(),
            FeedMsg::Delete(m) => m.encoded_len(),
            FeedMsg::Trade(m) => m.encoded_len(),
        })
        .sum();
    assert_eq!(bytes, wiremsg_bytes + HEADER_LEN * feed.messages.len());

    // And the whole framed feed through the benches' codec.
    let mut codec = Sbe::default();
    let encoded = wiremsg_benches::format::aligned_copy(
        wiremsg_benches::datasets::Codec::<Feed>::encode(&mut codec, &feed),
    );
    assert_eq!(
        wiremsg_benches::datasets::Codec::<Feed>::decode(&codec, &encoded),
        feed
    );
}

/// SBE's bytes of the sample tick, and wiremsg's with its header (the tick's
/// template id and schema id are its SBE message's: 1 and 6).
fn both_ticks() -> (Vec<u8>, Vec<u8>) {
    let tick = Tick::sample();
    let sbe = Format::<Tick>::encode(&mut Sbe::default(), &tick).to_vec();
    let mut wm = Vec::new();
    tick.encode_with_header(&mut wm).unwrap();
    (sbe, wm)
}

const SIDE_AT: usize = HEADER_LEN + 48;

/// Sets the version in a message header.
fn set_version(bytes: &mut [u8], version: u16) {
    bytes[6..8].copy_from_slice(&version.to_le_bytes());
}

fn set_block_length(bytes: &mut [u8], len: u16) {
    bytes[..2].copy_from_slice(&len.to_le_bytes());
}

#[test]
fn same_bytes_with_the_same_header() {
    // wiremsg's message header is SBE's, so with the same ids and layout the
    // two encodings are the same 58 bytes.
    let (sbe, wm) = both_ticks();
    assert_eq!(sbe.len(), 58);
    assert_eq!(sbe, wm);
}

#[test]
fn unknown_enum_byte_sbe_reads_the_first_variant_wiremsg_rejects() {
    let (mut sbe_bytes, mut wm) = both_ticks();
    sbe_bytes[SIDE_AT] = 7;
    wm[SIDE_AT] = 7;

    // ironsbe: the header checks pass and the generated `From<u8>` maps every
    // unknown value to the first variant, silently.
    let d = TickDecoder::decode(&sbe_bytes).expect("ironsbe accepts the message");
    assert_eq!(d.side(), g::Side::Buy);
    assert_eq!(Tick::decode_sbe(&sbe_bytes).unwrap().side, Side::Buy);
    let mut f = Fold::new();
    Tick::fold_sbe(&sbe_bytes, &mut f).expect("read does not see it either");

    // wiremsg: an error naming the enum and the value, with or without header.
    let err = Tick::view_with_header(&wm).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownEnumValue {
            enum_name: "Side".into(),
            value: 7
        }
    );
    assert_eq!(err.offset(), SIDE_AT);
    let err = Tick::view(&wm[HEADER_LEN..]).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownEnumValue { value: 7, .. }
    ));
    assert!(Tick::decode(&wm[HEADER_LEN..]).is_err());
}

#[test]
fn short_buffer_both_decode_with_an_error_sbe_wrap_panics() {
    let (sbe_bytes, wm) = both_ticks();
    let short = 40;

    // ironsbe's `decode` checks the length against the declared block.
    assert_eq!(
        TickDecoder::decode(&sbe_bytes[..short]).unwrap_err(),
        DecodeError::BufferTooShort {
            required: 58,
            available: short
        }
    );
    assert!(TickDecoder::decode(&sbe_bytes[..4]).is_err());
    // Its header-less `wrap` checks nothing: the accessors index past the
    // end and panic (memory-safe, but a panic, not an error).
    let wrapped = TickDecoder::wrap(&sbe_bytes[..short], HEADER_LEN, g::SCHEMA_VERSION);
    assert_eq!(
        wrapped.sequence(),
        1_000_042,
        "fields inside the slice read"
    );
    assert!(catch_unwind(AssertUnwindSafe(|| wrapped.ask_size())).is_err());

    // wiremsg: an error.
    let err = Tick::view_with_header(&wm[..short]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 58,
            available: short
        }
    );
    let err = Tick::view(&wm[HEADER_LEN..short]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 50,
            available: short - HEADER_LEN
        }
    );
    assert!(Tick::view_with_header(&wm[..4]).is_err());
}

#[test]
fn lying_block_length_both_reject() {
    let (sbe_bytes, wm) = both_ticks();

    // Longer than the bytes present (wiremsg also requires the header to name a
    // newer version: a version it knows has exactly its block, FORMAT.md §8).
    let (mut s, mut w) = (sbe_bytes.clone(), wm.clone());
    set_block_length(&mut s, 60);
    set_block_length(&mut w, 60);
    set_version(&mut w, 2);
    assert_eq!(
        TickDecoder::decode(&s).unwrap_err(),
        DecodeError::BufferTooShort {
            required: 68,
            available: 58
        }
    );
    let err = Tick::view_with_header(&w).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 68,
            available: 58
        }
    );

    // Shorter than the message's fields.
    let (mut s, mut w) = (sbe_bytes.clone(), wm.clone());
    set_block_length(&mut s, 40);
    set_block_length(&mut w, 40);
    assert_eq!(
        TickDecoder::decode(&s).unwrap_err(),
        DecodeError::BlockLengthTooSmall {
            required: 50,
            declared: 40,
            version: 1
        }
    );
    let err = Tick::view_with_header(&w).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 40,
            required: 50,
            version: 1
        }
    );

    // Longer than the schema's block, with the bytes present: both read the
    // known fields (a newer writer's extension, as SBE specifies).
    let (mut s, mut w) = (sbe_bytes, wm);
    for b in [&mut s, &mut w] {
        set_block_length(b, 52);
        b.extend_from_slice(&[0xee, 0xee]);
    }
    set_version(&mut w, 2);
    let d = TickDecoder::decode(&s).unwrap();
    assert_eq!(d.sequence(), Tick::sample().sequence);
    let (_, view) = Tick::view_with_header(&w).unwrap();
    assert_eq!(view.sequence(), Tick::sample().sequence);
}
