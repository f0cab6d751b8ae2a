//! The `wiremsg` binary end to end: on the golden vectors of FORMAT.md with their
//! committed schema files, on a stream recorded by the market_data example, and on
//! truncated and corrupted input (partial output, the error, a non-zero exit status,
//! never a panic).

#[path = "../../wiremsg/tests/common/golden.rs"]
mod format_golden;
use format_golden::golden;
mod common;
use common::{golden_schema, scratch, wiremsg};
use std::path::{Path, PathBuf};
use std::process::Output;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exit status")
}

#[test]
fn schema_lists_messages_fields_and_enums() {
    let out = wiremsg(&[&"schema", &golden_schema("E5")]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.contains("message Fill (version 1, block length 16, fixed size)"),
        "{text}"
    );
    assert!(
        text.contains("@0      5 bytes  qty                  Option<u32>"),
        "{text}"
    );
    // One byte is "1 byte".
    assert!(
        text.contains("@14     1 byte   liquidity            Liquidity"),
        "{text}"
    );
    assert!(text.contains("enum Liquidity: u8 { Added = 1, Removed = 2 }, other values: Other"));

    // The JSON form reads back as the same schema (its listing is the same).
    let dir = scratch("schema");
    let json = wiremsg(&[&"schema", &"--json", &golden_schema("E5")]);
    let path = write(&dir, "e5.json", &json.stdout);
    assert_eq!(stdout(&wiremsg(&[&"schema", &path])), text);
}

#[test]
fn schema_lists_unions_with_their_tags_and_payloads() {
    let out = wiremsg(&[&"schema", &golden_schema("E11")]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "\nunion OrderInstr: u8 { Market = 0, Limit = 1 (Limit), Stop = 2 (OrderInstrStop) }, \
             other tags: Other\n"
        ),
        "{text}"
    );
}

#[test]
fn dump_and_json_read_every_golden_vector() {
    let cases: [(&str, &str, &[&str]); 8] = [
        ("E2", "Tick", &["symbol", "\"AAPL\""]),
        (
            "E3",
            "LoginRequest",
            &["username (tail)", "\"hpn_user\"", "absent; its region"],
        ),
        ("E4", "Book", &["quotes (tail)", "stride 6", "\"XNAS\""]),
        ("E5", "Fill", &["Other(7)", "absent (zeroed)"]),
        (
            "E6",
            "Sample",
            &["Vec<Venue>, 23 bytes", "1267650600228229401496703205376"],
        ),
        ("E10", "TopLevel", &["123.4500", "\"NQ\""]),
        (
            "E14",
            "Book",
            &[
                "BTreeMap<String, u8>, 2 entries, 24 bytes",
                "stride 6",
                "\"a\"",
            ],
        ),
        (
            "E16",
            "Batch",
            &[
                "stride 13: 3 elements of 13 bytes",
                "tag 5 (Cancel), block length 2",
                "12 bytes up to the stride, not read",
                "entry 0: tag 0, Heartbeat",
            ],
        ),
    ];
    let dir = scratch("golden");
    for (name, ty, expected) in cases {
        let input = write(&dir, &format!("{name}.bin"), &golden(name));
        let out = wiremsg(&[&"dump", &"-s", &golden_schema(name), &"-t", &ty, &input]);
        let text = stdout(&out);
        assert_eq!(code(&out), 0, "{name}: {text}");
        for needle in expected {
            assert!(text.contains(needle), "{name}: `{needle}` not in\n{text}");
        }
        let out = wiremsg(&[&"json", &"-s", &golden_schema(name), &"-t", &ty, &input]);
        assert_eq!(code(&out), 0, "{name}");
        assert!(stdout(&out).starts_with('{'), "{name}");
    }
    let e10 = write(&dir, "e10.bin", &golden("E10"));
    let out = wiremsg(&[&"json", &"-s", &golden_schema("E10"), &e10]);
    let json = stdout(&out).split_whitespace().collect::<String>();
    assert_eq!(
        json,
        r#"{"symbol":"NQ","bid":null,"ask":"123.4500","size":300,"venues":[1,2]}"#
    );

    // E8 carries its header: the type comes from its template id.
    let e8 = write(&dir, "e8.bin", &golden("E8"));
    let out = wiremsg(&[&"dump", &"-s", &golden_schema("E8"), &"--header", &e8]);
    let text = stdout(&out);
    assert!(text.contains("header: template id      1"), "{text}");
    assert!(text.contains("\"MSFT\""), "{text}");
}

