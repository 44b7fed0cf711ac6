import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { scalpel } from './runScalpel';

/**
 * A path with a kind the language does not have (`mod[m0]` for a Rust module, which Scalpel calls `namespace`) made
 * `apply` exit 70 with "the Rust parser is not loaded yet": the file of a malformed path was never loaded, yet read
 * to suggest the nearest paths. This file runs in a process where no grammar was loaded before.
 */
void test('apply of a mistyped Rust path answers with the nearest paths, exit 1, the file unchanged', async () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-mistyped-'));
  mkdirSync(join(root, 'src'));
  const before = 'mod m0 {\n    fn f() {}\n}\n';
  writeFileSync(join(root, 'src/lib.rs'), before);
  writeFileSync(join(root, 'ops.txt'), 'REPLACE_ELEMENT src/lib.rs/mod[m0]\n```rust\nmod m0 {}\n```\n');
  const run = await scalpel(root, ['apply', 'ops.txt']);
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /internal error/);
  assert.match(run.stdout, /unknown kind "mod"/);
  assert.match(run.stdout, /nearest: src\/lib\.rs\/namespace\[m0\]/);
  assert.equal(readFileSync(join(root, 'src/lib.rs'), 'utf8'), before);
});
