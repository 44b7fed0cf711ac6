import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * `npm run bench:mcp` (issue 27): `scalpel mcp` spawned and driven by the SDK's client. A 5 MB element path sent to
 * `context` while an `outline` call is in flight: how long the refusal takes and how long the outline takes beside
 * it, against the same outline alone measured in the same run (the baseline). Prints the figures; bench/results.md
 * records them by hand.
 */

const ROUNDS = 20;

/** The repository: out/bench/ is two levels down. */
const repoRoot = join(__dirname, '..', '..');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
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
      '',
    ].join('\n'),
  );
}

void main();
