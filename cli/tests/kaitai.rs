//! Cross-language: `.ksy` files written by `wiremsg export --ksy`, compiled to Python
//! by Kaitai Struct's compiler, read every golden vector of FORMAT.md, a v1 message
//! through the v2 schema and the reverse, a message behind its header, and a stream
//! recorded by the market_data example (described by its own schema frame), with
//! every value equal to what `wiremsg json` reads (`tests/kaitai/check.py` compares).
//!
//! Needs `node` with `tests/kaitai/node_modules` (`npm ci` there) and a Python with
//! the `kaitaistruct` runtime (`WIREMSG_KAITAI_PYTHON`, default
//! `target/kaitai-venv/bin/python`): `cli/tests/kaitai/run.sh` installs both and runs
//! this test. Without them each test says so and passes, unless
//! `WIREMSG_KAITAI=required` (as in CI), when it fails.

#[path = "../../wiremsg/tests/common/golden.rs"]
mod format_golden;
use format_golden::golden;
use std::path::{Path, PathBuf};
use std::process::Command;

fn kaitai_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kaitai")
}

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../wiremsg/tests/schemas/golden/{name}.wms"))
}

/// The Python that has `kaitaistruct`, if node, the compiler and it are installed.
fn python() -> Option<PathBuf> {
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
    match missing {
        None => Some(python),
        Some(why) if std::env::var("WIREMSG_KAITAI").as_deref() == Ok("required") => {
            panic!("the Kaitai cross-language test cannot run: {why}")
        }
        Some(why) => {
            eprintln!("skipped: {why}; cli/tests/kaitai/run.sh installs what it needs");
            None
        }
    }
}

/// A fresh directory for one case's files.
fn scratch(case: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wiremsg-kaitai-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

    let schema_file = match schema {
        Some(path) => path.to_owned(),
        // The first frame is a schema frame: its message is a schema file's bytes.
        None => {
            let len = u32::from_le_bytes(input[..4].try_into().unwrap()) as usize;
            let path = dir.join("stream.wms");
            std::fs::write(&path, &input[4..4 + len]).unwrap();
            path
        }
    };
    let schema_json = dir.join("schema.json");
    std::fs::write(&schema_json, wiremsg(&[&"schema", &"--json", &schema_file])).unwrap();
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"json"];
    if let Some(path) = &schema {
        args.extend([&"-s" as &dyn AsRef<std::ffi::OsStr>, path]);
    }
    args.extend(flags);
    args.push(&bin);
    let expected = dir.join("expected.json");
    std::fs::write(&expected, wiremsg(&args)).unwrap();

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
fn python_reads_every_golden_vector_as_wiremsg_does() {
    let Some(python) = python() else { return };
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
    ] {
        check(
            &python,
            vector,
            Some(&schema(schema_name)),
            Root::Message(ty),
            &golden(vector),
        );
    }
}

#[test]
fn python_reads_older_bytes_through_the_newer_schema_and_the_reverse() {
    let Some(python) = python() else { return };
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
fn python_reads_a_header_and_frames() {
    let Some(python) = python() else { return };
    check(
        &python,
        "E8",
        Some(&schema("E8")),
        Root::Header,
        &golden("E8"),
    );
    // F2 describes itself: the `.ksy` comes from its schema frame, which Python skips.
    check(&python, "F2", None, Root::Frames, &golden("F2"));
}

#[test]
fn python_reads_a_recorded_stream_as_wiremsg_does() {
    use wiremsg_examples::session::SessionConfig;
    let Some(python) = python() else { return };
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
