#!/usr/bin/env bash
# One entry point for BUA Browser Bridge.
#   ./build.sh            build the extension into dist/ (load it with "Load unpacked") and bua-bridge
#   ./build.sh test       fmt + clippy + native tests + end-to-end tests in real headless Chromium
#   ./build.sh demo [URL…] build, launch headless Chromium with the extension, and run the agent tour
#   ./build.sh bench      benchmarks (writes docs/BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# The wasm-bindgen CLI must match the wasm-bindgen crate exactly (it is pinned with `=` in Cargo.toml).
wasm_bindgen_version() {
  sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml | head -n1
}

ensure_prereqs() {
  command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "installing the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  local want have
  want=$(wasm_bindgen_version)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    log "installing wasm-bindgen-cli $want (found: ${have:-none}; takes a few minutes once)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

extension_id() {
  sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p' manifest.json | base64 -d | sha256sum | head -c 32 | tr '0-9a-f' 'a-p'
}

build_extension() {
  ensure_prereqs
  # BUA_WASM_PROFILE=dev gives a quick, unoptimised build for iterating; releases and CI use release.
  local profile=${BUA_WASM_PROFILE:-release} dir
  log "building the extension (wasm32, $profile)"
  # Its own target dir: cargo locks a target dir for a whole build, and the wasm build's long single-threaded
  # tail (LTO, one codegen unit) would otherwise keep the bridge's build waiting (see build_all).
  cargo build --profile "$profile" --target wasm32-unknown-unknown -p bua-extension --target-dir target/ext
  dir=$profile; [ "$profile" = dev ] && dir=debug
  local wasm=target/ext/wasm32-unknown-unknown/$dir/bua_extension.wasm
  # Assemble in a private folder and swap it in, so a browser loading dist/ never sees half a build.
  local tmp=dist.tmp.$$
  rm -rf "$tmp" && mkdir -p "$tmp/pkg"
  # Release drops the debugging `name` section (a fifth of the module; issue 8's size budget).
  local strip=()
  [ "$profile" = release ] && strip=(--remove-name-section --remove-producers-section)
  wasm-bindgen --target web --no-typescript "${strip[@]}" --out-dir "$tmp/pkg" "$wasm"
  cp manifest.json extension/background.js "$tmp/"
  if [ -d extension/icons ]; then cp -r extension/icons "$tmp/"; fi
  cp -r popup options "$tmp/"
  rm -rf dist.old.$$; if [ -d dist ]; then mv dist dist.old.$$; fi
  mv "$tmp" dist && rm -rf dist.old.$$
  local raw gz
  raw=$(stat -c %s dist/pkg/bua_extension_bg.wasm)
  gz=$(gzip -9 -c dist/pkg/bua_extension_bg.wasm | wc -c)
  log "dist/ ready: extension id $(extension_id); wasm ${raw} bytes raw, ${gz} bytes gzip"
}

build_bridge() {
  log "building bua-bridge"
  cargo build -p bua-bridge --bin bua-bridge
}

# The extension and the bridge at once (separate target dirs, so neither waits on the other's lock): on a
# two-core machine the first build takes minutes less than one after the other.
build_all() {
  ensure_prereqs
  build_extension &
  local ext=$!
  build_bridge
  wait "$ext"
}

ensure_chromium() {
  if ! command -v chromium >/dev/null && ! command -v google-chrome >/dev/null && ! command -v chromium-browser >/dev/null; then
    echo "No Chromium found. On Debian/Ubuntu: sudo apt-get install -y chromium" >&2
    exit 1
  fi
}

run_tests() {
  log "cargo fmt --check"
  cargo fmt --all -- --check
  log "cargo clippy (native workspace and the wasm extension)"
  cargo clippy --workspace --all-targets -- -D warnings
  cargo clippy --target wasm32-unknown-unknown -p bua-extension -- -D warnings
  build_all
  ensure_chromium
  log "tests: native unit tests and end-to-end tests in headless Chromium"
  cargo test --workspace -- --test-threads="${BUA_TEST_THREADS:-2}"
}

run_demo() {
  build_all
  ensure_chromium
  exec target/debug/bua-bridge demo --extension "$ROOT/dist" --site "$ROOT/demo/site" --out "$ROOT/target/demo" "$@"
}

case "${1:-build}" in
  build) build_all ;;
  test) run_tests ;;
  demo) shift; run_demo "$@" ;;
  bench) shift; build_extension; ensure_chromium
         # The Playwright peer (bench/aria.mjs) drives the same Chromium; playwright-core comes from npm.
         if [ ! -d bench/node_modules/playwright-core ]; then
           command -v npm >/dev/null || { echo "npm not found: install Node.js 20+ (Debian: apt-get install nodejs npm)" >&2; exit 1; }
           log "installing the Playwright peer (npm ci in bench/)"
           (cd bench && npm ci --no-audit --no-fund)
         fi
         cargo run --release -p bua-bench -- --extension "$ROOT/dist" "$@" ;;
  id) extension_id; echo ;;
  *) echo "usage: ./build.sh [build|test|demo [URL…]|bench|id]" >&2; exit 2 ;;
esac
