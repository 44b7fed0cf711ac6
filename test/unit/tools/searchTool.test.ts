import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { cliBatchWriter } from '../../../src/cli/commands/mcp';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { nullLogger } from '../../../src/core/logger';
import { ripgrepPath, useRipgrep } from '../../../src/core/search/ripgrep';
import { createToolEnv, diskWorkspace } from '../../../src/core/tools';
import { tempWorkspace } from '../../support/tempWorkspace';
import { call, cursorOf, tableRows, toolEnv } from './toolSupport';

/**
 * The `search` tool (issue 27 item 1): literal and regex text search on ripgrep over the one workspace listing, each
 * matching line in its element, with globs, case options and context lines, paged like the other tools.
 */

const FILES: Record<string, string> = {
  'src/server.ts': `export class Server {
  respond(headers: Headers, err: unknown): void {
    headers.set('Vary', 'Accept');
    if (typeof err === 'object' && err !== null && 'getResponse' in err) {
      headers.append('Vary', 'Origin');
    }
  }
}
`,
  'src/cache.ts': `// Caches must honour the Vary header.
export function cacheKey(url: string, vary: string): string {
  return \`\${url}|\${vary}\`;
}
`,
  'test/server.test.ts':
    "import { Server } from '../src/server';\n\nnew Server().respond(new Headers(), { getResponse: () => 1 });\n",
  'config/headers.json': '{ "Vary": "Accept-Encoding" }\n',
  'app.py': 'def respond(headers):\n    headers["Vary"] = "Cookie"\n',
};

void describe('the search tool', () => {
  const root = tempWorkspace('scalpel-search-tool-', FILES);
  after(() => rmSync(root, { recursive: true, force: true }));
  const env = toolEnv(root);

  void test('finds what references cannot: keys in strings, duck-typed checks, config; each line in its element', async () => {
    const run = await call(env, 'search', { pattern: "'Vary'" });
    assert.equal(run.isError, false, run.text);
    assert.match(
      run.text,
      /^search "'Vary'" \(literal, case-sensitive\): 2 matches on 2 lines in 1 of 5 files searched$/m,
    );
    assert.deepEqual(tableRows(run.text), [
      "3 class[Server]/method[respond] headers.set('Vary', 'Accept');",
      "5 class[Server]/method[respond] headers.append('Vary', 'Origin');",
    ]);
    const duck = await call(env, 'search', { pattern: 'getResponse', wholeWord: true });
    assert.match(duck.text, /^## src\/server\.ts$/m);
    assert.match(duck.text, /^## test\/server\.test\.ts$/m);
    assert.match(duck.text, /^3 statement\[call\] new Server\(\)\.respond/m);
  });

  void test('smart case, case options, include and exclude globs', async () => {
    const smart = await call(env, 'search', { pattern: 'vary' });
    assert.match(smart.text, /\(literal, case-insensitive\): 7 matches on 7 lines in 4 of 5 files searched$/m);
    const sensitive = await call(env, 'search', { pattern: 'Vary', case: 'sensitive' });
    assert.match(sensitive.text, /: 5 matches on 5 lines in 4 of 5 files searched$/m);
    const pythonOnly = await call(env, 'search', { pattern: 'Vary', include: ['*.py'] });
    assert.deepEqual(tableRows(pythonOnly.text), ['2 function[respond] headers["Vary"] = "Cookie"']);
    assert.match(pythonOnly.text, /in 1 of 1 files searched$/m);
    const noTests = await call(env, 'search', { pattern: 'Server', exclude: ['test'], include: ['src/**'] });
    assert.match(noTests.text, /in 1 of 2 files searched$/m);
  });

  void test('a regular expression with context lines around each match', async () => {
    const run = await call(env, 'search', { pattern: String.raw`headers\.(set|append)\(`, regex: true, context: 1 });
    assert.equal(run.isError, false, run.text);
    assert.deepEqual(tableRows(run.text), [
      '2- class[Server]/method[respond] respond(headers: Headers, err: unknown): void {',
      "3 class[Server]/method[respond] headers.set('Vary', 'Accept');",
      "4- class[Server]/method[respond] if (typeof err === 'object' && err !== null && 'getResponse' in err) {",
      "5 class[Server]/method[respond] headers.append('Vary', 'Origin');",
      '6- class[Server]/method[respond] }',
    ]);
    assert.match(run.text, /lines whose number ends with '-' are context, not matches/);
  });

  void test('a regular expression that does not parse is an error saying why', async () => {
    const run = await call(env, 'search', { pattern: 'headers.(set', regex: true });
    assert.equal(run.isError, true);
    assert.match(run.text, /^error: .*(regex parse error|unclosed group)/is);
  });

  void test('many matches page under a small budget with a working cursor', async () => {
    const many = tempWorkspace('scalpel-search-many-', {
      'big.ts': Array.from({ length: 400 }, (_, i) => `export const value${i} = 'needle ${i}';`).join('\n'),
    });
    after(() => rmSync(many, { recursive: true, force: true }));
    const manyEnv = toolEnv(many);
    const first = await call(manyEnv, 'search', { pattern: 'needle' }, 600);
    assert.match(first.text, /^search "needle" .*: 400 matches on 400 lines in 1 of 1 files searched$/m);
    const cursor = cursorOf(first.text);
    assert.ok(cursor !== undefined, first.text);
    const second = await call(manyEnv, 'search', { pattern: 'needle', cursor }, 600);
    assert.equal(second.isError, false, second.text);
    const firstRows = tableRows(first.text);
    const secondRows = tableRows(second.text);
    assert.ok(firstRows.length > 0 && secondRows.length > 0);
    assert.notEqual(firstRows[0], secondRows[0]);
  });

  void test('an unsaved editor text is searched in place of the file', async () => {
    const disk = diskWorkspace(root);
    const unsaved = "export function cacheKey(): string {\n  return 'unsaved needle';\n}\n";
    const workspace = {
      ...disk,
      unsavedFiles: () => ['src/cache.ts'],
      read: (path: string) => (path === 'src/cache.ts' ? unsaved : disk.read(path)),
      version: (path: string) => (path === 'src/cache.ts' ? 'document:2' : disk.version(path)),
    };
    const editorEnv = createToolEnv(workspace, cliBatchWriter(root), createTokenCounter(), nullLogger);
    const run = await call(editorEnv, 'search', { pattern: 'unsaved needle' });
    assert.deepEqual(tableRows(run.text), ["2 function[cacheKey] return 'unsaved needle';"]);
  });

  void test('without a ripgrep binary the search runs in Node with the same answers', async () => {
    const binary = ripgrepPath();
    assert.ok(binary !== undefined, 'the @vscode/ripgrep platform package is installed');
    const inputs = [
      { pattern: "'Vary'" },
      { pattern: 'vary' },
      { pattern: String.raw`headers\.(set|append)\(`, regex: true, context: 1 },
      { pattern: 'getResponse', wholeWord: true, exclude: ['*.json'] },
    ];
    const withRipgrep = await Promise.all(inputs.map((input) => call(env, 'search', input)));
    useRipgrep(null);
    try {
      for (const [i, input] of inputs.entries())
        assert.equal((await call(env, 'search', input)).text, withRipgrep[i]?.text, JSON.stringify(input));
    } finally {
      useRipgrep(binary);
    }
  });
});
