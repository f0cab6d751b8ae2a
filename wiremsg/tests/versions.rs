//! Cross-version interoperation (FORMAT.md §5): every writer version against every
//! reader version, each version compiled as its own module, for a fixed-size message,
//! a message with strings and lists, and a message whose nested types evolved.

use wiremsg::{ErrorKind, WireMsg};

mod v1 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) note: String,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Level {
        pub(crate) price: i64,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Venue {
        pub(crate) code: u8,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Book {
        pub(crate) levels: Vec<Level>,
        pub(crate) venue: Venue,
        pub(crate) venues: Vec<Venue>,
    }

    /// reference.md R4, version 1.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct LoginRequest {
        pub(crate) user_id: i32,
        pub(crate) username: [u8; 16],
    }
}

mod v2 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
        #[wire(since = 2)]
        pub(crate) venue: u8,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) note: String,
        #[wire(since = 2)]
        pub(crate) tags: Vec<String>,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Level {
        pub(crate) price: i64,
        #[wire(since = 2)]
        pub(crate) orders: u32,
    }

    /// Version 2 adds a string: the venue gets a tail.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Venue {
        pub(crate) code: u8,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Book {
        pub(crate) levels: Vec<Level>,
        pub(crate) venue: Venue,
        pub(crate) venues: Vec<Venue>,
        #[wire(since = 2, default = 100)]
        pub(crate) depth: u16,
    }

    /// reference.md R4, version 2: appends `email`.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct LoginRequest {
        pub(crate) user_id: i32,
        pub(crate) username: [u8; 16],
        #[wire(since = 2)]
        pub(crate) email: [u8; 32],
    }
}

mod v3 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 3)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
        #[wire(since = 2)]
        pub(crate) venue: u8,
        #[wire(since = 3, default = 7)]
        pub(crate) flags: u16,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 3)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) note: String,
        #[wire(since = 2)]
        pub(crate) tags: Vec<String>,
        #[wire(since = 3, default = "n/a")]
        pub(crate) client: String,
    }
}

fn quote_v1() -> v1::Quote {
    v1::Quote {
        price: -5,
        size: 10,
    }
}
fn quote_v2() -> v2::Quote {
    v2::Quote {
        price: -5,
        size: 10,
        venue: 4,
    }
}
fn quote_v3() -> v3::Quote {
    v3::Quote {
        price: -5,
        size: 10,
        venue: 4,
        flags: 9,
    }
}

#[test]
fn fixed_size_message_every_writer_every_reader() {
    let bytes = [
        quote_v1().to_bytes().unwrap(),
        quote_v2().to_bytes().unwrap(),
        quote_v3().to_bytes().unwrap(),
    ];
    assert_eq!(bytes.iter().map(Vec::len).collect::<Vec<_>>(), [12, 13, 15]);
    assert_eq!(
        (
            v3::Quote::MIN_BLOCK_LENGTH,
            v3::Quote::BLOCK_LENGTH,
            v3::Quote::VERSION
        ),
        (12, 15, 3)
    );
    for (w, b) in bytes.iter().enumerate() {
        let writer = w as u16 + 1;
        // Version 1 reads every writer's fields it knows.
        assert_eq!(v1::Quote::decode(b).unwrap(), quote_v1(), "v1 <- v{writer}");
        assert_eq!(v1::Quote::view(b).unwrap().version(), 1);

        let r2 = v2::Quote::view(b).unwrap();
        assert_eq!((r2.price(), r2.size()), (-5, 10));
        assert_eq!(r2.has_venue(), writer >= 2, "v2 <- v{writer}");
        assert_eq!(r2.venue(), if writer >= 2 { 4 } else { 0 });
        assert_eq!(r2.version(), writer.min(2));

        let r3 = v3::Quote::view(b).unwrap();
        assert_eq!(r3.try_flags(), (writer >= 3).then_some(9));
        assert_eq!(
            r3.flags(),
            if writer >= 3 { 9 } else { 7 },
            "declared default"
        );
        assert_eq!(r3.version(), writer);
        let decoded = v3::Quote::decode(b).unwrap();
        assert_eq!(decoded.venue, if writer >= 2 { 4 } else { 0 });
        assert_eq!(decoded.flags, if writer >= 3 { 9 } else { 7 });
    }
    // A block that ends inside a field is not an older version: it is an error.
    let cut = &bytes[2][..14];
    let err = v3::Quote::view(cut).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 14,
            required: 15,
            version: 3
        }
    );
    assert_eq!(err.path(), "flags");
    // The message says what a writer of the version that added `flags` writes, not a
    // "requirement" that version 1's shorter block would seem to break.
    assert_eq!(
        err.to_string(),
        "block length 14 is too small: a writer of version 3 or later writes at least 15 \
         bytes at byte 0 in `flags`"
    );
    // And a block shorter than version 1's is truncated.
    assert_eq!(
        v3::Quote::view(&bytes[0][..11]).unwrap_err().kind(),
        &ErrorKind::Truncated {
            needed: 12,
            available: 11
        }
    );
}

