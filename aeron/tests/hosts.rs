//! The checks of the hosts harness (`aeron/hosts/run.sh`) without a network: a
//! subscriber's [`Expected`] names a lost, duplicated, reordered or misread message,
//! and a [`BookSnapshot`] restores books equal to the publisher's, from which the
//! rest of the session rebuilds the same final books.

use wiremsg::Template;
use wiremsg_aeron::feed::BookCheck;
use wiremsg_aeron::hosts::{BookSnapshot, Expected, Mismatch, schema_frame, v2};
use wiremsg_examples::book::Books;
use wiremsg_examples::itch::Feed;
use wiremsg_examples::session::{Session, SessionConfig};

const SESSION: SessionConfig = SessionConfig {
    messages: 5_000,
    symbols: 30,
    seed: 9,
};

fn frames() -> Vec<Vec<u8>> {
    Session::new(SESSION)
        .map(|m| {
            let mut bytes = vec![0; m.wire_len()];
            m.encode_with_header_into(&mut bytes).unwrap();
            bytes
        })
        .collect()
}

#[test]
fn every_message_in_order_is_clean() {
    let mut expected = Expected::new(SESSION);
    for (i, frame) in frames().iter().enumerate() {
        assert_eq!(expected.check(frame), Some(i as u64 + 1));
    }
    assert!(expected.complete() && expected.clean());
    assert_eq!((expected.good, expected.first), (5_000, None));
}

#[test]
fn a_lost_message_is_named_and_the_next_still_checked() {
    let frames = frames();
    let mut expected = Expected::new(SESSION);
    for frame in frames[..99].iter().chain(&frames[101..]) {
        expected.check(frame);
    }
    assert_eq!((expected.good, expected.lost), (4_998, 2));
    assert_eq!(expected.first, Some(Mismatch::Lost { from: 100, to: 101 }));
    assert_eq!(
        expected.first.unwrap().to_string(),
        "LOST: messages 100..=101 never arrived (2 messages)"
    );
}

#[test]
fn a_duplicate_and_a_reordered_message_are_named() {
    let frames = frames();
    let mut expected = Expected::new(SESSION);
    for frame in &frames[..10] {
        expected.check(frame);
    }
    assert_eq!(expected.check(&frames[9]), None); // message 10 again
    assert_eq!(
        expected.first,
        Some(Mismatch::Duplicate {
            sequence: 10,
            expected: 11
        })
    );
    // 12 before 11: 11 counts as lost when 12 arrives, then as a duplicate.
    expected.check(&frames[11]);
    expected.check(&frames[10]);
    assert_eq!((expected.lost, expected.duplicates), (1, 2));
    assert!(!expected.clean());
}

#[test]
fn a_misread_message_is_named_with_its_byte() {
    let mut frames = frames();
    let last = frames[41].len() - 1;
    frames[41][last] ^= 1;
    let mut expected = Expected::new(SESSION);
    for frame in &frames[..50] {
        expected.check(frame);
    }
    assert_eq!(
        expected.first,
        Some(Mismatch::Misread {
            sequence: 42,
            at: last
        })
    );
    assert_eq!((expected.good, expected.misread), (49, 1));
    let mut expected = Expected::new(SESSION);
    assert_eq!(expected.check(&[0; 12]), None);
    assert!(matches!(expected.first, Some(Mismatch::Undecodable(_))));
}

#[test]
fn a_snapshot_restores_the_books_and_the_rest_follows_from_it() {
    let messages: Vec<Feed> = Session::new(SESSION).collect();
    let mut publisher = Books::with_capacity(30, 1_000);
    let frame = schema_frame(1).unwrap();
    let at = 2_345;
    for m in &messages[..at] {
        publisher.apply(m);
    }
    let snapshot = BookSnapshot::of(&publisher, at as u64, &frame);
    // Through the wire.
    let mut bytes = vec![0; snapshot.encoded_len_with_header()];
    snapshot.encode_with_header_into(&mut bytes).unwrap();
    let (_, view) = BookSnapshot::view_with_header(&bytes).unwrap();
    let received = view.decode();
    assert_eq!(received, snapshot);
    assert_eq!(received.orders.len(), publisher.resting_orders());
    let mut restored = received.restore(30);
    assert_eq!(
        BookCheck::of(&restored, at as u64),
        BookCheck::of(&publisher, at as u64)
    );
    let mut expected = Expected::new(SESSION);
    expected.skip_to(at as u64);
    for m in &messages[at..] {
        publisher.apply(m);
        let mut frame = vec![0; m.wire_len()];
        m.encode_with_header_into(&mut frame).unwrap();
        assert_eq!(expected.check(&frame), Some(m.sequence()));
        restored.apply(m);
    }
    assert!(expected.complete() && expected.clean());
    assert_eq!(
        BookCheck::of(&restored, 5_000),
        BookCheck::of(&publisher, 5_000)
    );
    // The schema frame it carries describes the feed and the check.
    assert!(wiremsg::frame::is_schema_frame(&received.schema_frame));
    let set = wiremsg::frame::read_schema_frame(&received.schema_frame).unwrap();
    assert!(set.by_template(1, BookCheck::TEMPLATE_ID).is_some());
    assert!(set.by_template(1, 2).is_some());
}

fn frames_v2() -> Vec<Vec<u8>> {
    use wiremsg::WithHeader;
    Session::new(SESSION)
        .map(|m| {
            let m = v2::Feed::from_v1(&m, v2::firm_of);
            let mut bytes = vec![0; m.len_with_header()];
            m.write_with_header(&mut bytes).unwrap();
            bytes
        })
        .collect()
}

#[test]
fn a_version_2_stream_reads_with_version_1_and_version_2_types() {
    let v2_frames = frames_v2();
    // Version 2 adds are 4 bytes longer, and say so in their header.
    let add = v2_frames
        .iter()
        .find(|f| wiremsg::MessageHeader::read(f).unwrap().template_id == 2)
        .unwrap();
    assert_eq!(wiremsg::MessageHeader::read(add).unwrap().version, 2);
    for reader in [1, 2] {
        let mut expected = Expected::versions(SESSION, 2, reader);
        for frame in &v2_frames {
            assert!(expected.check(frame).is_some(), "{:?}", expected.first);
        }
        assert!(expected.complete() && expected.clean());
    }
    // A version 2 reader of a version 1 stream reads the firm as 0.
    let mut expected = Expected::versions(SESSION, 1, 2);
    for frame in frames() {
        assert!(expected.check(&frame).is_some(), "{:?}", expected.first);
    }
    // Version 2 bytes are not the version 1 stream the checker expects.
    let mut expected = Expected::new(SESSION);
    for frame in &v2_frames {
        expected.check(frame);
    }
    assert!(expected.misread > 0);
    assert!(matches!(expected.first, Some(Mismatch::Misread { .. })));
    // The stream's schema frame describes the add at version 2.
    let set = wiremsg::frame::read_schema_frame(&schema_frame(2).unwrap()).unwrap();
    assert_eq!(set.by_template(1, 2).unwrap().version, 2);
}
