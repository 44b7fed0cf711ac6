import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { CliError } from '../../../src/cli/cliError';
import { diskSnapshot, writeChanges } from '../../../src/cli/writeChanges';
import { allElements } from '../../../src/core/elements/resolve';
import { outlineSource } from '../../../src/core/language/languages';
import { applyOperations } from '../../../src/core/ops/apply';
import { parseOperations, serializeOperations } from '../../../src/core/ops/format';
import type { CreatePosition, Operation } from '../../../src/core/ops/operation';
import { checkProperty, fuzzRun } from './fuzzSettings';

/**
 * Apply on real files through the CLI's writer: random batches, half of them written out as an answer, mangled and
 * parsed back, run against a workspace on disk with a sentinel folder beside it. Whatever happens: no exception but
 * the writer's own refusal escapes, nothing outside the workspace changes, a refused batch leaves every file byte for
 * byte as it was, and an applied one writes exactly the verified text and nothing else. 1,000 cases per unit run,
 * 100,000 with `npm run fuzz`.
 */

const repoRoot = join(__dirname, '..', '..', '..', '..');
const fixture = (name: string): string =>
  readFileSync(join(repoRoot, 'test', 'unit', 'ops', 'apply', 'fixtures', name), 'utf8');

const FILES: Readonly<Record<string, string>> = {
  'src/service.ts': fixture('service.ts'),
  'src/config.ts': fixture('config.ts'),
  'src/component.tsx': fixture('component.tsx'),
  'README.md': '# Read me\n\n```bash\nnpm test\n```\n',
  'package.json': '{\n  "name": "fuzz",\n  "version": "1.0.0"\n}\n',
  'tsconfig.json': '{\n  // strict\n  "compilerOptions": { "strict": true },\n}\n',
  '.github/ci.yml': 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n',
  'notes.txt': 'plain text\r\nwith CRLF\r\n',
};

const known = Object.entries(FILES)
  .filter(([file]) => /\.tsx?$/.test(file))
  .flatMap(([file, text]) => allElements(outlineSource(file, text)).map((element) => ({ file, element, text })));

const ESCAPES = [
  '../outside/sentinel.ts',
  '../../etc/passwd',
  '/tmp/scalpel-fuzz-absolute.ts',
  'src/../../outside/new.ts',
  'src\\..\\..\\outside\\win.ts',
  'C:\\Windows\\x.ts',
  '~/home.ts',
  '',
  '.',
  'src/new\u0000.ts',
  'src/./new.ts',
  '.git/config',
  // Targets the file system refuses: EISDIR, ENOTDIR, ENAMETOOLONG.
  'src',
  'src/service.ts/sub.ts',
  `src/${'n'.repeat(300)}.ts`,
];
const NEW_FILES = ['src/new.ts', 'docs/new.md', 'data/new.json', 'deploy/new.yaml', 'src/deep/er/new.tsx', 'README.md'];

const name = fc.constantFrom('fresh', 'validate', 'port', 'x', 'run', 'Red', 'name');
const code = fc.oneof(
  name.map((n) => `${n}(): number {\n  return 1;\n}`),
  name.map((n) => `export function ${n}(): void {}`),
  name.map((n) => `export const ${n} = 1;`),
  name.map((n) => `${n} = 2;`),
  fc.constantFrom(
    '',
    '}{',
    '// ... existing code ...',
    '{ ... }',
    'garbage ) (',
    '```\ninner\n```',
    '{ "a": 1, }',
    'key: [unclosed',
    '# Title\n\n```bash\nno close',
    'é\u0000\uFEFF',
  ),
  fc.string({ maxLength: 30 }),
);

