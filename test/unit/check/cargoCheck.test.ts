import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import { describeChecks, describeTypeErrors, TypeCheckService } from '../../../src/core/check/typeCheck';
import { CodeGraph, type CodeGraphOptions } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';

// Rust checked by `cargo check` on a shadow of a real crate (issue 26). The check needs cargo on PATH: where it is
// not (CI's image has no Rust), the tests that run it are skipped with that reason, and the one that asserts the
// one-line note runs everywhere.

const CARGO = findExecutable('cargo');
const NO_CARGO = CARGO === undefined ? 'cargo is not on PATH' : false;

const MANIFEST = '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';
const LIB = 'pub fn area(width: u32, height: u32) -> u32 {\n    width * height\n}\n';
const MAIN = 'fn main() {\n    let broken: u32 = "already wrong";\n    println!("{}", shapes::area(2, 3));\n}\n';

function crate(options: CodeGraphOptions = {}): { root: string; service: TypeCheckService; graph: CodeGraph } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-cargo-'));
  const files = { 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB, 'src/main.rs': MAIN };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root), options);
  return { root, service: new TypeCheckService(graph), graph };
}

function listing(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listing(root, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

void describe('the Rust check with cargo check', () => {
  const { root, service, graph } = crate({ checkTimeLimitMs: 300_000 });
  before(async () => loadAllLanguages());
  after(() => {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test(
    'a parameter added to a function the binary calls: refused, the caller named',
    { skip: NO_CARGO },
    async () => {
      const files = listing(root);
      const result = await service.check([
        { file: 'src/lib.rs', before: LIB, after: LIB.replace('height: u32)', 'height: u32, depth: u32)') },
      ]);
      assert.deepEqual(
        result.newErrors.map((e) => `${e.elementPath ?? e.file} ${e.code} ${e.checker ?? ''}`),
        ['src/main.rs/function[main] E0061 cargo check'],
        describeTypeErrors(result.newErrors),
      );
      // The error main.rs already had is old.
      assert.ok(!result.newErrors.some((e) => e.code === 'E0308'));
      assert.match(describeChecks(result.checks)[0] ?? '', /^types checked with cargo check \d+\.\d+\.\d+ \(on PATH/);
      assert.deepEqual(listing(root), files, 'no target/ or lock file written in the workspace');
      assert.equal(readFileSync(join(root, 'src/lib.rs'), 'utf8'), LIB);
    },
  );

  void test('the same change with the caller updated passes', { skip: NO_CARGO }, async () => {
    const result = await service.check([
      { file: 'src/lib.rs', before: LIB, after: LIB.replace('height: u32)', 'height: u32, depth: u32)') },
      { file: 'src/main.rs', before: MAIN, after: MAIN.replace('area(2, 3)', 'area(2, 3, 4)') },
    ]);
    assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
    // The earlier check's texts are not what this one saw: the file it wrote last time was written again.
    const again = await service.check([
      { file: 'src/main.rs', before: MAIN, after: MAIN.replace('area(2, 3)', 'area(2)') },
    ]);
    assert.deepEqual(
      again.newErrors.map((e) => e.code),
      ['E0061'],
      describeTypeErrors(again.newErrors),
    );
  });
});

void test('without cargo the Rust batch is verified by its parse, and the check says why in one line', async () => {
  const { root, service, graph } = crate({ toolchains: { rust: 'cargo-that-is-not-here' } });
  try {
    const result = await service.check([
      { file: 'src/lib.rs', before: LIB, after: LIB.replace('height: u32)', 'height: u32, depth: u32)') },
    ]);
    assert.deepEqual(result.newErrors, []);
    assert.deepEqual(describeChecks(result.checks), ['Rust not type-checked: cargo-that-is-not-here is not on PATH']);
  } finally {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});
