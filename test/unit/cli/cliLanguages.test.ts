import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel } from './runScalpel';

/**
 * Every CLI command that reads code, on a file of each tree-sitter language: outline, context, apply (a verified
 * edit written, a broken one refused with the file left as it was) and diff, on the hand-written hard-case files.
 */

const repoRoot = join(__dirname, '..', '..', '..', '..');

interface LanguageCase {
  readonly fixture: string;
  readonly file: string;
  readonly comment: string;
  readonly focus: string;
  readonly search: string;
  readonly replace: string;
  /** A replacement that does not parse. */
  readonly broken: string;
}

const CASES: readonly LanguageCase[] = [
  {
    fixture: 'python/fixtures/hard_cases.py',
    file: 'pkg/shapes.py',
    comment: '#',
    focus: 'class[Square]/method[area]',
    search: 'return side * side',
    replace: 'return side ** 2',
    broken: 'return side **',
  },
  {
    fixture: 'go/fixtures/hard_cases.go',
    file: 'shapes/shapes.go',
    comment: '//',
    focus: 'function[New]',
    search: 'if side <= 0 {',
    replace: 'if side < 0 {',
    broken: 'if side <= 0 {{',
  },
  {
    fixture: 'rust/fixtures/hard_cases.rs',
    file: 'src/shapes.rs',
    comment: '//',
    focus: 'impl[Point]/method[norm]',
    search: '.sqrt()',
    replace: '.sqrt().abs()',
    broken: '.sqrt(',
  },
  {
    fixture: 'java/fixtures/HardCases.java',
    file: 'src/HardCases.java',
    comment: '//',
    focus: 'class[HardCases]/method[scale]#1',
    search: 'return by * LIMIT;',
    replace: 'return by * LIMIT * 2;',
    broken: 'return by * ;',
  },
  {
    fixture: 'csharp/fixtures/HardCases.cs',
    file: 'src/HardCases.cs',
    comment: '//',
    focus: 'namespace[Shapes]/class[Square]/method[Scale]#1',
    search: 'side * by;',
    replace: 'side * by * 2;',
    broken: 'side * ;',
  },
];

function workspace(c: LanguageCase): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-langs-'));
  mkdirSync(join(root, c.file, '..'), { recursive: true });
  copyFileSync(join(repoRoot, 'test', 'unit', 'language', c.fixture), join(root, c.file));
  return root;
}

function patch(c: LanguageCase, replace: string): string {
  return [
    `PATCH_ELEMENT ${c.file}/${c.focus}`,
    '```',
    '<<<<<<< SEARCH',
    c.search,
    '=======',
    replace,
    '>>>>>>> REPLACE',
    '```',
  ].join('\n');
}

for (const c of CASES) {
  void describe(`scalpel CLI on ${c.file.split('.').pop() ?? ''} files`, () => {
    void test('outline lists the element, context shows it in full under its label', async () => {
      const root = workspace(c);
      const outline = await scalpel(root, ['outline', c.file]);
      assert.equal(outline.code, 0, outline.stderr);
      assert.ok(outline.stdout.includes(`${c.file}/${c.focus}  `), outline.stdout);
      const context = await scalpel(root, ['context', c.file, '--focus', c.focus, '--small-file-lines', '1']);
      assert.equal(context.code, 0, context.stderr);
      assert.ok(context.stdout.includes(`${c.comment} @ ${c.file}/${c.focus}\n`), context.stdout);
      assert.ok(context.stdout.includes(c.search), context.stdout);
      assert.match(context.stdout, /focused view of \d+ lines/);
    });

    void test('apply writes a verified patch and refuses one that does not parse, changing nothing', async () => {
      const root = workspace(c);
      const path = join(root, c.file);
      const before = readFileSync(path, 'utf8');
      writeFileSync(join(root, 'bad.txt'), patch(c, c.broken));
      const refused = await scalpel(root, ['apply', 'bad.txt']);
      assert.equal(refused.code, 1, refused.stdout);
      assert.equal(readFileSync(path, 'utf8'), before);
      writeFileSync(join(root, 'ops.txt'), patch(c, c.replace));
      const applied = await scalpel(root, ['apply', 'ops.txt']);
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(readFileSync(path, 'utf8'), before.replace(c.search, c.replace));
    });

    void test('diff names the changed element', async () => {
      const root = workspace(c);
      const before = readFileSync(join(root, c.file), 'utf8');
      writeFileSync(join(root, 'after.txt'), before.replace(c.search, c.replace));
      const diff = await scalpel(root, ['diff', c.file, 'after.txt', '--as', c.file]);
      assert.equal(diff.code, 0, diff.stderr);
      assert.match(diff.stdout, new RegExp(`^(PATCH|REPLACE)_ELEMENT ${escape(`${c.file}/${c.focus}`)}$`, 'm'));
      assert.doesNotMatch(diff.stdout, /REPLACE_FILE/);
    });
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

void describe('scalpel edit on a Go file', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(async () => {
    await server.close();
  });

  void test('the model edits a function, the parse verifies it, and the user is told why Go was not type-checked', async () => {
    const c = CASES.find((entry) => entry.file.endsWith('.go'));
    assert.ok(c !== undefined);
    const root = workspace(c);
    const before = readFileSync(join(root, c.file), 'utf8');
    server.enqueue(scripted.answer(patch(c, c.replace)));
    const env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
    const run = await scalpel(root, ['edit', c.file, '--focus', c.focus, '-m', 'accept a zero side'], { env });
    assert.equal(run.code, 0, run.stderr);
    // No go.mod above the file: go build and go vet have no module to check (without go: it is not on PATH).
    assert.match(
      run.stderr,
      /Go not type-checked: (?:no project of go build \+ vet holds shapes\/shapes\.go|go is not on PATH)/,
    );
    assert.equal(readFileSync(join(root, c.file), 'utf8'), before.replace(c.search, c.replace));
    assert.ok(server.requests.some((request) => JSON.stringify(request).includes(`// @ ${c.file}/${c.focus}`)));
  });
});
