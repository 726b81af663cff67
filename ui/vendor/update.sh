#!/usr/bin/env bash
# Re-copies the pinned libraries from npm. The copies are committed, so building Skiff never
# needs npm or the network; run this only to change a version (edit package.json first).
#   ui/vendor/         marked (markdown), DOMPurify (sanitizer): loaded by the panel; pdf.js
#                      (its module and worker): imported by the panel when a PDF is attached;
#                      KaTeX (ui/vendor/katex): imported by markdown.js when a reply holds math;
#                      highlight.js (ui/vendor/highlight): when a reply holds a code block
#   ext/page/vendor/   Readability, Turndown + GFM plugin: injected into the page for page context
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
page="$here/../../ext/page/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/package.json" "$tmp/"
[ -f "$here/package-lock.json" ] && cp "$here/package-lock.json" "$tmp/"
(cd "$tmp" && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
cp "$tmp/package-lock.json" "$here/"
m="$tmp/node_modules"
cp "$m/marked/lib/marked.umd.js" "$here/marked.js"
cp "$m/marked/LICENSE" "$here/LICENSE-marked"
cp "$m/dompurify/dist/purify.min.js" "$here/purify.js"
cp "$m/dompurify/LICENSE" "$here/LICENSE-dompurify"
cp "$m/pdfjs-dist/build/pdf.min.mjs" "$here/pdf.min.mjs"
cp "$m/pdfjs-dist/build/pdf.worker.min.mjs" "$here/pdf.worker.min.mjs"
cp "$m/pdfjs-dist/LICENSE" "$here/LICENSE-pdfjs"
# KaTeX: its UMD build (it sets self.katex when markdown.js imports it), its stylesheet, and
# the woff2 fonts the stylesheet names first (Chrome never asks for the woff or ttf after them).
rm -rf "$here/katex"
mkdir -p "$here/katex/fonts"
cp "$m/katex/dist/katex.min.js" "$m/katex/dist/katex.min.css" "$here/katex/"
cp "$m/katex/dist/fonts/"*.woff2 "$here/katex/fonts/"
cp "$m/katex/LICENSE" "$here/LICENSE-katex"
# highlight.js: its ES build with the common languages (markdown.js imports it when a reply
# holds a code block), and GitHub's light and dark colours.
rm -rf "$here/highlight"
mkdir -p "$here/highlight"
cp "$m/@highlightjs/cdn-assets/es/highlight.min.js" "$here/highlight/"
cp "$m/@highlightjs/cdn-assets/styles/github.min.css" "$m/@highlightjs/cdn-assets/styles/github-dark.min.css" "$here/highlight/"
cp "$m/@highlightjs/cdn-assets/LICENSE" "$here/LICENSE-highlightjs"
mkdir -p "$page"
cp "$m/@mozilla/readability/Readability.js" "$page/readability.js"
cp "$m/@mozilla/readability/LICENSE.md" "$page/LICENSE-readability.md"
cp "$m/turndown/lib/turndown.browser.umd.js" "$page/turndown.js"
cp "$m/turndown/LICENSE" "$page/LICENSE-turndown"
# The GFM plugin ships CommonJS only: wrap it so it defines one global, turndownPluginGfm.
{ echo "var turndownPluginGfm = (function () { var exports = {};"
  cat "$m/turndown-plugin-gfm/lib/turndown-plugin-gfm.browser.cjs.js"
  echo "return exports; })();"; } > "$page/turndown-gfm.js"
cp "$m/turndown-plugin-gfm/LICENSE" "$page/LICENSE-turndown-plugin-gfm"
echo "vendored: $(cd "$tmp" && node -e 'const l=require("./package-lock.json").packages;for(const k in l)if(k)console.log(" ",k.replace("node_modules/",""),l[k].version)')"
