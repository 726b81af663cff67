#!/usr/bin/env bash
# Builds the unpacked extension in ext/: core.wasm from ./wasm, the toolchain's own
# wasm_exec.js, and the panel from ui/ with its pinned libraries (ui/vendor, committed; see
# ui/vendor/update.sh). Outputs are git-ignored. ext/page/ is source, not output.
set -euo pipefail
cd "$(dirname "$0")"

GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o ext/core.wasm ./wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" ext/wasm_exec.js
rm -rf ext/panel
mkdir -p ext/panel/vendor
cp ui/index.html ui/overlay.html ui/*.js ui/panel.css ext/panel/
cp ui/vendor/marked.js ui/vendor/purify.js ui/vendor/LICENSE-* ext/panel/vendor/
echo "built ext/ (core.wasm: $(stat -c %s ext/core.wasm) bytes)"
