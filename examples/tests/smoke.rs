//! Each example's main logic with small counts: `order_gateway`, `login`,
//! `raw_struct_hazards` (`market_data` is in `tests/market_data.rs`).

use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};
use wiremsg::frame::{LENGTH_PREFIX_LEN, WireCodec};
use wiremsg::{ErrorKind, Template, WireMsg};
use wiremsg_examples::annotate::{annotate_with_header, render};
use wiremsg_examples::gateway::{
    self, Cancel, ExecType, Inbound, InboundView, TimeInForce, order_v1, order_v2, v1, v2,
};
use wiremsg_examples::hazards::{self, RawPadded, image_hex};
use wiremsg_examples::login::{self, LoginRequest, LoginStatus, answer, sample_request};

#[test]
fn order_gateway_answers_v1_and_v2_clients() {
    let report = gateway::run(gateway::Config { orders: 200 }).unwrap();
    let [old, new] = &report.server[..] else {
        panic!("two connections: {:?}", report.server)
    };
    // The v1 client's orders arrived as version 1 and read time_in_force as Day.
    assert_eq!(old.by_header_version, [0, 200, 0]);
    assert_eq!(old.by_view_version, [0, 200, 0]);
    assert_eq!(old.first_order, Some((37, 1, 1)));
    assert_eq!((old.with_time_in_force, old.day), (0, 200));
    // The v2 client's carried it.
    assert_eq!(new.by_header_version, [0, 0, 200]);
    assert_eq!(new.first_order, Some((38, 2, 2)));
    assert_eq!(new.with_time_in_force, 200);
    assert_eq!(
        new.day + new.good_till_cancel + new.immediate_or_cancel,
        200
    );
    assert!(new.immediate_or_cancel > 0);
    assert_eq!((old.rejects, new.rejects, old.bad_frames), (0, 0, 0));
    assert_eq!(old.cancels, 50);
    assert_eq!(old.reports, 250);

    for (client, version) in [(&report.client_v1, 1), (&report.client_v2, 2)] {
        assert_eq!(client.orders, 200);
        assert_eq!(client.version_echoed, 200);
        assert_eq!(client.round_trip.count, 200);
        let first = client.first_report.unwrap();
        assert_eq!((first.client_order_id, first.order_version), (1, version));
        assert_eq!(first.symbol, "MSFT");
    }
    // Order 1 of the v2 client is good-till-cancel: it rests.
    let first = report.client_v2.first_report.unwrap();
    assert_eq!(
        (first.exec_type, first.time_in_force),
        (ExecType::New, TimeInForce::GoodTillCancel)
    );
    let text = report.to_string();
    assert!(text.contains("200 orders arrived as version 1"), "{text}");
    assert!(text.contains("200 orders arrived as version 2"), "{text}");
}

#[test]
fn the_gateway_messages_interoperate_across_versions() {
    let mut codec = WireCodec::new();
    let mut wire = BytesMut::new();
    codec.encode(&order_v1(3, 9), &mut wire).unwrap();
    codec.encode(&order_v2(3, 9), &mut wire).unwrap();
    let old = codec.decode(&mut wire).unwrap().unwrap();
    let new = codec.decode(&mut wire).unwrap().unwrap();
    assert_eq!(old.len(), 8 + v1::NewOrder::BLOCK_LENGTH);
    assert_eq!(new.len(), 8 + v2::NewOrder::BLOCK_LENGTH);

    let (header, InboundView::New(order)) = Inbound::view(&old).unwrap() else {
        panic!("a new order")
    };
    assert_eq!((header.version, order.version()), (1, 1));
    assert!(!order.has_time_in_force());
    assert_eq!(order.time_in_force(), TimeInForce::Day);
    assert_eq!(order.quantity(), order_v1(3, 9).quantity);
    // The old type reads the new bytes, skipping the field it does not know.
    let (_, order) = v1::NewOrder::view_with_header(&new).unwrap();
    assert_eq!(order.decode(), order_v1(3, 9));
}

