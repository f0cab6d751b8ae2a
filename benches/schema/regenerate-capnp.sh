#!/usr/bin/env bash
# Regenerates benches/src/formats/generated/peers_capnp.rs from peers.capnp (the
# capnp peer, issue 32). Run by hand after changing the schema, then commit the
# file: neither the build nor CI needs the capnp compiler.
#
# The generated code must come from the capnpc release that matches the `capnp`
# runtime crate pinned in the workspace's Cargo.toml (=0.27.3): capnpc 0.27.0, run
# by a throwaway crate in a temporary directory (capnpc's `CompilerCommand`, which
# runs `capnp compile -o-` and generates the Rust code in process). The throwaway
# crate is needed for one option the `capnpc-rust` plugin binary does not take:
# the parent module (`formats`), so that the generated code's paths are
# `crate::formats::peers_capnp::...`, where src/formats/mod.rs includes it.
# Needs the schema compiler (`apt-get install capnproto`; 0.9.2 here) and cargo.
set -euo pipefail

CAPNPC_VERSION=0.27.0
CAPNP_VERSION=0.27.3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(cd "$here/.." && pwd)/src/formats/generated"

command -v capnp >/dev/null || {
    echo "regenerate-capnp.sh: need the capnp schema compiler (apt-get install capnproto)" >&2
    exit 1
}

gen="$(mktemp -d)"
trap 'rm -rf "$gen"' EXIT
mkdir -p "$gen/src"
cat >"$gen/Cargo.toml" <<EOF
[package]
name = "peers-capnp-codegen"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
capnpc = "=$CAPNPC_VERSION"
capnp = "=$CAPNP_VERSION"

[workspace]
EOF
cat >"$gen/src/main.rs" <<'EOF'
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (schema_dir, out) = (&args[1], &args[2]);
    capnpc::CompilerCommand::new()
        .src_prefix(schema_dir)
        .file(format!("{schema_dir}/peers.capnp"))
        .output_path(out)
        .default_parent_module(vec!["formats".into()])
        .run()
        .expect("capnp compile");
}
EOF

mkdir -p "$out"
CARGO_TARGET_DIR="$gen/target" cargo run --quiet --manifest-path "$gen/Cargo.toml" -- "$here" "$out"
echo "wrote $out/peers_capnp.rs (capnpc $CAPNPC_VERSION, $(capnp --version))"