#[test]
fn dump_of_cut_and_corrupted_bytes_shows_the_parts_before_the_fault_then_the_error() {
    let dir = scratch("corrupt");
    let bytes = golden("E4");
    let cut = write(&dir, "cut.bin", &bytes[..30]);
    let out = wiremsg(&[&"dump", &"-s", &golden_schema("E4"), &"-t", &"Book", &cut]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("levels (tail)"), "{text}");
    assert!(
        text.ends_with("error: truncated: needs 38 bytes, has 30 at byte 8 in `quotes`\n"),
        "{text}"
    );
    // Every cut and a change of every byte: exit status 0 or 1, an error line
    // whenever it is 1, and never a panic (checked by `wiremsg`).
    let mut failures = 0;
    for variant in (0..bytes.len())
        .map(|len| bytes[..len].to_vec())
        .chain((0..bytes.len()).map(|at| {
            let mut b = bytes.clone();
            b[at] ^= 0xa5;
            b
        }))
    {
        let input = write(&dir, "variant.bin", &variant);
        let out = wiremsg(&[&"dump", &"-s", &golden_schema("E4"), &"-t", &"Book", &input]);
        match code(&out) {
            0 => {}
            1 => {
                failures += 1;
                assert!(stdout(&out).contains("error: "), "{}", stdout(&out));
            }
            other => panic!("exit status {other}"),
        }
    }
    assert!(failures > bytes.len(), "{failures}");
    // JSON of bad bytes: nothing on standard output, the error on standard error.
    let out = wiremsg(&[&"json", &"-s", &golden_schema("E4"), &"-t", &"Book", &cut]);
    assert_eq!((code(&out), stdout(&out).as_str()), (1, ""));
    assert!(String::from_utf8_lossy(&out.stderr).contains("in `quotes`"));
}

#[test]
fn compat_reports_and_fails_on_breaking_changes() {
    let out = wiremsg(&[&"compat", &golden_schema("E7-v1"), &golden_schema("E7")]);
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).starts_with("3 changes, 0 breaking"),
        "{}",
        stdout(&out)
    );
    let releases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wiremsg/tests/schemas");
    let out = wiremsg(&[
        &"compat",
        &releases.join("release-v1.wms"),
        &releases.join("release-v2.wms"),
    ]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("BREAKING  BREAKING  Alert: first variable-size field"),
        "{text}"
    );
}

