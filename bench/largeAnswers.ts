import { applyOperations } from '../src/core/ops/apply';
import { DEFAULT_MAX_ANSWER_BYTES, parseOperations } from '../src/core/ops/format';
import { runBenchMain } from './benchSection';

/**
 * `npm run bench:answers`: how long a 6 MB answer takes to refuse or apply (goal: under 5 s each). A model's answer
 * is untrusted input, so every scan over it must stay linear; a quadratic one shows here as minutes. Light on purpose:
 * no corpus, one process, a few seconds when all is well. Prints a markdown table; exits non-zero only if a case
 * throws.
 */

const TARGET_BYTES = 6 * 1024 * 1024;
const GOAL_MS = 5_000;

interface Row {
  readonly name: string;
  readonly bytes: number;
  readonly outcome: string;
  readonly ms: number;
  /** CPU time of the process: what the work cost, less inflated than wall time by other work on a shared machine. */
  readonly cpuMs: number;
}

function repeatToSize(unit: (index: number) => string, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const part = unit(index);
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join('\n');
}

const functionUnit = (index: number): string =>
  `export function helper${index}(value: number): number {\n  // keeps the ${index}th value in range\n  return Math.max(0, Math.min(value, ${index})) + ${index};\n}\n`;

const statementUnit = (index: number): string =>
  `  const value${index} = input.map((item) => item * ${index}).filter((item) => item % 3 !== 0); // step ${index}`;

function answers(): Array<{ name: string; answer: string; snapshot: Record<string, string> }> {
  const fileBody = repeatToSize(functionUnit, TARGET_BYTES);
  const element = (bytes: number): string =>
    `export function huge(input: number[]): number {\n${repeatToSize(statementUnit, bytes)}\n  return input.length;\n}`;
  const small = 'export function huge(input: number[]): number {\n  return input.length;\n}\n';
  const markdown = repeatToSize((i) => `## Section ${i}\n\nSome prose about part ${i}, with \`code\`.\n`, TARGET_BYTES);
  const json = `{\n${repeatToSize((i) => `  "key${i}": { "value": ${i}, "name": "entry ${i}" },`, TARGET_BYTES)}\n  "last": true\n}`;
  const lazy = repeatToSize(
    (i) =>
      i % 2 === 0
        ? `// ... existing code ${i} ...`
        : `/* ${'*'.repeat(200)} */ const a${i} = ${i}; // ${'*'.repeat(150)}`,
    TARGET_BYTES,
  );
  return [
    {
      name: 'CREATE_FILE of a 6 MB TypeScript file',
      answer: `CREATE_FILE src/big.ts\n\`\`\`ts\n${fileBody}\n\`\`\`\n`,
      snapshot: {},
    },
    // Half the size beside the full one: the time of a linear scan doubles with the size, a quadratic one
    // quadruples.
    ...[TARGET_BYTES / 2, TARGET_BYTES].map((bytes) => ({
      name: `REPLACE_ELEMENT with a ${bytes / (1024 * 1024)} MB element`,
      answer: `REPLACE_ELEMENT src/small.ts/function[huge]\n\`\`\`ts\n${element(bytes)}\n\`\`\`\n`,
      snapshot: { 'src/small.ts': small },
    })),
    {
      name: 'CREATE_FILE of a 6 MB file of placeholder-like comments',
      answer: `CREATE_FILE src/lazy.ts\n\`\`\`ts\n${lazy}\n\`\`\`\n`,
      snapshot: {},
    },
    {
      name: 'CREATE_FILE of a 6 MB Markdown file',
      answer: `CREATE_FILE docs/big.md\n\`\`\`md\n${markdown}\n\`\`\`\n`,
      snapshot: {},
    },
    {
      name: 'CREATE_FILE of a 6 MB JSON file',
      answer: `CREATE_FILE data/big.json\n\`\`\`json\n${json}\n\`\`\`\n`,
      snapshot: {},
    },
    {
      name: 'prose with 6 MB of unclosed ```json lines',
      answer: repeatToSize((i) => (i % 2 === 0 ? '```json' : `{"type": ${i}}`), TARGET_BYTES),
      snapshot: {},
    },
  ];
}

function time<T>(run: () => T): { result: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = run();
  const used = process.cpuUsage(cpu);
  return { result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

function main(): void {
  const rows: Row[] = [];
  for (const { name, answer, snapshot } of answers()) {
    const bytes = Buffer.byteLength(answer);
    const refused = time(() => parseOperations(answer));
    rows.push({
      name: `${name}: refused at the default ${DEFAULT_MAX_ANSWER_BYTES / (1024 * 1024)} MB limit`,
      bytes,
      outcome: refused.result.operations.length === 0 && refused.result.errors.length === 1 ? 'refused' : 'NOT refused',
      ms: refused.ms,
      cpuMs: refused.cpuMs,
    });
    const applied = time(() => {
      const parsed = parseOperations(answer, { maxAnswerBytes: Number.POSITIVE_INFINITY });
      const result = applyOperations({ read: (path) => snapshot[path] }, parsed.operations);
      return { parsed, result };
    });
    const { parsed, result } = applied.result;
    const outcome =
      parsed.operations.length === 0
        ? `no operation (${parsed.errors.length} parse errors)`
        : result.ok
          ? 'applied'
          : `refused: ${(result.results.find((r) => r.status === 'failed')?.message ?? '').slice(0, 80)}`;
    rows.push({
      name: `${name}: parsed and applied with the limit raised`,
      bytes,
      outcome,
      ms: applied.ms,
      cpuMs: applied.cpuMs,
    });
    process.stderr.write(`[bench:answers] ${name}: ${applied.ms.toFixed(0)} ms\n`);
  }
  const lines = [
    '| case | size | outcome | wall time | CPU time | goal (< 5 s) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${(row.bytes / (1024 * 1024)).toFixed(1)} MB | ${row.outcome} | ${(row.ms / 1000).toFixed(2)} s | ${(row.cpuMs / 1000).toFixed(2)} s | ${row.ms < GOAL_MS ? 'met' : 'missed'} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBenchMain('bench:answers', main);
