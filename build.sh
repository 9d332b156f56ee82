#!/usr/bin/env bash
# One entry point for BUA Browser Bridge.
#   ./build.sh            build the extension into dist/ (load it with "Load unpacked") and bua-bridge
#   ./build.sh test       fmt + clippy + native tests + end-to-end tests in real headless Chromium
#   ./build.sh demo [URL…] build, launch headless Chromium with the extension, and run the agent tour
#   ./build.sh bench      benchmarks (writes docs/BENCHMARKS.md); `bench --peers`: ours vs Playwright/DevTools MCP;
#                         `bench --tasks`: multi-step tasks in Django's admin and Trac through the same three
#                         MCP servers
#   ./build.sh prereqs [demo|test]  only install what `demo` (default) or `test` needs from the system
#   ./build.sh release    target/release/bua-bridge carrying its extension, and target/release/bua-<version>-<os>-<arch>.tar.gz
#                         (the binary, the extension zip, SKILL.md, README.md, SHA256SUMS)
#   ./build.sh install    the same binary, installed with `cargo install` (~/.cargo/bin/bua-bridge)
# `demo` and `test` install what is missing first (Debian/Ubuntu, apt-get): see ensure_system.
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

# The pinned Python MCP SDK that tests/e2e/mcp.rs drives `bua-bridge mcp` with, in a venv under target/ (made once;
# the test itself never installs anything).
MCP_SDK_VERSION=2.3.0
MCP_VENV=target/mcp-venv

have() { command -v "$1" >/dev/null 2>&1; }

have_chromium() { have chromium || have chromium-browser || have google-chrome; }

