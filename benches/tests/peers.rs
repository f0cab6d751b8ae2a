//! Every column (wiremsg and the peers) reproduces the model, and the R1
//! baselines have the sizes the reference pins (not the article's published
//! ones).

use std::time::Duration;

use wiremsg_benches::format::{Format, aligned_copy};
use wiremsg_benches::formats::{flatbuffers, json, protobuf, rkyv, sbe, wiremsg};
use wiremsg_benches::model::{LoginRequest, Order, Tick};
use wiremsg_benches::report::{build_all, published_size, to_json, verify};
use wiremsg_benches::{FormatSet, Message, Timer};

fn column<'a, M>(formats: &'a mut [Box<dyn Format<M>>], name: &str) -> &'a mut dyn Format<M> {
    formats
        .iter_mut()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("no column {name}"))
        .as_mut()
}

#[test]
fn r1_json_is_56_bytes_and_protobuf_31() {
    let mut set = FormatSet::peers();
    let msg = LoginRequest::sample();

    let json = column(&mut set.login, json::NAME).encode(&msg).to_vec();
    assert_eq!(
        json,
        br#"{"username":"hpn_user","password":"secure_password_123"}"#
    );
    assert_eq!(json.len(), 56);

    let pb = column(&mut set.login, protobuf::NAME).encode(&msg).to_vec();
    assert_eq!(pb.len(), 31);
    assert_eq!(&pb[..2], &[0x0a, 8]); // field 1, length-delimited, 8 bytes
    assert_eq!(&pb[10..12], &[0x12, 19]); // field 2, length-delimited, 19 bytes

    assert_eq!(published_size(LoginRequest::NAME, json::NAME), Some(54));
    assert_eq!(published_size(LoginRequest::NAME, protobuf::NAME), Some(35));
}

/// `verify` checks read == model checksum, read_unchecked (where Some) ==
/// model checksum and decode == model; this spells the checks out as well.
fn check_all<M: Message>(formats: &mut [Box<dyn Format<M>>], msg: &M, columns: usize) {
    assert_eq!(formats.len(), columns, "wiremsg and the peers are columns");
    assert_eq!(formats[0].name(), wiremsg::NAME, "wiremsg leads");
    for f in formats.iter_mut() {
        let f = f.as_mut();
        let name = f.name();
        verify(f, msg).unwrap_or_else(|e| panic!("{e}"));

        let bytes = aligned_copy(f.encode(msg));
        assert_eq!(f.read(&bytes), msg.checksum(), "{} / {name}: read", M::NAME);
        // SAFETY: `bytes` is this format's own encoding of an `M`, aligned.
        if let Some(sum) = unsafe { f.read_unchecked(&bytes) } {
            assert_eq!(sum, msg.checksum(), "{} / {name}: read_unchecked", M::NAME);
        }
        assert_eq!(&f.decode(&bytes), msg, "{} / {name}: decode", M::NAME);
    }
}

#[test]
fn every_column_reproduces_every_sample() {
    let mut set = FormatSet::all();
    check_all(&mut set.login, &LoginRequest::sample(), 7);
    check_all(&mut set.order, &Order::sample(), 7);
    check_all(&mut set.tick, &Tick::sample(), 8);
}

#[test]
fn every_column_reproduces_variants_of_the_samples() {
    let mut set = FormatSet::all();

    let mut login = LoginRequest::sample();
    login.mfa_token = Some("493817".into());
    check_all(&mut set.login, &login, 7);
    login.mfa_token = Some(String::new()); // present but empty is not absent
    check_all(&mut set.login, &login, 7);

    let mut order = Order::sample();
    order.note = "giao trước 9 giờ".into();
    order.items.truncate(2);
    check_all(&mut set.order, &order, 7);
    order.items.clear();
    check_all(&mut set.order, &order, 7);

    let mut tick = Tick::sample();
    tick.side = wiremsg_benches::model::Side::Sell;
    tick.bid_price = -1;
    tick.flags = 0xff;
    check_all(&mut set.tick, &tick, 8);
}

