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
