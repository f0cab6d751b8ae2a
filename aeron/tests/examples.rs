//! The example programs with small counts: the market-data fan-out to subscriber
//! processes and the order round trip with a version 1 and a version 2 client
//! process, over IPC and UDP.

use std::path::Path;
use std::time::Duration;
use wiremsg_aeron::Transport;
use wiremsg_aeron::{feed, orders};
use wiremsg_examples::session::SessionConfig;

fn fan_out(transport: Transport) {
    let config = feed::Config {
        session: SessionConfig {
            messages: 3_000,
            symbols: 40,
            seed: 5,
        },
        transport,
        subscribers: 2,
        rate: 0,
        timeout: Duration::from_secs(60),
        aeron_dir: None,
    };
    let exe = Path::new(env!("CARGO_BIN_EXE_aeron_market_data"));
    let report = feed::run(&config, exe).unwrap();
    assert!(report.all_equal(), "{report}");
    assert_eq!(report.publish.messages, 3_001); // the session and the check
    assert_eq!((report.publish.claimed, report.publish.offered), (3_000, 1));
    // 40 instruments: the check is longer than one frame, so it was reassembled.
    assert_eq!(report.check_bytes, 8 + 30 + 2 + 40 * 66);
    assert!(report.check_bytes > report.max_claim);
    assert_eq!(report.subscribers.len(), 2);
    for (i, s) in report.subscribers.iter().enumerate() {
        assert_eq!(s.index, i as u64);
        assert_eq!(
            (s.messages, s.gaps, s.missed, s.stale, s.bad),
            (3_000, 0, 0, 0, 0)
        );
        assert_eq!(s.digest, report.digest);
        assert_eq!(s.check_bytes, report.check_bytes as u64);
        assert_eq!(s.latency.count, 3_000);
        assert!(s.latency.p50 > 0 && s.latency.p50 <= s.latency.max);
    }
}

#[test]
fn market_data_fans_out_to_subscriber_processes_over_ipc() {
    fan_out(Transport::Ipc);
}

#[test]
fn market_data_fans_out_to_subscriber_processes_over_udp() {
    fan_out(Transport::Udp);
}

fn round_trips(transport: Transport) {
    let config = orders::Config {
        transport,
        orders: 600,
        timeout: Duration::from_secs(60),
        aeron_dir: None,
    };
    let exe = Path::new(env!("CARGO_BIN_EXE_aeron_order_gateway"));
    let report = orders::run(&config, exe).unwrap();
    assert!(report.all_ok(), "{report}");
    let [v1, v2] = [&report.gateway[0], &report.gateway[1]];
    // Version 1 orders arrive as version 1 and read time in force as the default.
    assert_eq!(v1.by_header_version, [0, 600, 0]);
    assert_eq!(v1.first_order, Some((37, 1, 1)));
    assert_eq!((v1.with_time_in_force, v1.day), (0, 600));
    assert_eq!(v2.by_header_version, [0, 0, 600]);
    assert_eq!(v2.first_order, Some((38, 2, 2)));
    // Version 2 orders cycle Day, GTC, IOC; IOC orders are cancelled at once.
    assert_eq!(
        (v2.day, v2.good_till_cancel, v2.immediate_or_cancel),
        (200, 200, 200)
    );
    // Every fourth order is cancelled if it rests: all of v1's, v2's that are not IOC.
    assert_eq!((v1.cancels, v2.cancels), (150, 100));
    assert_eq!(report.bad_requests, 0);
    for (client, version) in report.clients.iter().zip([1, 2]) {
        assert_eq!(client.version, version);
        assert_eq!((client.orders, client.version_echoed), (600, 600));
        assert_eq!(client.round_trip.count, 600);
        assert!(client.round_trip.p50 > 0 && client.round_trip.p50 <= client.round_trip.max);
    }
}

#[test]
fn orders_round_trip_with_v1_and_v2_client_processes_over_ipc() {
    round_trips(Transport::Ipc);
}

#[test]
fn orders_round_trip_with_v1_and_v2_client_processes_over_udp() {
    round_trips(Transport::Udp);
}

#[test]
fn wire_cost_measures_the_messages_the_examples_send() {
    let session = SessionConfig {
        messages: 2_000,
        symbols: 20,
        seed: 3,
    };
    let cost = feed::wire_cost(session);
    let messages: Vec<wiremsg_examples::itch::Feed> =
        wiremsg_examples::session::Session::new(session).collect();
    let bytes: usize = messages.iter().map(|m| m.wire_len()).sum();
    assert_eq!(cost.messages, 2_000);
    assert_eq!(cost.bytes, bytes as f64 / 2_000.0);
    assert!(cost.encode_ns > 0.0 && cost.view_ns > 0.0, "{cost}");
    let (new_order, report) = orders::wire_costs();
    // Version 2 new order: 8-byte header and 38-byte block; execution report: 8 + 49.
    assert_eq!((new_order.messages, new_order.bytes), (10_000, 46.0));
    assert_eq!((report.messages, report.bytes), (10_000, 57.0));
}