#[test]
fn cat_and_json_read_a_recorded_stream_and_stop_at_a_cut() {
    use wiremsg_examples::session::SessionConfig;
    let dir = scratch("stream");
    let frames = dir.join("feed.frames");
    let session = SessionConfig {
        messages: 200,
        symbols: 20,
        seed: 7,
    };
    wiremsg_examples::market_data::record(session, &frames).unwrap();
    let schema = dir.join("feed.frames.wms");

    // The recording describes itself (a schema frame first): with the schema file or
    // without it, the same lines.
    let out = wiremsg(&[&"cat", &"-s", &schema, &frames]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(stdout(&wiremsg(&[&"cat", &frames])), text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 201);
    assert!(
        lines[0].starts_with("#0 @0 schema: AddOrder t2 s1 v1 fingerprint "),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains(", SystemEvent t1 s1 v1 fingerprint "),
        "{}",
        lines[0]
    );
    let first = format!(
        "#1 @{} t1 v1 SystemEvent {{ sequence: 1, timestamp_ns: ",
        4 + schema_frame_len(&frames)
    );
    assert!(lines[1].starts_with(&first), "{}", lines[1]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("201 frames (1 schema)"));

    for with_schema in [true, false] {
        let out = if with_schema {
            wiremsg(&[&"json", &"-s", &schema, &"--frames", &frames])
        } else {
            wiremsg(&[&"json", &"--frames", &frames])
        };
        assert_eq!(code(&out), 0);
        let sequences: Vec<String> = stdout(&out)
            .lines()
            .map(|l| l.split(',').next().unwrap().to_owned())
            .collect();
        assert_eq!(sequences.len(), 200);
        assert_eq!(sequences[199], r#"{"sequence":200"#);
    }

    // A stream cut inside a frame: every whole frame, then the error.
    let bytes = std::fs::read(&frames).unwrap();
    let cut = write(&dir, "cut.frames", &bytes[..bytes.len() - 3]);
    let out = wiremsg(&[&"cat", &"-s", &schema, &cut]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 201);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("error: the stream breaks: stream ended inside a frame"),
        "{last}"
    );
    // At the start of the cut frame, counted from the start of the stream (once).
    let mut start = 0;
    while start + 4 + frame_len(&bytes[start..]) <= bytes.len() - 3 {
        start += 4 + frame_len(&bytes[start..]);
    }
    assert!(last.ends_with(&format!(" at byte {start}")), "{last}");
}

/// The length prefix of the frame at the start of `bytes`.
fn frame_len(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize
}

#[test]
fn usage_errors_exit_with_status_2() {
    let out = wiremsg(&[&"schema", &"/nonexistent.wms"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.wms"));
    let out = wiremsg(&[
        &"schema",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"),
    ]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a schema file"));
    let help = wiremsg(&[&"--help"]);
    assert!(stdout(&help).contains("Examples:"));
    // Several messages and no --type: the command says what to do.
    let dir = scratch("usage");
    let input = write(&dir, "e4.bin", &golden("E4"));
    let out = wiremsg(&[&"dump", &"-s", &golden_schema("E4"), &input]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--type"));
}

/// The length `L` of the first frame of the file at `path`.
fn schema_frame_len(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn cat_and_json_read_a_self_describing_stream_without_a_schema_file() {
    let dir = scratch("self-describing");
    let f2 = write(&dir, "f2.frames", &golden("F2"));
    let out = wiremsg(&[&"cat", &f2]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "#0 @0 schema: Ping t1 s0 v1 fingerprint ba99f373cf3947a7\n#1 @117 t1 v1 Ping { seq: 9 }\n"
    );
    assert_eq!(
        stderr(&out),
        "wiremsg: 2 frames (1 schema), 133 bytes, 0 bad\n"
    );
    let out = wiremsg(&[&"json", &"--frames", &f2]);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "{\"seq\":9}\n"));

    // A message of a type no schema frame described: an error of that frame.
    let mut bytes = golden("F2");
    bytes.extend(golden("F1"));
    let mixed = write(&dir, "mixed.frames", &bytes);
    let out = wiremsg(&[&"cat", &mixed]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out).lines().last().unwrap(),
        "#2 @133 error: no schema frame describes template id 3 (schema 7) at byte 139"
    );
    // ... which --schema can supply: it serves the types it has.
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 3, schema_id = 7)]
    struct Text {
        body: String,
    }
    let text = dir.join("text.wms");
    wiremsg::SchemaSet::of::<Text>()
        .unwrap()
        .write_file(&text)
        .unwrap();
    let out = wiremsg(&[&"cat", &"-s", &text, &mixed]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out).lines().last().unwrap(),
        "#2 @133 t3 v1 Text { body: \"halt\" }"
    );
}