#[test]
fn a_frame_the_server_cannot_view_is_skipped_and_the_next_is_read() {
    let mut codec = WireCodec::new();
    let mut wire = BytesMut::new();
    codec
        .encode(
            &Cancel {
                client_order_id: 1,
                sent_ns: 2,
            },
            &mut wire,
        )
        .unwrap();
    // Template 9: no variant of `Inbound`.
    wire[LENGTH_PREFIX_LEN + 2] = 9;
    codec.encode(&order_v2(5, 0), &mut wire).unwrap();
    let first = codec.decode(&mut wire).unwrap().unwrap();
    let second = codec.decode(&mut wire).unwrap().unwrap();
    assert!(matches!(
        Inbound::view(&first).unwrap_err().kind(),
        ErrorKind::UnexpectedTemplate { template_id: 9, .. }
    ));
    assert!(
        matches!(Inbound::view(&second).unwrap().1, InboundView::New(o) if o.client_order_id() == 5)
    );
}

#[test]
fn login_prints_annotated_bytes_and_honest_sizes() {
    let login = login::run().unwrap();
    assert_eq!(login.request_len(), 42);
    assert_eq!(login.json.len(), 56);
    assert_eq!(
        login.json,
        r#"{"username":"hpn_user","password":"secure_password_123"}"#
    );
    assert_eq!(login.protobuf.len(), 31);
    assert_eq!(&login.protobuf[..2], &[0x0a, 8]);

    let rows = annotate_with_header(LoginRequest::SCHEMA, &login.request);
    let fields: Vec<(usize, usize, &str)> = rows
        .iter()
        .map(|r| (r.offset, r.len, r.field.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            (0, 2, "header: block length"),
            (2, 2, "header: template id"),
            (4, 2, "header: schema id"),
            (6, 2, "header: version"),
            (8, 2, "block length"),
            (10, 4, "username"),
            (14, 4, "password"),
            (18, 5, "mfa_token"),
            (23, 8, "username (tail)"),
            (31, 19, "password (tail)"),
        ]
    );
    let dump = render(&rows, &login.request);
    assert!(dump.contains("\"secure_password_123\""), "{dump}");

    let text = login.to_string();
    assert!(text.contains("JSON       56 B"), "{text}");
    assert!(text.contains("Protobuf   31 B"), "{text}");

    // The server's check runs on the view.
    let mut wrong = sample_request();
    wrong.password = "guess".into();
    let mut bytes = Vec::new();
    wrong.encode_with_header(&mut bytes).unwrap();
    assert_eq!(
        answer(&bytes).unwrap().status,
        LoginStatus::InvalidCredentials
    );
}

#[test]
fn raw_struct_hazards_show_padding_endianness_and_versions() {
    let h = hazards::run().unwrap();
    assert_eq!(std::mem::size_of::<RawPadded>(), 12);
    assert_eq!(h.raw_padded.len(), 12);
    assert_eq!(h.raw_padded.iter().filter(|b| b.is_none()).count(), 6);
    assert_eq!(h.wire_padded, [0x01, 0x78, 0x56, 0x34, 0x12, 0x02]);
    if cfg!(target_endian = "little") {
        assert_eq!(
            image_hex(&h.raw_padded),
            "01 __ __ __ 78 56 34 12 02 __ __ __"
        );
    }
    assert_eq!(h.native_word, 0x1234_5678u32.to_ne_bytes());
    assert_eq!((h.v1_bytes.len(), h.v2_bytes.len()), (20, 52));
    assert!(hazards::raw_v2_read(&h.v1_bytes).is_none());
    let view = hazards::v2::LoginRequest::view(&h.v1_bytes).unwrap();
    assert_eq!(
        (view.user_id(), view.has_email(), view.version()),
        (7, false, 1)
    );
    let text = h.to_string();
    assert!(text.contains("has_email false, version 1"), "{text}");
}