# Installs Debian/Ubuntu packages: as root with apt-get, else through sudo when there is one (saying so), else
# stops with the exact command to run.
apt_install() {
  local run=()
  if ! have apt-get; then
    echo "Missing: $*. This is not a Debian/Ubuntu machine (no apt-get): install them with your system's package manager, then run this command again." >&2
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    if ! have sudo; then
      echo "Missing: $*. Install them as root, then run this command again:" >&2
      echo "  apt-get update && apt-get install -y --no-install-recommends $*" >&2
      exit 1
    fi
    log "installing $* with sudo apt-get (sudo may ask for your password)"
    run=(sudo)
  else
    log "installing $* with apt-get"
  fi
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# What `demo` ($1 = demo) or `test` ($1 = test) needs from the system: Chromium; for the tests also Xvfb and a
# window manager (openbox) for the one headed test of the minimized agent window (SPEC §6: "test it once headed,
# under Xvfb"), and Python with venv for the MCP SDK.
ensure_system() {
  local mode=$1 need=()
  have_chromium || need+=(chromium)
  if [ "$mode" = test ]; then
    have Xvfb || need+=(xvfb)
    have openbox || need+=(openbox)
    if ! have python3; then
      need+=(python3 python3-venv)
    elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
      need+=(python3-venv)
    fi
  fi
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
  local still=()
  have_chromium || still+=(chromium)
  if [ "$mode" = test ]; then
    have Xvfb || still+=(Xvfb)
    have openbox || still+=(openbox)
    have python3 || still+=(python3)
  fi
  if [ ${#still[@]} -gt 0 ]; then
    echo "Still missing after the install: ${still[*]}. Install them by hand (Debian/Ubuntu: apt-get install -y ${need[*]}) and run ./build.sh $mode again." >&2
    exit 1
  fi
  if [ "$mode" = test ]; then ensure_mcp_venv; fi
}

ensure_mcp_venv() {
  local python=$MCP_VENV/bin/python
  if "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_SDK_VERSION')" >/dev/null 2>&1; then
    return
  fi
  log "installing the Python MCP SDK $MCP_SDK_VERSION into $MCP_VENV (once)"
  rm -rf "$MCP_VENV"
  python3 -m venv "$MCP_VENV"
  "$python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_SDK_VERSION"
}

# The real web applications `bench --tasks` drives, pinned, in a venv under target/ (made once): Django
# (its admin, on a `django-admin startproject` project) and Trac.
TASKS_APPS=("django==5.2.19" "trac==1.6")
TASKS_VENV=target/tasks-venv

ensure_tasks_venv() {
  local python=$TASKS_VENV/bin/python
  if "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('django') != '5.2.19' or m.version('trac') != '1.6')" >/dev/null 2>&1; then
    return
  fi
  have python3 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || apt_install python3 python3-venv
  log "installing ${TASKS_APPS[*]} into $TASKS_VENV (once)"
  rm -rf "$TASKS_VENV"
  python3 -m venv "$TASKS_VENV"
  "$python" -m pip install --quiet --disable-pip-version-check "${TASKS_APPS[@]}"
}

run_tests() {
  ensure_system test
  # The wasm clippy below needs the wasm target before build_all would install it.
  ensure_prereqs
  log "cargo fmt --check"
  cargo fmt --all -- --check
  # Layers import downward only (src/lib.rs gives the order): a module cycle fails the suite.
  log "module layers (tools/layers.py: 0 import cycles in each crate)"
  local crate_src out
  for crate_src in src crates/*/src; do
    out=$(python3 tools/layers.py "$crate_src") || { printf '%s\n' "$out" >&2; exit 1; }
    echo "  $crate_src: ${out##*$'\n'}" >&2
  done
  log "cargo clippy (native workspace and the wasm extension)"
  cargo clippy --workspace --all-targets -- -D warnings
  cargo clippy --target wasm32-unknown-unknown -p bua-extension -- -D warnings
  build_all
  log "tests: native unit tests and end-to-end tests in headless Chromium"
  # Every test binary runs even when one fails (each prints its own failures); cargo then exits non-zero.
  cargo test --workspace --no-fail-fast -- --test-threads="${BUA_TEST_THREADS:-2}"
}

run_demo() {
  ensure_system demo
  build_all
  exec target/debug/bua-bridge demo --extension "$ROOT/dist" --site "$ROOT/demo/site" --out "$ROOT/target/demo" "$@"
}

workspace_version() {
  sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1
}

# The release: the extension (release wasm) into dist/, then bua-bridge built with dist/ embedded (crates/bridge/
# build.rs reads BUA_EMBED_EXTENSION), then the archive. The binary alone writes its extension
# (`bua-bridge extension`), so nothing else of the repository is needed beside it.
run_release() {
  BUA_WASM_PROFILE=release build_extension
  log "building bua-bridge (release) with the extension embedded"
  BUA_EMBED_EXTENSION="$ROOT/dist" cargo build --release -p bua-bridge --bin bua-bridge
  local version os arch name stage
  version=$(workspace_version)
  os=$(uname -s | tr '[:upper:]' '[:lower:]'); arch=$(uname -m)
  name="bua-$version-$os-$arch"
  stage="target/release/$name"
  rm -rf "$stage" && mkdir -p "$stage"
  cp target/release/bua-bridge README.md "$stage/"
  (cd dist && zip -qr -X "$ROOT/$stage/bua-extension-$version.zip" .)
  "$stage/bua-bridge" skill > "$stage/SKILL.md"
  (cd "$stage" && sha256sum bua-bridge "bua-extension-$version.zip" SKILL.md README.md > SHA256SUMS)
  tar -C target/release -czf "target/release/$name.tar.gz" "$name"
  log "release: target/release/bua-bridge and target/release/$name.tar.gz ($(cut -c1-16 < <(sha256sum "target/release/$name.tar.gz"))…)"
}

# `cargo install` of the binary that carries its extension (what a plain `cargo install --path crates/bridge`
# cannot do on a clean clone: the extension must be built first).
run_install() {
  BUA_WASM_PROFILE=release build_extension
  log "installing bua-bridge with the extension embedded (cargo install)"
  BUA_EMBED_EXTENSION="$ROOT/dist" cargo install --locked --path crates/bridge --bin bua-bridge
}

case "${1:-build}" in
  build) build_all ;;
  prereqs) case "${2:-demo}" in
             demo|test) ensure_system "${2:-demo}" ;;
             *) echo "usage: ./build.sh prereqs [demo|test]" >&2; exit 2 ;;
           esac ;;
  test) run_tests ;;
  demo) shift; run_demo "$@" ;;
  bench) shift; ensure_system demo; build_extension
         # The Playwright peer (bench/aria.mjs) drives the same Chromium; playwright-core comes from npm,
         # and so do the MCP peers of `--peers` (@playwright/mcp, chrome-devtools-mcp; pinned in bench/).
         if [ ! -d bench/node_modules/playwright-core ] || [ ! -d bench/node_modules/@playwright/mcp ] \
            || [ ! -d bench/node_modules/chrome-devtools-mcp ]; then
           command -v npm >/dev/null || { echo "npm not found: install Node.js 20+ (Debian: apt-get install nodejs npm)" >&2; exit 1; }
           log "installing the Playwright peer (npm ci in bench/)"
           (cd bench && npm ci --no-audit --no-fund)
         fi
         # `--peers` and `--tasks` run our MCP server as an agent's host does: the bua-bridge binary,
         # release-built; `--tasks` also needs the web applications it drives (Django, Trac from PyPI).
         case " $* " in *" --peers "*|*" --tasks "*) cargo build --release -p bua-bridge --bin bua-bridge ;; esac
         case " $* " in *" --tasks "*) ensure_tasks_venv ;; esac
         cargo run --release -p bua-bench -- --extension "$ROOT/dist" "$@" ;;
  release) run_release ;;
  install) run_install ;;
  id) extension_id; echo ;;
  *) echo "usage: ./build.sh [build|test|demo [URL…]|bench|release|install|prereqs [demo|test]|id]" >&2; exit 2 ;;
esac