#[test]
fn a_stream_with_neither_schema_frames_nor_a_schema_file_cannot_be_read() {
    let dir = scratch("neither");
    let f1 = write(&dir, "f1.frames", &golden("F1"));
    for args in [vec!["cat"], vec!["json", "--frames"]] {
        let mut all: Vec<&dyn AsRef<std::ffi::OsStr>> = args
            .iter()
            .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
            .collect();
        all.push(&f1);
        let out = wiremsg(&all);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "wiremsg: {}: no schema: the stream has no schema frame before its first message (FORMAT.md §12); give its schema file with --schema\n",
                f1.display()
            )
        );
        assert_eq!(stdout(&out), "");
    }
    // One message and no stream: --schema is needed.
    let out = wiremsg(&[&"json", &f1]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("json needs --schema FILE"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_schema_file_wins_over_the_stream_for_its_types_and_says_so() {
    // Another `Ping` under template id 1: `seq` is a u64.
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 1)]
    struct Ping {
        seq: u64,
    }
    let dir = scratch("both");
    let other = dir.join("ping-u64.wms");
    let set = wiremsg::SchemaSet::of::<Ping>().unwrap();
    set.write_file(&other).unwrap();
    let f2 = write(&dir, "f2.frames", &golden("F2"));
    let out = wiremsg(&[&"cat", &"-s", &other, &f2]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        format!(
            "#0 @0 schema: Ping t1 s0 v1 fingerprint ba99f373cf3947a7 (read with --schema's Ping t1 s0 v1 fingerprint {})\n\
             #1 @117 error: block length 4 is too small: a writer of version 1 or later writes at least 8 bytes at byte 121\n",
            set.fingerprint()
        )
    );
}

#[test]
fn a_bad_schema_frame_is_reported_and_the_stream_goes_on() {
    let dir = scratch("bad-schema-frame");
    let s1 = golden("S1");
    let mut bytes = (60u32).to_le_bytes().to_vec();
    bytes.extend_from_slice(&s1[..60]);
    bytes.extend(golden("F2"));
    let input = write(&dir, "bad.frames", &bytes);
    let out = wiremsg(&[&"cat", &input]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "#0 @0 error: bad schema frame: truncated: needs 94 bytes, has 52 at byte 14 in `messages`\n\
         #1 @64 schema: Ping t1 s0 v1 fingerprint ba99f373cf3947a7\n\
         #2 @181 t1 v1 Ping { seq: 9 }\n"
    );
    // dump --frames annotates a schema frame as the schema message it is.
    let out = wiremsg(&[
        &"dump",
        &"-s",
        &golden_schema("E8"),
        &"--frames",
        &write(&dir, "f2.frames", &golden("F2")),
    ]);
    let text = stdout(&out);
    assert!(text.contains("header: template id      65535"), "{text}");
    assert!(text.contains("\"Ping\""), "{text}");
}

#[test]
fn dump_frames_reads_a_self_describing_stream_without_a_schema_file() {
    let dir = scratch("dump-frames");
    let f2 = write(&dir, "f2.frames", &golden("F2"));
    let out = wiremsg(&[&"dump", &"--frames", &f2]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("frame 0 at byte 0: schema frame, length 113"),
        "{text}"
    );
    assert!(text.contains("frame 1 at byte 117: length 12"), "{text}");
    assert!(
        text.contains(
            "     8  09 00 00 00                                       seq                      9"
        ),
        "{text}"
    );
}

#[test]
fn a_stream_whose_only_schema_frame_is_bad_is_bad_data_not_a_missing_schema() {
    let dir = scratch("only-schema-frame-bad");
    let f2 = golden("F2");
    let mut bytes = f2.clone();
    bytes[4 + 8 + 64] ^= 0xff; // inside the schema frame: S1's table of Ping's fields
    let input = write(&dir, "bad.frames", &bytes);
    for args in [
        vec!["cat"],
        vec!["json", "--frames"],
        vec!["dump", "--frames"],
    ] {
        let mut all: Vec<&dyn AsRef<std::ffi::OsStr>> = args
            .iter()
            .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
            .collect();
        all.push(&input);
        let out = wiremsg(&all);
        let text = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(code(&out), 1, "{args:?}: {text}");
        assert!(!text.contains("no schema:"), "{args:?}: {text}");
        assert!(
            text.contains(
                "no schema frame describes template id 1 (schema 0) at byte 123 (frame #0 at \
                 byte 0 is a bad schema frame: it may have described it)"
            ),
            "{args:?}: {text}"
        );
    }
}

mod quote_v1 {
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 7)]
    pub(crate) struct Quote {
        pub(crate) px: i64,
    }
}