#[test]
fn tables_build_and_render() {
    let mut set = FormatSet::all();
    let timer = Timer::new(Duration::from_micros(600), 3);
    let tables = build_all(&mut set, &timer).expect("all columns check");
    assert_eq!(tables.len(), 3);
    let r1 = &tables[0];
    assert_eq!(r1.message, LoginRequest::NAME);
    let size = |name| r1.rows.iter().find(|r| r.format == name).unwrap().size;
    assert_eq!(size(json::NAME), 56);
    assert_eq!(size(protobuf::NAME), 31);

    let md = r1.to_markdown();
    assert!(md.contains("published size (B)"), "{md}");
    assert!(md.contains("n/a"), "{md}");
    assert!(!tables[2].to_markdown().contains("published"));

    // wiremsg against rkyv and FlatBuffers, under every table.
    for t in &tables {
        assert_eq!(t.rows[0].format, wiremsg::NAME);
        let vs: Vec<_> = t.ratios.iter().map(|r| r.baseline).collect();
        if t.message == Tick::NAME {
            // SBE has fixed-size messages only: a column of the tick alone.
            assert_eq!(vs, [rkyv::NAME, flatbuffers::NAME, sbe::NAME]);
        } else {
            assert_eq!(vs, [rkyv::NAME, flatbuffers::NAME], "{}", t.message);
        }
        for r in &t.ratios {
            assert_eq!(r.subject, wiremsg::NAME);
            assert!(r.size > 0.0 && r.encode.median > 0.0 && r.read.median > 0.0);
            assert!(r.read_unchecked.is_some(), "both have an unchecked read");
            for s in [r.encode, r.read, r.read_unchecked.unwrap()] {
                assert!(s.low <= s.median && s.median <= s.high, "{s:?}");
            }
        }
        let md = t.to_markdown();
        assert!(md.contains("wiremsg ÷ peer"), "{md}");
        // Every column was timed once per round, for every operation.
        for row in &t.rows {
            assert_eq!(row.rounds.read.len(), 3, "{}", row.format);
            assert_eq!(row.rounds.encode.len(), 3, "{}", row.format);
        }
        let wm = &t.rows[0].rounds;
        let rk = &t
            .rows
            .iter()
            .find(|r| r.format == rkyv::NAME)
            .unwrap()
            .rounds;
        let per_round: Vec<f64> = wm.read.iter().zip(&rk.read).map(|(a, b)| a / b).collect();
        let mut sorted = per_round.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(t.ratios[0].read.median, sorted[1], "median of 3 rounds");
        let (low, high) = ((sorted[0] + sorted[1]) / 2.0, (sorted[1] + sorted[2]) / 2.0);
        assert_eq!((t.ratios[0].read.low, t.ratios[0].read.high), (low, high));
    }
    let r6 = &tables[2];
    let size = |name| r6.rows.iter().find(|r| r.format == name).unwrap().size;
    assert_eq!(
        r6.ratios[0].size,
        size(wiremsg::NAME) as f64 / size(rkyv::NAME) as f64
    );

    let json: serde_json::Value = serde_json::from_str(&to_json(&tables, &timer)).unwrap();
    assert_eq!(json["tables"].as_array().unwrap().len(), 3);
    for t in json["tables"].as_array().unwrap() {
        let ratios = t["ratios"].as_array().unwrap();
        assert_eq!(ratios.len(), if t["message"] == Tick::NAME { 3 } else { 2 });
        assert_eq!(ratios[0]["baseline"], rkyv::NAME);
        let unchecked = &ratios[1]["read_unchecked"];
        for key in ["median", "low", "high"] {
            assert!(unchecked[key].as_f64().is_some(), "{unchecked}");
        }
    }
}

/// Without the wiremsg column there is nothing to divide: no ratios, and no
/// ratio table in the markdown.
#[test]
fn peers_alone_have_no_ratios() {
    let mut set = FormatSet::peers();
    let timer = Timer::new(Duration::from_micros(200), 1);
    let tables = build_all(&mut set, &timer).expect("all columns check");
    for t in &tables {
        assert!(t.ratios.is_empty());
        assert!(!t.to_markdown().contains('÷'));
    }
}