#[test]
fn in_place_update_of_a_field_the_writer_did_not_know_writes_nothing() {
    let mut old = quote_v1().to_bytes().unwrap();
    let mut edit = v3::Quote::view_mut(&mut old).unwrap();
    assert!(!edit.set_flags(1));
    edit.set_size(11);
    assert_eq!(old.len(), 12);
    assert_eq!(v1::Quote::view(&old).unwrap().size(), 11);
    let mut new = quote_v3().to_bytes().unwrap();
    assert!(v3::Quote::view_mut(&mut new).unwrap().set_flags(1));
    assert_eq!(v3::Quote::view(&new).unwrap().flags(), 1);
}

fn order_v1() -> v1::Order {
    v1::Order {
        id: 9,
        note: "rush".into(),
    }
}
fn order_v2() -> v2::Order {
    v2::Order {
        id: 9,
        note: "rush".into(),
        tags: vec!["a".into(), "bé".into()],
    }
}
fn order_v3() -> v3::Order {
    v3::Order {
        id: 9,
        note: "rush".into(),
        tags: vec!["a".into(), "bé".into()],
        client: "acme".into(),
    }
}

#[test]
fn strings_and_lists_every_writer_every_reader() {
    let bytes = [
        order_v1().to_bytes().unwrap(),
        order_v2().to_bytes().unwrap(),
        order_v3().to_bytes().unwrap(),
    ];
    for (w, b) in bytes.iter().enumerate() {
        let writer = w as u16 + 1;
        assert_eq!(v1::Order::decode(b).unwrap(), order_v1(), "v1 <- v{writer}");
        let r1 = v1::Order::view(b).unwrap();
        assert_eq!(r1.note(), "rush");

        let r2 = v2::Order::view(b).unwrap();
        assert_eq!(r2.note(), "rush");
        assert_eq!(r2.tags().len(), if writer >= 2 { 2 } else { 0 });
        assert_eq!(r2.try_tags().map(|t| t.len()), (writer >= 2).then_some(2));

        let r3 = v3::Order::view(b).unwrap();
        assert_eq!(r3.client(), if writer >= 3 { "acme" } else { "n/a" });
        assert_eq!(r3.version(), writer);
        let d3 = v3::Order::decode(b).unwrap();
        assert_eq!(d3.tags.len(), if writer >= 2 { 2 } else { 0 });
        assert_eq!(d3.client, if writer >= 3 { "acme" } else { "n/a" });
    }
    // An older reader's view ends where its fields' data ends: a newer writer's
    // extra tail data is skipped.
    let r1 = v1::Order::view(&bytes[2]).unwrap();
    assert!(r1.as_bytes().unwrap().len() < bytes[2].len());
}

