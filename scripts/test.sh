#!/usr/bin/env bash
# The whole test command: static checks, unit tests (core, CLI, real-code corpus) and the integration suite in a
# real VS Code extension host. Installs what it needs (corpus packages, code-server, chromium) on first run.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

if [[ ! -d node_modules ]]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

step "corpus (pinned npm packages that ship TypeScript sources)"
node scripts/corpus.mjs

step "language corpora (pinned Debian and npm packages that ship Python, Go, Rust, Java and C# sources)"
node scripts/corpus.mjs --languages

# A Debian package for a tool some tests use, installed when root and apt are here; else `without` says what is lost.
apt_tool() {
  local command=$1 package=$2 without=$3
  command -v "$command" >/dev/null 2>&1 && return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null 2>&1; } ||
      echo "$package could not be installed: $without"
  else
    echo "$command is not on PATH and cannot be installed here: $without"
  fi
}

step "Go for the Go checker's tests (Debian's golang-go, when root and apt are here; else those tests are skipped)"
apt_tool go golang-go "the Go checker's tests will be skipped"
command -v go >/dev/null 2>&1 && go version

step "mono's C# compiler for the C# oracle of the language fuzz (Debian's mono-mcs, when root and apt are here; else skipped)"
# About 45 s and 22 packages (7.6 MB) on a Debian 12 machine whose package lists are fresh.
apt_tool mcs mono-mcs "the C# fuzz will not judge what it writes"
command -v mcs >/dev/null 2>&1 && mcs --version

step "typecheck"
npx tsc -p . --noEmit

step "lint"
npx eslint .

step "build"
node scripts/build.mjs
node scripts/build.mjs --tests

step "unit tests"
node --test --test-concurrency=2 out/test/unit/

step "integration tests (real VS Code extension host)"
node test/integration/run.mjs
