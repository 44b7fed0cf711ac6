import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadCorpus } from '../test/support/corpus';

/**
 * `npm run bench:mcp` (issue 27): `scalpel mcp` spawned and driven by the SDK's client. A 5 MB element path sent to
 * `context` while an `outline` call is in flight: how long the refusal takes and how long the outline takes beside
 * it, against the same outline alone measured in the same run (the baseline). Then the slow calls of a large
 * workspace (every package of the corpus, both releases: some 1,100 files): a cold find_symbols, `outline .`, a cold
 * references (the code graph's build), a search and a folder's diagnostics, each on a fresh server, with a `ping`
 * every 100 ms while it runs: how long the pings waited (issue 27: "a slow call never blocks the others"). The calls
 * the worker serves (references, diagnostics, an apply's type check) run again with it off, as the baseline. Prints
 * the figures; bench/results.md records them by hand.
 */

const ROUNDS = 20;

/** The repository: out/bench/ is two levels down. */
const repoRoot = join(__dirname, '..', '..');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** `inProcess`: the code graph and the verification on the server's own thread (SCALPEL_GRAPH_WORKER=0), as before. */
function serverOn(root: string, inProcess = false): Promise<Client> {
  const client = new Client({ name: 'scalpel-bench', version: '1.0.0' });
  return client
    .connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--root', root],
        stderr: 'ignore',
        ...(inProcess ? { env: { ...getDefaultEnvironment(), SCALPEL_GRAPH_WORKER: '0' } } : {}),
      }),
    )
    .then(() => client);
}

/** The sources of every corpus package, both releases, side by side: the large workspace. */
function largeWorkspace(): { root: string; anyFile: string } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-bench-mcp-large-'));
  let anyFile = '';
  for (const pkg of loadCorpus().packages) {
    for (const release of [pkg.before, pkg.after]) {
      const folder = `${pkg.name.replace(/\W+/g, '-')}-${release.version}`;
      cpSync(join(release.packageDir, pkg.sourceRoot), join(root, folder, pkg.sourceRoot), { recursive: true });
      if (pkg.name === 'rxjs') anyFile = `${folder}/${pkg.sourceRoot}/internal/util/noop.ts`;
    }
  }
  return { root, anyFile };
}

async function slowCalls(): Promise<string[]> {
  const { root, anyFile } = largeWorkspace();
  const rxjs = anyFile.split('/')[0] ?? '';
  const calls: Array<[string, { name: string; arguments: Record<string, unknown> }]> = [
    ['find_symbols, cold', { name: 'find_symbols', arguments: { name: 'noSuchSymbolAnywhere' } }],
    ['outline ., cold', { name: 'outline', arguments: { paths: ['.'] } }],
    [
      'references, cold graph',
      { name: 'references', arguments: { path: `${rxjs}/src/internal/Observable.ts/class[Observable]/method[pipe]` } },
    ],
    ['search "subscribe"', { name: 'search', arguments: { pattern: 'subscribe' } }],
    [`diagnostics ${rxjs}/src, cold`, { name: 'diagnostics', arguments: { paths: [`${rxjs}/src`] } }],
    [
      'apply (verify types), cold',
      {
        name: 'apply',
        arguments: {
          operations: `REPLACE_ELEMENT ${anyFile}/function[noop]\n\`\`\`ts\nexport function noop(): void {\n  return undefined;\n}\n\`\`\``,
        },
      },
    ],
  ];
  // The worker's calls again with the graph and the verification on the server's own thread: the baseline of the
  // worker, same run. The apply writes another body, so that it changes the file again.
  const workerCalls = calls
    .filter(([, params]) => ['references', 'diagnostics', 'apply'].includes(params.name))
    .map(([label, params]) => {
      const operations = params.arguments['operations'];
      return [
        label,
        typeof operations === 'string'
          ? { ...params, arguments: { operations: operations.replace('return undefined;', 'return void 0;') } }
          : params,
      ] as const;
    });
  const runs = [
    ...calls.map(([label, params]) => [label, params, false] as const),
    ...workerCalls.map(([label, params]) => [`${label}, on the server's thread (baseline)`, params, true] as const),
  ];
  const lines = [`large workspace: ${root}`];
  for (const [label, params, inProcess] of runs) {
    const client = await serverOn(root, inProcess);
    await client.callTool({ name: 'outline', arguments: { paths: [anyFile] } });
    let done = false;
    const started = performance.now();
    const slow = client.callTool(params, undefined, { timeout: 600_000 }).finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const sent = performance.now();
      await client.ping();
      waits.push(performance.now() - sent);
      await new Promise((resume) => setTimeout(resume, 100));
    }
    const result = await slow;
    const took = performance.now() - started;
    const ok = result.isError === true ? ' (error)' : '';
    lines.push(
      `${label}: ${(took / 1000).toFixed(1)} s${ok}; ${waits.length} pings beside it waited median ${median(waits).toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms`,
    );
    await client.close();
  }
  return lines;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-bench-mcp-'));
  cpSync(join(repoRoot, 'test', 'unit', 'tools', 'fixtures', 'shop'), root, { recursive: true });
  const client = new Client({ name: 'scalpel-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--root', root],
      stderr: 'ignore',
    }),
  );
  const outline = { name: 'outline', arguments: { paths: ['src/price.ts'] } };
  const huge = { name: 'context', arguments: { focus: [`src/price.ts/class[${'z'.repeat(5 * 1024 * 1024)}]`] } };
  const timed = async (params: typeof outline | typeof huge): Promise<{ ms: number; isError: boolean }> => {
    const started = performance.now();
    const result = await client.callTool(params);
    return { ms: performance.now() - started, isError: result.isError === true };
  };
  await timed(outline);
  const alone: number[] = [];
  const refusal: number[] = [];
  const beside: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    alone.push((await timed(outline)).ms);
    const [refused, served] = await Promise.all([timed(huge), timed(outline)]);
    if (!refused.isError || served.isError) throw new Error('the 5 MB path was not refused, or the outline failed');
    refusal.push(refused.ms);
    beside.push(served.ms);
  }
  await client.close();
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  process.stdout.write(
    [
      `rounds: ${ROUNDS} (medians)`,
      `outline alone (baseline): ${ms(median(alone))}`,
      `5 MB element path refused: ${ms(median(refusal))} (max ${ms(Math.max(...refusal))})`,
      `outline served beside it: ${ms(median(beside))} (${(median(beside) / median(alone)).toFixed(2)}x the baseline)`,
      ...(await slowCalls()),
      '',
    ].join('\n'),
  );
}

void main();