#[test]
fn nested_messages_that_evolved_in_lists_and_inline() {
    let book_v1 = v1::Book {
        levels: vec![v1::Level { price: 1 }, v1::Level { price: 2 }],
        venue: v1::Venue { code: 3 },
        venues: vec![v1::Venue { code: 4 }],
    };
    let book_v2 = v2::Book {
        levels: vec![
            v2::Level {
                price: 1,
                orders: 10,
            },
            v2::Level {
                price: 2,
                orders: 20,
            },
        ],
        venue: v2::Venue { code: 3 },
        venues: vec![v2::Venue { code: 4 }],
        depth: 5,
    };
    let old = book_v1.to_bytes().unwrap();
    let new = book_v2.to_bytes().unwrap();
    // Old reader, new bytes: each level is 12 bytes now (the stride says so) and the
    // old reader steps over the 4 bytes it does not know.
    let r1 = v1::Book::view(&new).unwrap();
    assert_eq!(r1.levels().get(1).unwrap().price(), 2);
    assert_eq!(v1::Book::decode(&new).unwrap(), book_v1);
    // New reader, old bytes: 8-byte levels read with `orders` absent.
    let r2 = v2::Book::view(&old).unwrap();
    let level = r2.levels().get(1).unwrap();
    assert_eq!(
        (level.price(), level.has_orders(), level.orders()),
        (2, false, 0)
    );
    assert_eq!(r2.depth(), 100);
    assert_eq!(r2.venues().get(0).unwrap().code(), 4);
    let decoded = v2::Book::decode(&old).unwrap();
    assert_eq!(decoded.levels[1].orders, 0);
    assert_eq!(decoded.depth, 100);
    assert_eq!(v2::Book::decode(&new).unwrap(), book_v2);
}

#[test]
fn r4_v2_server_reads_a_v1_client_login_without_crashing() {
    let mut username = [0u8; 16];
    username[..4].copy_from_slice(b"binh");
    let v1_bytes = v1::LoginRequest {
        user_id: 7,
        username,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1_bytes.len(), 20);
    let view = v2::LoginRequest::view(&v1_bytes).unwrap();
    assert_eq!(view.user_id(), 7);
    assert!(!view.has_email());
    assert!(view.try_email().is_none());
    assert_eq!(view.version(), 1);
    assert_eq!(
        v2::LoginRequest::decode(&v1_bytes).unwrap(),
        v2::LoginRequest {
            user_id: 7,
            username,
            email: [0; 32]
        }
    );

    let mut email = [0u8; 32];
    email[..7].copy_from_slice(b"b@x.vn\0");
    let v2_bytes = v2::LoginRequest {
        user_id: 7,
        username,
        email,
    }
    .to_bytes()
    .unwrap();
    let old_server = v1::LoginRequest::view(&v2_bytes).unwrap();
    assert_eq!(old_server.user_id(), 7);
    let new_server = v2::LoginRequest::view(&v2_bytes).unwrap();
    assert_eq!(&new_server.try_email().unwrap().as_bytes()[..6], b"b@x.vn");
}

/// A removed field keeps its slot: old readers still find the fields after it.
mod removed {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Before {
        pub(crate) a: u32,
        pub(crate) legacy: u16,
        pub(crate) b: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct After {
        pub(crate) a: u32,
        #[wire(reserved)]
        pub(crate) legacy: u16,
        pub(crate) b: String,
    }
}

#[test]
fn reserved_fields_keep_their_slot() {
    let after = removed::After {
        a: 1,
        legacy: 99,
        b: "x".into(),
    };
    let bytes = after.to_bytes().unwrap();
    let old = removed::Before::decode(&bytes).unwrap();
    assert_eq!(
        old,
        removed::Before {
            a: 1,
            legacy: 0,
            b: "x".into()
        }
    );
    assert_eq!(removed::After::decode(&bytes).unwrap().legacy, 0);
    let schema = removed::After::SCHEMA;
    assert!(schema.fields[1].reserved);
}

#[test]
fn schema_descriptor_records_versions() {
    let schema = v3::Quote::SCHEMA;
    assert_eq!((schema.version, schema.min_block_length), (3, 12));
    let since: Vec<u16> = schema.fields.iter().map(|f| f.since).collect();
    assert_eq!(since, [1, 1, 2, 3]);
}