/// wiremsg needs no alignment: its column reads the same from every offset,
/// not only from the 16-byte aligned buffer the harness uses.
#[test]
fn wiremsg_reads_at_any_alignment() {
    fn at_every_offset<M: Message>(f: &mut dyn Format<M>, msg: &M) {
        let bytes = f.encode(msg).to_vec();
        for offset in 0..8 {
            let mut shifted = vec![0xa5; offset];
            shifted.extend_from_slice(&bytes);
            let b = &shifted[offset..];
            assert_eq!(f.read(b), msg.checksum(), "{} at +{offset}", M::NAME);
            // SAFETY: `b` is exactly this format's encoding of `msg`, and
            // wiremsg has no alignment requirement.
            let unchecked = unsafe { f.read_unchecked(b) };
            assert_eq!(unchecked, Some(msg.checksum()), "{} at +{offset}", M::NAME);
            assert_eq!(&f.decode(b), msg, "{} at +{offset}", M::NAME);
        }
    }
    let mut set = FormatSet::all();
    at_every_offset(
        column(&mut set.login, wiremsg::NAME),
        &LoginRequest::sample(),
    );
    at_every_offset(column(&mut set.order, wiremsg::NAME), &Order::sample());
    at_every_offset(column(&mut set.tick, wiremsg::NAME), &Tick::sample());
}

/// R6 has only fixed-size fields, so its wiremsg encoding is the block
/// alone: the fields back to back, no block length, no padding.
#[test]
fn wiremsg_tick_is_its_fields_back_to_back() {
    let mut set = FormatSet::all();
    let tick = Tick::sample();
    let bytes = column(&mut set.tick, wiremsg::NAME).encode(&tick).to_vec();
    assert_eq!(bytes.len(), 8 + 8 + 8 + 8 + 4 + 8 + 4 + 1 + 1);
    assert_eq!(&bytes[..8], &tick.sequence.to_le_bytes());
    assert_eq!(&bytes[16..24], b"AAPL    ");
    assert_eq!(&bytes[48..], &[0, 1]); // side Buy, flags 1
}

/// Formats that skip default-valued fields compare floats with `==`, so a
/// discount of -0.0 is skipped like 0.0 and reads back as +0.0: the
/// reference's "0 vs absent" lesson in another guise. Pinned so a change of
/// behaviour in a peer shows up here.
#[test]
fn negative_zero_is_lost_only_by_default_skipping_formats() {
    let mut set = FormatSet::all();
    let mut order = Order::sample();
    order.items[1].discount = -0.0;
    let mut lost = Vec::new();
    for f in set.order.iter_mut() {
        let bytes = aligned_copy(f.encode(&order));
        let decoded = f.decode(&bytes);
        let kept = decoded.items[1].discount.is_sign_negative();
        assert_eq!(f.read(&bytes) == order.checksum(), kept, "{}", f.name());
        if !kept {
            lost.push(f.name());
        }
    }
    assert_eq!(
        lost,
        [wiremsg_benches::formats::flatbuffers::NAME, protobuf::NAME]
    );
}

/// A column whose read disagrees with the model stops the run before any
/// timing, naming the message, the column and the mismatch.
#[test]
fn a_wrong_column_aborts_with_a_clear_message() {
    #[derive(Default)]
    struct OffByOne(json::Json);
    impl<M> Format<M> for OffByOne
    where
        json::Json: Format<M>,
    {
        fn name(&self) -> &'static str {
            "off-by-one"
        }
        fn encode(&mut self, msg: &M) -> &[u8] {
            self.0.encode(msg)
        }
        fn read(&self, bytes: &[u8]) -> u64 {
            self.0.read(bytes).wrapping_add(1)
        }
        unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
            None
        }
        fn decode(&self, bytes: &[u8]) -> M {
            self.0.decode(bytes)
        }
    }

    let mut set = FormatSet::peers();
    set.add(OffByOne::default);
    // A timer that would take minutes: the check must fail before it runs.
    let timer = Timer::new(Duration::from_secs(60), 1);
    let err = build_all(&mut set, &timer).unwrap_err();
    assert_eq!(err.message, LoginRequest::NAME);
    assert_eq!(err.format, "off-by-one");
    assert!(err.to_string().contains("read checksum"), "{err}");
}
