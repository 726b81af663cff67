#!/usr/bin/env bash
# Builds the unpacked extension in ext/: core.wasm from ./wasm, the toolchain's own
# wasm_exec.js, and the panel from ui/. Outputs are git-ignored.
set -euo pipefail
cd "$(dirname "$0")"

GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o ext/core.wasm ./wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" ext/wasm_exec.js
rm -rf ext/panel
mkdir -p ext/panel
cp ui/index.html ui/panel.js ui/panel.css ext/panel/
echo "built ext/ (core.wasm: $(stat -c %s ext/core.wasm) bytes)"