#[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Tif {
    Day = 0,
    Ioc = 3,
}

#[derive(wiremsg::WireMsg)]
#[wire(template_id = 7, version = 2)]
struct Quote {
    px: i64,
    #[wire(since = 2)]
    size: u32,
    #[wire(since = 2, default = Tif::Ioc)]
    tif: Tif,
}

/// A stream as a writer that described only the first version it sent would have
/// written it: version 1's schema frame, a version 1 frame, a version 2 frame.
fn stream_with_an_undescribed_version() -> Vec<u8> {
    use wiremsg::{FrameWriter, SchemaSet};
    let mut writer = FrameWriter::new(Vec::new());
    writer
        .write_schema(&SchemaSet::of::<quote_v1::Quote>().unwrap())
        .unwrap();
    writer.write(&quote_v1::Quote { px: 1 }).unwrap();
    writer
        .write(&Quote {
            px: 2,
            size: 30,
            tif: Tif::Day,
        })
        .unwrap();
    writer.into_inner()
}

#[test]
fn a_frame_newer_than_its_schema_is_flagged() {
    let dir = scratch("newer-frame");
    let input = write(&dir, "old.frames", &stream_with_an_undescribed_version());
    // Before: both frames printed as version 1's `Quote { px }`, exit 0, "0 bad".
    let warning = "warning: message of template id 7 (schema 0) is version 2, newer than the \
                   version 1 its schema describes: fields added after version 1 are not read";
    let out = wiremsg(&[&"cat", &input]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "#1 @117 t7 v1 Quote { px: 1 }");
    assert_eq!(lines[2], "#2 @137 t7 v2 Quote { px: 2 }");
    assert_eq!(lines[3], format!("#2 @137 {warning} at byte 147"));
    assert_eq!(
        stderr(&out),
        "wiremsg: 3 frames (1 schema), 162 bytes, 0 bad, 1 newer than their schema\n"
    );
    assert_eq!(code(&wiremsg(&[&"cat", &"--strict", &input])), 1);

    let out = wiremsg(&[&"json", &"--frames", &input]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "{\"px\":1}\n{\"px\":2}\n");
    assert!(
        stderr(&out).contains(&format!("wiremsg: frame 2 at byte 137: {warning}")),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        code(&wiremsg(&[&"json", &"--frames", &"--strict", &input])),
        1
    );
    let out = wiremsg(&[&"dump", &"--frames", &"--strict", &input]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains(warning), "{}", stdout(&out));

    // The same messages from a describing writer: a schema frame per version, every
    // field shown, no warning.
    let mut writer = wiremsg::FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&quote_v1::Quote { px: 1 }).unwrap();
    writer
        .write(&Quote {
            px: 2,
            size: 30,
            tif: Tif::Day,
        })
        .unwrap();
    let input = write(&dir, "new.frames", &writer.into_inner());
    let out = wiremsg(&[&"cat", &"--strict", &input]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with("t7 v2 Quote { px: 2, size: 30, tif: Day }\n"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
}

#[test]
fn the_type_is_not_needed_when_one_message_has_a_template_id() {
    #[derive(wiremsg::WireMsg)]
    struct Leg {
        qty: u32,
    }
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 1)]
    struct Basket {
        legs: Vec<Leg>,
    }
    let dir = scratch("one-template");
    let schema = dir.join("basket.wms");
    wiremsg::SchemaSet::of::<Basket>()
        .unwrap()
        .write_file(&schema)
        .unwrap();
    use wiremsg::WireMsg;
    let bytes = Basket {
        legs: vec![Leg { qty: 5 }],
    }
    .to_bytes()
    .unwrap();
    let input = write(&dir, "basket.bin", &bytes);
    // Before: "the schema has several messages: name one with --type".
    let out = wiremsg(&[&"json", &"-s", &schema, &input]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\n  \"legs\": [\n    {\n      \"qty\": 5\n    }\n  ]\n}\n"
    );
    let out = wiremsg(&[&"dump", &"-s", &schema, &input]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The nested message can still be named.
    let out = wiremsg(&[
        &"json",
        &"-s",
        &schema,
        &"-t",
        &"Leg",
        &write(&dir, "leg.bin", &[5, 0, 0, 0]),
    ]);
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "{\n  \"qty\": 5\n}\n")
    );
}

