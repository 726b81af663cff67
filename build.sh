#!/usr/bin/env bash
# Builds the unpacked extension in ext/: core.wasm from ./wasm, the toolchain's own
# wasm_exec.js, core-build.js (core.wasm's hash), and the panel from ui/ with its pinned
# libraries (ui/vendor, committed; see ui/vendor/update.sh) and its catalogs (ui/_locales). Outputs are git-ignored. ext/page/ is source, not output.
set -euo pipefail
cd "$(dirname "$0")"

GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o ext/core.wasm ./wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" ext/wasm_exec.js
# The worker keeps its copy of core.wasm in the Cache API under this build's hash (ext/sw.js).
echo "globalThis.skiffCoreBuild = \"$(sha256sum ext/core.wasm | cut -c1-16)\";" > ext/core-build.js
rm -rf ext/panel
mkdir -p ext/panel/vendor
cp ui/index.html ui/overlay.html ui/pdf.html ui/*.js ui/panel.css ext/panel/
cp ui/vendor/marked.js ui/vendor/purify.js ui/vendor/pdf.min.mjs ui/vendor/pdf.worker.min.mjs ui/vendor/LICENSE-* ext/panel/vendor/
cp -r ui/vendor/katex ui/vendor/highlight ext/panel/vendor/
# The catalogs (the manifest's and menus' names through Chrome, every page's words through
# ui/i18n.js, the worker's through internal/i18n); skiffd's web client embeds the same files.
rm -rf ext/_locales
cp -r ui/_locales ext/_locales
echo "built ext/ (core.wasm: $(stat -c %s ext/core.wasm) bytes)"
