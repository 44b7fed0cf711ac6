import { loadAllLanguages } from '../src/core/language/languages';
import { applyOperations } from '../src/core/ops/apply';
import type { CreatePosition, Operation } from '../src/core/ops/operation';
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

/**
 * Issue 25 item 5: CREATE_ELEMENT was quadratic in the size of its container (Python 1 MB 6 s, 5 MB over 300 s). Files
 * of 1, 3 and 5 MB of each language, a new element created at every position beside a REPLACE_ELEMENT of the same
 * file in the same run: the ratio create/replace stays near 1 when creating is linear, and grows with the size when
 * it is not.
 */
interface LanguageUnit {
  readonly file: string;
  readonly head: string;
  readonly tail: string;
  /** The container new members go in (the file, or its one class). */
  readonly container: (file: string) => string;
  readonly member: (index: number) => string;
  readonly path: (index: number) => string;
}

const LANGUAGE_UNITS: readonly LanguageUnit[] = [
  {
    file: 'src/big.py',
    head: '',
    tail: '',
    container: (file) => file,
    member: (i) =>
      `def helper${i}(value):\n    # keeps the value in range\n    return max(0, min(value, ${i})) + ${i}\n`,
    path: (i) => `function[helper${i}]`,
  },
  {
    file: 'src/big.go',
    head: 'package big\n\n',
    tail: '',
    container: (file) => file,
    member: (i) => `func helper${i}(value int) int {\n\t// keeps the value\n\treturn value + ${i}\n}\n`,
    path: (i) => `function[helper${i}]`,
  },
  {
    file: 'src/big.rs',
    head: '',
    tail: '',
    container: (file) => file,
    member: (i) => `fn helper${i}(value: i64) -> i64 {\n    // keeps the value\n    value + ${i}\n}\n`,
    path: (i) => `function[helper${i}]`,
  },
  {
    file: 'src/Big.java',
    head: 'class Big {\n',
    tail: '}\n',
    container: (file) => `${file}/class[Big]`,
    member: (i) => `    int helper${i}(int value) {\n        return value + ${i};\n    }\n`,
    path: (i) => `class[Big]/method[helper${i}]`,
  },
  {
    file: 'src/Big.cs',
    head: 'class Big {\n',
    tail: '}\n',
    container: (file) => `${file}/class[Big]`,
    member: (i) => `    int Helper${i}(int value) {\n        return value + ${i};\n    }\n`,
    path: (i) => `class[Big]/method[Helper${i}]`,
  },
  {
    file: 'src/big.ts',
    head: '',
    tail: '',
    container: (file) => file,
    member: (i) => `export function helper${i}(value: number): number {\n  return value + ${i};\n}\n`,
    path: (i) => `function[helper${i}]`,
  },
];

function createRows(sizesMb: readonly number[]): string[] {
  const lines = [
    '| language | file size | operation | outcome | wall time | CPU time | CPU ratio to REPLACE_ELEMENT |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const unit of LANGUAGE_UNITS) {
    for (const mb of sizesMb) {
      const members: string[] = [];
      let size = unit.head.length + unit.tail.length;
      for (let i = 0; size < mb * 1024 * 1024; i++) {
        const member = unit.member(i);
        members.push(member);
        size += member.length + 1;
      }
      const count = members.length;
      const text = unit.head + members.join('\n') + unit.tail;
      const middle = Math.floor(count / 2);
      const fresh = unit.member(count + 1).trim();
      const sibling = (i: number): string => unit.path(i).split('/').pop() ?? '';
      const cases: Array<[string, Operation]> = [
        [
          'REPLACE_ELEMENT (baseline)',
          {
            type: 'REPLACE_ELEMENT',
            path: `${unit.file}/${unit.path(middle)}`,
            content: unit.member(middle).trim().replace('value', 'v'),
          },
        ],
        ...(
          [
            ['CREATE_ELEMENT LAST_CHILD', { kind: 'LAST_CHILD' }],
            ['CREATE_ELEMENT FIRST_CHILD', { kind: 'FIRST_CHILD' }],
            ['CREATE_ELEMENT AFTER the middle one', { kind: 'AFTER', sibling: sibling(middle) }],
            ['CREATE_ELEMENT BEFORE the last one', { kind: 'BEFORE', sibling: sibling(count - 1) }],
          ] as Array<[string, CreatePosition]>
        ).map(([name, position]): [string, Operation] => [
          name,
          { type: 'CREATE_ELEMENT', path: unit.container(unit.file), position, content: fresh },
        ]),
      ];
      let baseline = 0;
      for (const [name, operation] of cases) {
        const measured = time(() =>
          applyOperations({ read: (path) => (path === unit.file ? text : undefined) }, [operation]),
        );
        if (baseline === 0) baseline = measured.cpuMs;
        const outcome = measured.result.ok
          ? 'applied'
          : `refused: ${(measured.result.results[0]?.message ?? '').slice(0, 60)}`;
        lines.push(
          `| ${unit.file.split('.').pop() ?? ''} | ${mb} MB | ${name} | ${outcome} | ${(measured.ms / 1000).toFixed(2)} s | ${(measured.cpuMs / 1000).toFixed(2)} s | ${(measured.cpuMs / baseline).toFixed(2)} |`,
        );
        process.stderr.write(`[bench:answers] ${unit.file} ${mb} MB ${name}: ${measured.ms.toFixed(0)} ms\n`);
      }
    }
  }
  return lines;
}

async function main(): Promise<void> {
  await loadAllLanguages();
  const sizes = (process.env['SCALPEL_BENCH_CREATE_MB'] ?? '1,3,5').split(',').map(Number);
  const createTable = createRows(sizes);
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
  process.stdout.write(
    `${lines.join('\n')}\n\nCreating beside replacing, per language and file size:\n\n${createTable.join('\n')}\n`,
  );
}

runBenchMain('bench:answers', main);