const elementPath = fc.constantFrom(...known).map((k) => k.element.path);
const anyPath = fc.oneof(
  { weight: 4, arbitrary: elementPath },
  { weight: 2, arbitrary: fc.constantFrom(...Object.keys(FILES), ...NEW_FILES) },
  { weight: 2, arbitrary: fc.constantFrom(...ESCAPES) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...ESCAPES), fc.constantFrom('/function[f]', '/class[A]'))
      .map(([a, b]) => a + b),
  },
);
const position: fc.Arbitrary<CreatePosition> = fc.oneof(
  fc.constant<CreatePosition>({ kind: 'LAST_CHILD' }),
  fc.constant<CreatePosition>({ kind: 'FIRST_CHILD' }),
  fc
    .constantFrom(...known)
    .map((k): CreatePosition => ({ kind: 'AFTER', sibling: k.element.path.split('/').pop() ?? '' })),
);
const fileOf = (path: string): string => /^(.*?\.(?:tsx?|md|json|ya?ml|txt))(?:\/|$)/.exec(path)?.[1] ?? path;

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.tuple(elementPath, code).map(([path, content]): Operation => ({ type: 'REPLACE_ELEMENT', path, content })),
  fc
    .tuple(anyPath, position, code)
    .map(([path, pos, content]): Operation => ({ type: 'CREATE_ELEMENT', path: fileOf(path), position: pos, content })),
  fc
    .tuple(anyPath, position, code, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
    .map(([path, pos, content, above, below]): Operation => ({
      type: 'CREATE_ELEMENT',
      path: fileOf(path),
      position: pos,
      content,
      blankLines: { above, below },
    })),
  anyPath.map((path): Operation => ({ type: 'DELETE_ELEMENT', path })),
  fc
    .tuple(elementPath, fc.constantFrom('return', '{', 'this', 'nothing-matches'), code)
    .map(([path, search, replace]): Operation => ({ type: 'PATCH_ELEMENT', path, patches: [{ search, replace }] })),
  fc.tuple(anyPath, code).map(([path, content]): Operation => ({ type: 'CREATE_FILE', path: fileOf(path), content })),
  fc.tuple(anyPath, code).map(([path, content]): Operation => ({ type: 'REPLACE_FILE', path: fileOf(path), content })),
  fc
    .tuple(anyPath, fc.constantFrom("import { z } from 'zod';", "import fs from 'node:fs';", 'not an import'))
    .map(([path, content]): Operation => ({ type: 'ADD_IMPORT', path: fileOf(path), content })),
);

/** Half the batches reach apply as the model would send them: serialized, mangled a little, parsed back. */
const batch: fc.Arbitrary<readonly Operation[]> = fc.oneof(
  fc.array(operation, { minLength: 1, maxLength: 5 }),
  fc
    .tuple(
      fc.array(operation, { minLength: 1, maxLength: 5 }),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', '```', '````', 'prose', 'dup')), { maxLength: 3 }),
    )
    .map(([operations, edits]) => {
      const lines = serializeOperations(operations).split('\n');
      for (const [at, edit] of edits) {
        const index = lines.length === 0 ? 0 : at % lines.length;
        if (edit === 'drop') lines.splice(index, 1);
        else if (edit === 'dup') lines.splice(index, 0, lines[index] ?? '');
        else lines.splice(index, 0, edit === 'prose' ? 'Here is the change:' : edit);
      }
      return parseOperations(lines.join('\n')).operations;
    }),
);

let base: string;
let root: string;
let outside: string;

function listFiles(dir: string, into = new Map<string, Buffer>()): Map<string, Buffer> {
  if (!existsSync(dir)) return into;
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (lstatSync(full).isDirectory()) listFiles(full, into);
    else into.set(relative(base, full), readFileSync(full));
  }
  return into;
}

function resetWorkspace(): void {
  rmSync(root, { recursive: true, force: true });
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

before(() => {
  base = mkdtempSync(join(tmpdir(), 'scalpel-fuzz-'));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'sentinel.ts'), 'export const untouched = true;\n');
  resetWorkspace();
});

after(() => {
  rmSync(base, { recursive: true, force: true });
});

function sameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>, why: string): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${why}: the set of files changed`);
  for (const [path, bytes] of expected) assert.ok(actual.get(path)?.equals(bytes), `${why}: ${path} changed`);
}

void test('fuzz: apply on disk never escapes, never writes part of a batch, and leaves refused files as they were', () => {
  const run = fuzzRun('apply', 1_000);
  checkProperty(
    'apply',
    run,
    fc.property(batch, (operations) => {
      const beforeFiles = listFiles(base);
      const result = applyOperations(diskSnapshot(root), operations);
      let written = false;
      if (result.changes.length > 0) {
        try {
          writeChanges(root, result.changes);
          written = true;
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
        }
      }
      const afterFiles = listFiles(base);
      try {
        if (!written) {
          sameFiles(afterFiles, beforeFiles, result.ok ? 'a batch the writer refused' : 'a refused batch');
          return;
        }
        assert.equal(result.ok, true, 'only a verified batch is written');
        const expected = new Map(beforeFiles);
        for (const change of result.changes) {
          const key = relative(base, join(root, change.path));
          assert.ok(
            !key.startsWith('..') && key.startsWith('workspace'),
            `a change outside the workspace: ${change.path}`,
          );
          expected.set(key, Buffer.from(change.after, 'utf8'));
        }
        sameFiles(afterFiles, expected, 'an applied batch');
      } finally {
        if (written) resetWorkspace();
      }
    }),
  );
});
