#!/usr/bin/env bash
# The cross-language test: Python that Kaitai Struct's compiler generates from
# `wiremsg export --ksy` reads the golden vectors of FORMAT.md and a recorded stream
# with every value equal to `wiremsg json` (cli/tests/kaitai.rs, check.py).
#
# Installs what it needs on a fresh machine: node and npm (Debian's packages) if
# absent, the compiler and a YAML parser pinned by package-lock.json (`npm ci`, into
# node_modules beside this script), and a virtualenv with the kaitaistruct runtime
# pinned by requirements.txt (under target/). None of it is a dependency of the Rust
# crates. Then runs the test, which fails if any of it is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../../.."
venv="$PWD/target/kaitai-venv"

apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "kaitai: installing node and npm" >&2
    apt_install nodejs npm
fi
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$venv"; }
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# The tests are #[ignore]d (a plain `cargo test` has none of this installed): run
# them, and only them, here.
WIREMSG_KAITAI_PYTHON="$venv/bin/python" \
    cargo test -p wiremsg-cli --locked --test kaitai -- --ignored