#[test]
fn cat_of_a_schema_file_says_what_it_is() {
    let out = wiremsg(&[&"cat", &golden_schema("E5")]);
    // Before: "frame of 4294901776 bytes is over the maximum frame size".
    assert_eq!(code(&out), 2);
    let text = stderr(&out);
    assert!(
        text.contains("E5.wms: a schema file (FORMAT.md §11), not a file of frames: list it with `wiremsg schema"),
        "{text}"
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn a_corrupted_length_prefix_is_called_implausible() {
    let dir = scratch("implausible");
    let mut bytes = golden("F2");
    let second = bytes.len();
    bytes.extend(&golden("F2")[117..]); // a second Ping frame
    bytes[second + 2] = 0x10; // its length prefix: 12 becomes 1,048,588
    let input = write(&dir, "corrupt.frames", &bytes);
    let out = wiremsg(&[&"cat", &input]);
    assert_eq!(code(&out), 1);
    // Before: "stream ended inside a frame: needs 1048592 bytes, has 16".
    assert_eq!(
        stdout(&out).lines().last().unwrap(),
        "error: the stream breaks: frame 2 at byte 133: length prefix 1048588 is \
         implausible (the largest frame before it has 113 bytes, and the stream ends 12 \
         bytes after the prefix): a corrupted length prefix, or not a file of frames"
    );
    // A stream cut inside a frame of a plausible length is still that.
    let input = write(&dir, "cut.frames", &golden("F2")[..125]);
    let out = wiremsg(&[&"cat", &input]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("the stream breaks: stream ended inside a frame"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn dump_frames_can_leave_schema_frames_out() {
    let dir = scratch("skip-schema-frames");
    let f2 = write(&dir, "f2.frames", &golden("F2"));
    let out = wiremsg(&[&"dump", &"--frames", &"--skip-schema-frames", &f2]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("schema frame"), "{text}");
    assert!(
        text.starts_with("frame 1 at byte 117: length 12 (offsets below from byte 121)\n"),
        "{text}"
    );
    assert!(text.contains("seq                      9"), "{text}");
}

#[test]
fn schema_shows_an_enum_default_by_its_variant() {
    let dir = scratch("enum-default");
    let schema = dir.join("quote.wms");
    wiremsg::SchemaSet::of::<Quote>()
        .unwrap()
        .write_file(&schema)
        .unwrap();
    let out = wiremsg(&[&"schema", &schema]);
    let text = stdout(&out);
    // Before: "default bytes 03".
    assert!(
        text.contains("@12     1 byte   tif                  Tif  since 2  default Ioc\n"),
        "{text}"
    );
}

/// Runs the tool with `args` under `ulimit -v` of its stated bound for `input_len`
/// bytes of input files; stdout discarded.
fn run_within_bound(args: &[&dyn AsRef<std::ffi::OsStr>], input_len: usize) -> Output {
    let limit_kib = (160 * input_len + (32 << 20)) / 1024;
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {limit_kib} && exec \"$0\" \"$@\" > /dev/null"
        ))
        .arg(env!("CARGO_BIN_EXE_wiremsg"))
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .unwrap()
}

/// A schema of one message whose field is `levels` nested pairs of pairs of `u8`:
/// a row per level in the file, twice the types per level in the model.
fn doubling_schema(levels: u32, template_id: u16) -> wiremsg::SchemaSet {
    use std::borrow::Cow;
    use wiremsg::{FieldSchema, MessageSchema, Node, TypeSchema};
    let mut ty = TypeSchema::U8;
    let mut size = 1;
    for _ in 0..levels {
        let half: Node<TypeSchema> = ty.into();
        ty = TypeSchema::Tuple(Cow::Owned(vec![half.clone(), half]));
        size *= 2;
    }
    let message = MessageSchema {
        name: "M".into(),
        version: 1,
        block_length: size,
        min_block_length: size,
        has_block_length: false,
        has_tail: false,
        template_id: Some(template_id),
        schema_id: 0,
        fields: Cow::Owned(vec![FieldSchema {
            name: "x".into(),
            offset: 0,
            size,
            ty: ty.into(),
            since: 1,
            reserved: false,
            default: None,
        }]),
    };
    wiremsg::SchemaSet::from_messages([message]).unwrap()
}

/// The bound stated in `--help` (160 bytes of heap per byte of the input files, plus
/// 32 MiB), enforced on the process (`ulimit -v`, which also counts the binary's own
/// mappings) while each command that reads untrusted files reads a hostile one.
#[test]
fn the_tool_stays_within_its_stated_memory_bound() {
    #[derive(wiremsg::WireMsg)]
    #[wire(template_id = 3)]
    struct Flags {
        flags: Vec<bool>,
    }
    use wiremsg::{FrameWriter, SchemaSet, Template};
    let help = stdout(&wiremsg(&[&"--help"]));
    assert!(
        help.contains("at most 160 bytes of heap per byte of\nits input files, plus 32 MiB"),
        "{help}"
    );
    let dir = scratch("memory");
    let schema = dir.join("flags.wms");
    SchemaSet::of::<Flags>()
        .unwrap()
        .write_file(&schema)
        .unwrap();
    let schema_len = std::fs::metadata(&schema).unwrap().len() as usize;
    let mut bytes = Vec::new();
    Flags {
        flags: vec![true; 1 << 20],
    }
    .encode_with_header(&mut bytes)
    .unwrap();
    let input = write(&dir, "flags.bin", &bytes);
    let len = schema_len + bytes.len();

    // dump: a row per byte, a million of them. Exit status 1: the rows up to the
    // budget, then the error; not killed, not 2.
    let out = run_within_bound(&[&"dump", &"--header", &"-s", &schema, &input], len);
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));

    // json: 6 bytes of text per input byte ("true, "), written as it goes.
    let out = run_within_bound(&[&"json", &"--header", &"-s", &schema, &input], len);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));

    // cat: 300,000 frames of a header and an empty list (a line each), described by
    // a schema frame; then a frame that announces 1 MiB and stops.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    for _ in 0..300_000 {
        writer.write(&Flags { flags: vec![] }).unwrap();
    }
    let mut frames = writer.into_inner();
    frames.extend_from_slice(&(1u32 << 20).to_le_bytes());
    frames.extend_from_slice(&[0; 16]);
    let stream = write(&dir, "flags.frames", &frames);
    let out = run_within_bound(&[&"cat", &stream], frames.len());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 1, "{stderr}");
    assert!(stderr.contains("300,001 frames"), "{stderr}");
    assert!(stderr.contains("then the stream breaks"), "{stderr}");
    let out = run_within_bound(&[&"json", &"--frames", &stream], frames.len());
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));

    // schema and compat: a 604-byte file whose types expand to 16,383 (a row per
    // level of nested pairs), and one that expands past what its bytes allow (a bad
    // input file: exit status 2, the reason given).
    for (levels, status) in [(13, 0), (15, 2)] {
        let set = doubling_schema(levels, 1);
        let file = dir.join(format!("doubling{levels}.wms"));
        std::fs::write(&file, set.to_bytes().unwrap()).unwrap();
        let len = std::fs::metadata(&file).unwrap().len() as usize;
        let out = run_within_bound(&[&"schema", &file], len);
        assert_eq!(
            code(&out),
            status,
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run_within_bound(&[&"schema", &"--json", &file], len);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(code(&out), status, "{stderr}");
        assert_eq!(
            status == 2,
            stderr.contains("expands to more types"),
            "{stderr}"
        );
        let other = dir.join(format!("doubling{levels}-2.wms"));
        std::fs::write(&other, doubling_schema(levels, 2).to_bytes().unwrap()).unwrap();
        let out = run_within_bound(&[&"compat", &file, &other], 2 * len);
        let code = out.status.code().expect("not killed");
        assert!(
            if status == 0 { code <= 1 } else { code >= 1 },
            "{code}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
