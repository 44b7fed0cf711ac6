import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadCorpus } from '../../support/corpus';
import { repoRoot } from './toolSupport';

/**
 * A slow call never blocks the others (issue 27): `scalpel mcp` on a copy of rxjs (some 250 files), driven by the
 * SDK's client. A cold `find_symbols` outlines every file, seconds of work on one thread; a `ping` and a small
 * `outline` sent while it runs are answered before it, and a cancelled walk stops where it is. The calls are sent
 * when the walk reports its progress, so the test asserts the order of the answers, not a time.
 */

const cli = join(repoRoot, 'dist', 'cli.js');

interface Served {
  readonly client: Client;
  /** Resolves with the first line of the server's stderr matching `pattern`. */
  logged(pattern: RegExp): Promise<string>;
}

/** A server of its own for each test: each starts with no outline cached, so its walk is the slow, cold one. */
async function serve(root: string): Promise<Served> {
  const client = new Client({ name: 'scalpel-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--root', root],
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting: Array<() => void> = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const check of waiting) check();
  });
  await client.connect(transport);
  // The parsers load on the first call: the slow call that follows is the walk alone.
  await client.callTool({ name: 'outline', arguments: { paths: ['src/index.ts'] } });
  return {
    client,
    logged: (pattern) =>
      new Promise((done) => {
        const check = (): void => {
          const line = stderr.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) done(line);
        };
        waiting.push(check);
        check();
      }),
  };
}

/**
 * `params` called while one ping after another is sent for as long as it runs (a thread held by the compiler answers
 * none of them): its result, how long it took, and the longest wait between two answered pings.
 */
async function pingsDuring(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
): Promise<{
  result: { isError?: boolean; content: Array<{ text: string }> };
  duration: number;
  longest: number;
  pings: number;
}> {
  let pending = true;
  const answered: number[] = [];
  const started = performance.now();
  const call = client.callTool(params).finally(() => (pending = false));
  const pinging = (async () => {
    while (pending) {
      await client.ping();
      answered.push(performance.now());
    }
  })();
  const result = (await call) as { isError?: boolean; content: Array<{ text: string }> };
  const duration = performance.now() - started;
  await pinging;
  const longest = Math.max(...answered.map((at, i) => at - (answered[i - 1] ?? started)));
  return { result, duration, longest, pings: answered.length };
}

void describe('scalpel mcp gives other calls turns during a slow one, on a copy of rxjs', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-turns-')), 'rxjs');
  const servers: Client[] = [];

  before(() => {
    const rxjs = loadCorpus().packages.find((p) => p.name === 'rxjs');
    assert.ok(rxjs !== undefined, 'the corpus has rxjs');
    cpSync(join(rxjs.after.packageDir, 'src'), join(root, 'src'), { recursive: true });
  });

  after(async () => {
    for (const client of servers) await client.close();
  });

  void test('a ping and a small outline sent during a cold find_symbols are answered before it', async () => {
    const { client } = await serve(root);
    servers.push(client);
    const order: string[] = [];
    let others: Promise<unknown> | undefined;
    const sendOthers = (): void => {
      others ??= Promise.all([
        client.ping().then(() => order.push('ping')),
        client
          .callTool({ name: 'outline', arguments: { paths: ['src/internal/util/noop.ts'] } })
          .then((r) => (assert.equal(r.isError, false), order.push('outline'))),
      ]);
    };
    const slow = await client.callTool(
      { name: 'find_symbols', arguments: { name: 'noSuchSymbolAnywhere' } },
      undefined,
      {
        // The walk says how far it is once it has run a while: the other calls go out while it is surely running.
        onprogress: sendOthers,
      },
    );
    order.push('find_symbols');
    // A server that never gave a turn sent no progress either: the others go out now, and come last.
    sendOthers();
    await others;
    assert.match((slow as { content: Array<{ text: string }> }).content[0]?.text ?? '', /0 in 0 of \d[\d,]+ files/);
    assert.deepEqual(order.slice(-1), ['find_symbols'], `answered in the order ${order.join(', ')}`);
  });

  void test('pings keep being answered while a cold references call runs the compiler (in the graph worker)', async () => {
    const { client } = await serve(root);
    servers.push(client);
    const { result, duration, longest, pings } = await pingsDuring(client, {
      name: 'references',
      arguments: { path: 'src/internal/util/isFunction.ts/function[isFunction]' },
    });
    assert.notEqual(result.isError, true, result.content[0]?.text);
    assert.match(result.content[0]?.text ?? '', /^references of .*isFunction\]: [1-9][\d,]* in [1-9]/);
    // The longest wait between two answered pings against the whole call, measured in the same run: a server whose
    // one thread builds the program and searches waits most of the call (before the worker: 0.8 to 0.9 of it).
    assert.ok(
      longest < duration / 4,
      `longest wait between pings ${Math.round(longest)} ms of a ${Math.round(duration)} ms call (${pings} pings)`,
    );
    // A mistake the worker finds comes back as the agent's error, not as the tool's failure.
    const wrong = (await client.callTool({
      name: 'references',
      arguments: { path: 'src/internal/Observable.ts/import[./Operator]' },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0]?.text ?? '', /^error: .*is a import; ask for the references of a declared element/);
  });

  void test("pings keep being answered while a cold apply's type check runs, which refuses the batch", async () => {
    const { client } = await serve(root);
    servers.push(client);
    const operations = [
      'REPLACE_ELEMENT src/internal/util/noop.ts/function[noop]',
      '```ts',
      'export function noop(): void {',
      "  return 'a new type error';",
      '}',
      '```',
    ].join('\n');
    const { result, duration, longest, pings } = await pingsDuring(client, {
      name: 'apply',
      arguments: { operations },
    });
    const text = result.content[0]?.text ?? '';
    // The worker's type check found the error the body brings, and the server refused the batch.
    assert.equal(result.isError, true, text);
    assert.match(text, /TS2322/);
    assert.match(text, /nothing was written/);
    // Before the worker, the pings waited for the program's build: 0.9 of the call.
    assert.ok(
      longest < duration / 4,
      `longest wait between pings ${Math.round(longest)} ms of a ${Math.round(duration)} ms call (${pings} pings)`,
    );
  });

  void test('a find_symbols cancelled with the AbortSignal stops its walk at the next turn', async () => {
    const { client, logged } = await serve(root);
    servers.push(client);
    const cancel = new AbortController();
    const cancelled = client.callTool(
      { name: 'find_symbols', arguments: { name: 'noSuchSymbolAnywhere' } },
      undefined,
      {
        signal: cancel.signal,
        onprogress: () => cancel.abort('the user stopped the agent'),
      },
    );
    await assert.rejects(cancelled);
    const line = await logged(/find_symbols cancelled/);
    const [, done, total] = /stopped after ([\d,]+) of ([\d,]+) files searched/.exec(line) ?? [];
    assert.ok(done !== undefined && total !== undefined, line);
    assert.ok(Number(done.replace(/,/g, '')) < Number(total.replace(/,/g, '')), line);
    // The server goes on serving.
    const outline = await client.callTool({ name: 'outline', arguments: { paths: ['src/internal/util/noop.ts'] } });
    assert.equal(outline.isError, false);
  });
});
