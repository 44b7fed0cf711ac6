import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { loadCorpus } from '../../support/corpus';
import { cursorOf, repoRoot, tableRows } from './toolSupport';

/**
 * The MCP server as an agent meets it: `node dist/cli.js mcp --root <copy of rxjs>` spawned and driven by the SDK's
 * own client over stdio.
 */

const cli = join(repoRoot, 'dist', 'cli.js');
const counter = createTokenCounter();

function text(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  assert.equal(content.length, 1);
  assert.equal(content[0]?.type, 'text');
  return content[0]?.text ?? '';
}

void describe('scalpel mcp over stdio, on a copy of rxjs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'scalpel-mcp-'));
  const root = join(scratch, 'rxjs');
  const metrics = join(scratch, 'metrics.jsonl');
  const client = new Client({ name: 'scalpel-test', version: '1.0.0' });

  before(async () => {
    const rxjs = loadCorpus().packages.find((p) => p.name === 'rxjs');
    assert.ok(rxjs !== undefined, 'the corpus has rxjs');
    cpSync(join(rxjs.after.packageDir, 'src'), join(root, 'src'), { recursive: true });
    cpSync(join(rxjs.after.packageDir, 'tsconfig.json'), join(root, 'tsconfig.json'));
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', '--root', root],
        env: { ...(process.env as Record<string, string>), SCALPEL_METRICS_FILE: metrics },
        stderr: 'ignore',
      }),
    );
  });

  after(async () => {
    await client.close();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
    const result = await client.callTool({ name, arguments: args });
    const answer = text(result);
    assert.ok(counter.count(answer) <= 10_000, `${name} answered ${counter.count(answer)} tokens`);
    return { text: answer, isError: result.isError === true };
  };

  void test('lists the tools with their schemas and read-only hints', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [
        'outline',
        'context',
        'find_symbols',
        'search',
        'references',
        'find_path',
        'apply',
        'rename',
        'diagnostics',
        'get_changes',
        'sync_state',
      ],
    );
    const apply = tools.find((t) => t.name === 'apply');
    assert.deepEqual(apply?.inputSchema.required, ['operations']);
    // Not read-only and destructive are the specification's defaults: the list leaves them out.
    assert.notEqual(apply?.annotations?.readOnlyHint, true);
    assert.equal(tools.find((t) => t.name === 'outline')?.annotations?.readOnlyHint, true);
    // Issue 27: find_symbols' bodies and members, references' declaration and implementations.
    assert.deepEqual(Object.keys(tools.find((t) => t.name === 'find_symbols')?.inputSchema.properties ?? {}), [
      'name',
      'path',
      'kinds',
      'folder',
      'includeBody',
      'depth',
      'cursor',
    ]);
    const references = tools.find((t) => t.name === 'references')?.inputSchema.properties ?? {};
    assert.deepEqual((references['relation'] as { enum?: string[] } | undefined)?.enum, [
      'references',
      'callers',
      'callees',
      'implementations',
      'declaration',
    ]);
    assert.deepEqual(references['name'], { type: 'string' });
    assert.deepEqual(references['line'], { type: 'integer' });
  });

  void test('outline, context and find_symbols answer on real code', async () => {
    const outline = await call('outline', { paths: ['src/internal/Subject.ts'] });
    assert.match(
      outline.text,
      /^\d+-\d+ class\[Subject\] export class Subject<T> extends Observable<T> implements SubscriptionLike$/m,
    );
    assert.match(outline.text, /^ \d+-\d+ method\[next\] next\(value: T\)/m);
    const context = await call('context', { focus: ['src/internal/Subject.ts/class[Subject]/method[next]'] });
    assert.match(context.text, /^ {2}next\(value: T\) \{$/m);
    assert.match(context.text, /const copy = Array\.from\(this\.observers\)|this\.currentObservers/);
    const symbols = await call('find_symbols', { name: 'mergeMap', kinds: ['function'] });
    assert.match(symbols.text, /^## src\/internal\/operators\/mergeMap\.ts$/m);
  });

  void test('references, callers, callees and find_path answer on real code', async () => {
    // The first graph query builds the program and says so to a client that asked for progress.
    const progress: string[] = [];
    const first = await client.callTool(
      { name: 'references', arguments: { path: 'src/internal/util/isFunction.ts/function[isFunction]' } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? '') },
    );
    assert.equal(first.isError, false);
    assert.deepEqual(progress, ['building the code graph of 252 source files (once; later queries reuse it)']);
    const references = await call('references', { path: 'src/internal/util/isFunction.ts/function[isFunction]' });
    assert.equal(references.isError, false, references.text);
    const total = Number(/: ([\d,]+) in [\d,]+ files$/m.exec(references.text)?.[1]?.replace(/,/g, ''));
    // Uses only: the import lines that name it are not references (43 calls in rxjs 7.8.2's sources).
    assert.ok(total > 40, references.text.slice(0, 300));
    assert.match(references.text, /^## src\/internal\/Observable\.ts$/m);
    const callers = await call('references', {
      path: 'src/internal/operators/mergeInternals.ts/function[mergeInternals]',
      relation: 'callers',
    });
    assert.match(callers.text, /^\d+ function\[mergeMap\] 1$/m);
    const callees = await call('references', {
      path: 'src/internal/operators/map.ts/function[map]',
      relation: 'callees',
    });
    assert.match(callees.text, /^## src\/internal\/util\/lift\.ts$/m);
    assert.match(callees.text, /^\d+ function\[operate\] 1$/m);
    const path = await call('find_path', {
      from: 'src/internal/operators/map.ts/function[map]',
      to: 'src/internal/operators/OperatorSubscriber.ts/function[createOperatorSubscriber]',
    });
    assert.deepEqual(tableRows(path.text)[0]?.split(' ')[0], '1');
    const implementations = await call('references', {
      path: 'src/internal/types.ts/interface[SubscriptionLike]/method[unsubscribe]',
      relation: 'implementations',
    });
    assert.equal(implementations.isError, false, implementations.text);
    assert.match(implementations.text, /^\d+-\d+ class\[Subscription\]\/method\[unsubscribe\] unsubscribe\(\): void$/m);
    assert.match(implementations.text, /^\d+-\d+ class\[Subject\]\/method\[unsubscribe\] unsubscribe\(\)/m);
    const body = await call('find_symbols', { name: 'Subject/unsubscribe', includeBody: true });
    assert.match(body.text, /^ {2}unsubscribe\(\) \{$/m);
  });

  void test('diagnostics answer on real code', async () => {
    const diagnostics = await call('diagnostics', { paths: ['src/internal/operators/map.ts'] });
    assert.match(diagnostics.text, /^diagnostics of 1 file: 0 errors, 0 others$/m);
  });

  void test('pages through thousands of symbols with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let total = 0;
    do {
      const page = await call('find_symbols', { path: 'src/**', ...(cursor === undefined ? {} : { cursor }) });
      total = Number(/^symbols matching path src\/\*\*: ([\d,]+) in/m.exec(page.text)?.[1]?.replace(/,/g, ''));
      seen.push(...tableRows(page.text));
      cursor = cursorOf(page.text);
      pages++;
    } while (cursor !== undefined);
    assert.ok(total > 500, `total ${total}`);
    assert.equal(seen.length, total);
    assert.ok(pages >= Math.ceil(total / 100), `${pages} pages`);
  });

  void test('apply writes a verified batch, and a bad batch changes nothing', async () => {
    const file = join(root, 'src', 'internal', 'util', 'noop.ts');
    const before = readFileSync(file, 'utf8');
    const bad = await call('apply', {
      operations: [
        'REPLACE_ELEMENT src/internal/util/noop.ts/function[noop]',
        '```ts',
        'export function noop() { /* nothing at all */ }',
        '```',
        '',
        'DELETE_ELEMENT src/internal/util/identity.ts/function[identiti]',
      ].join('\n'),
    });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /nearest: src\/internal\/util\/identity\.ts\/function\[identity\]/);
    assert.equal(readFileSync(file, 'utf8'), before);

    const good = await call('apply', {
      operations: [
        'REPLACE_ELEMENT src/internal/util/noop.ts/function[noop]',
        '```ts',
        'export function noop() { /* nothing at all */ }',
        '```',
      ].join('\n'),
    });
    assert.equal(good.isError, false, good.text);
    assert.match(good.text, /^written: wrote src\/internal\/util\/noop\.ts$/m);
    assert.match(readFileSync(file, 'utf8'), /nothing at all/);
  });

  void test('records every call in the metrics log that scalpel stats reads', async () => {
    await call('outline', { paths: ['src/index.ts'] });
    const stats = spawnSync(process.execPath, [cli, 'stats', '--file', metrics, '--json'], { encoding: 'utf8' });
    assert.equal(stats.status, 0, stats.stderr);
    const summary = JSON.parse(stats.stdout) as {
      tools: Array<{ key: string; calls: number; answerTokens: { max: number } }>;
    };
    const outline = summary.tools.find((t) => t.key === 'mcp.outline');
    assert.ok(outline !== undefined && outline.calls >= 2);
    assert.ok(outline.answerTokens.max > 0 && outline.answerTokens.max <= 10_000);
    const text = spawnSync(process.execPath, [cli, 'stats', '--file', metrics], { encoding: 'utf8' }).stdout;
    assert.match(text, /^agent tools \(answer tokens and milliseconds per call\)$/m);
    assert.match(text, /^mcp\.find_symbols +\d+ +0 /m);
  });
});
