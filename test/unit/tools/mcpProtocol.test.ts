import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PATCH_CART_ADD, repoRoot, shopWorkspace } from './toolSupport';

/**
 * `scalpel mcp` as a client meets it at the protocol's edges (issue 27): protocol errors and annotations as the MCP
 * specification says, a call cancelled with the SDK client's AbortSignal, an argument that once froze the server, a
 * message over the stdio limit, and the end of the process when its client goes.
 */

const cli = join(repoRoot, 'dist', 'cli.js');

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]?.text ?? '';
}

void describe('scalpel mcp at the protocol edges, on the shop fixture', () => {
  const root = shopWorkspace();
  const client = new Client({ name: 'scalpel-test', version: '1.0.0' });
  let stderr = '';
  const stderrLines: Array<(text: string) => void> = [];
  /** Resolves when the server's stderr has a line matching `pattern` (ordering, not time). */
  const logged = (pattern: RegExp): Promise<string> =>
    new Promise((done) => {
      const check = (): boolean => {
        const line = stderr.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) done(line);
        return line !== undefined;
      };
      if (!check()) stderrLines.push(() => void check());
    });

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--root', root],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      for (const listener of stderrLines) listener(stderr);
    });
    await client.connect(transport);
  });

  after(async () => {
    await client.close();
  });

  void test('an unknown tool is a -32602 protocol error, not a tool answer', async () => {
    await assert.rejects(
      client.callTool({ name: 'rename_everything', arguments: {} }),
      (error: unknown) =>
        error instanceof McpError &&
        error.code === ErrorCode.InvalidParams &&
        /no tool "rename_everything"/.test(error.message),
    );
  });

  void test('sync_state moves the baseline, so it is not annotated read-only; outline is', async () => {
    const { tools } = await client.listTools();
    const sync = tools.find((t) => t.name === 'sync_state');
    // Unsaid hints take the specification's defaults: not read-only, destructive.
    assert.notEqual(sync?.annotations?.readOnlyHint, true);
    assert.equal(sync?.annotations?.destructiveHint, false);
    assert.equal(tools.find((t) => t.name === 'outline')?.annotations?.readOnlyHint, true);
    const apply = tools.find((t) => t.name === 'apply');
    assert.notEqual(apply?.annotations?.readOnlyHint, true);
    assert.notEqual(apply?.annotations?.destructiveHint, false);
  });

  void test('an apply cancelled with the AbortSignal writes nothing; the next one writes', async () => {
    const file = join(root, 'src', 'price.ts');
    const before = readFileSync(file, 'utf8');
    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'apply', arguments: { operations: PATCH_CART_ADD } }, undefined, {
      signal: cancel.signal,
      // The server says it is verifying (the type check follows): the client gives up then, before any write.
      onprogress: () => cancel.abort('the user stopped the agent'),
    });
    await assert.rejects(cancelled);
    // The server finishes the call it was given and logs how it ended; only then is the file compared.
    const line = await logged(/apply cancelled before the write/);
    assert.match(line, /nothing (was )?written/);
    assert.equal(readFileSync(file, 'utf8'), before);

    const applied = await client.callTool({ name: 'apply', arguments: { operations: PATCH_CART_ADD } });
    assert.equal(applied.isError, false, textOf(applied));
    assert.match(readFileSync(file, 'utf8'), /Math\.abs\(price\)/);
  });

  void test('an 80 KB element path to context while a second call waits: both are answered', async () => {
    const order: string[] = [];
    const [huge, outline] = await Promise.all([
      client
        .callTool({ name: 'context', arguments: { focus: [`src/price.ts/class[${'z'.repeat(80_000)}]`] } })
        .then((r) => (order.push('context'), r)),
      client
        .callTool({ name: 'outline', arguments: { paths: ['src/price.ts'] } })
        .then((r) => (order.push('outline'), r)),
    ]);
    assert.equal(huge.isError, true);
    assert.match(textOf(huge), /characters long; the limit is 4,096/);
    assert.ok(textOf(huge).length < 400);
    assert.equal(outline.isError, false);
    assert.match(textOf(outline), /class\[Cart\]/);
    assert.deepEqual([...order].sort(), ['context', 'outline']);
  });
});

/** A server on its own, driven by hand: what the SDK client would never send, and how the process ends. */
function bareServer(): { child: ChildProcess; stderr: () => string; exited: Promise<[number | null, string | null]> } {
  const child = spawn(process.execPath, [cli, 'mcp', '--root', shopWorkspace()], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  return { child, stderr: () => err, exited };
}

/** The next JSON-RPC message on the server's stdout with the given id. */
function response(
  child: ChildProcess,
  id: number,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  return new Promise((done) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      for (const line of out.split('\n')) {
        if (line.trim() === '') continue;
        try {
          const message = JSON.parse(line) as { id?: number };
          if (message.id === id) {
            child.stdout?.off('data', onData);
            done(message as { result?: unknown; error?: { code: number; message: string } });
            return;
          }
        } catch {
          // A line still arriving.
        }
      }
    };
    child.stdout?.on('data', onData);
  });
}

const send = (child: ChildProcess, message: object): void => {
  child.stdin?.write(`${JSON.stringify(message)}\n`);
};

function initialize(child: ChildProcess): Promise<unknown> {
  const answered = response(child, 1);
  send(child, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bare', version: '1' } },
  });
  send(child, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return answered;
}

void describe('scalpel mcp as a process', () => {
  void test('a message over 10 MB is answered with an error and a log line; the server goes on serving', async () => {
    const server = bareServer();
    await initialize(server.child);
    const refused = response(server.child, 2);
    const path = 'y'.repeat(11 * 1024 * 1024);
    server.child.stdin?.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'outline', arguments: { paths: [path] } }, id: 2 })}\n`,
    );
    const error = (await refused).error;
    assert.equal(error?.code, ErrorCode.InvalidRequest);
    assert.match(error?.message ?? '', /the message is 11\.0 MB, over the 10 MB limit/);
    const served = response(server.child, 3);
    send(server.child, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'outline', arguments: { paths: ['src/price.ts'] } },
    });
    assert.match(JSON.stringify((await served).result), /class\[Cart\]/);
    assert.match(
      server.stderr(),
      /a message of 11\.0 MB is over the 10 MB limit of one message: skipped, request 2 answered/,
    );
    server.child.stdin?.end();
    assert.deepEqual(await server.exited, [0, null]);
  });

  void test('the server exits when its standard input closes, and says why', async () => {
    const server = bareServer();
    await initialize(server.child);
    server.child.stdin?.end();
    assert.deepEqual(await server.exited, [0, null]);
    assert.match(server.stderr(), /stopping: standard input closed/);
  });

  void test('the server ends on SIGTERM', async () => {
    const server = bareServer();
    await initialize(server.child);
    server.child.kill('SIGTERM');
    const [code, signal] = await server.exited;
    assert.ok(signal === 'SIGTERM' || code === 0, `exit ${code} ${signal}`);
  });
});
