import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { runEdit, type EditOutcome } from '../../../src/core/llm/pipeline';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scriptedOpenAi } from './validateEdit';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from '../cli/runScalpel';

// Issue 24, "no kept operation vanishes": a repair round's operation replaces a kept one only when both have the same
// identity (a created element by container + name, an import by module + bindings, a patch by element + SEARCH).

const THREE_LINES = 'export function f(): number {\n  return 1;\n}\n';

const createH = [
  'CREATE_ELEMENT src/a.ts LAST_CHILD',
  '```ts',
  'export function h(): number {',
  '  return 2;',
  '}',
  '```',
];
const createK = [
  'CREATE_ELEMENT src/a.ts LAST_CHILD',
  '```ts',
  'export function k(): number {',
  '  return 3;',
  '}',
  '```',
];
const patch = (search: string): string[] => [
  'PATCH_ELEMENT src/a.ts/function[f]',
  '```ts',
  '<<<<<<< SEARCH',
  search,
  '=======',
  '  return 10;',
  '>>>>>>> REPLACE',
  '```',
];

void describe('the repair merge keeps what it said it kept', () => {
  const llm = useScriptedModel();

  void test("the issue's reproduction: a second element created in a repair round does not replace the first", async () => {
    const root = tempWorkspace('scalpel-merge-', { 'src/a.ts': THREE_LINES });
    llm.server.enqueue(
      scripted.answer([...createH, '', ...patch('  return 2;')].join('\n')),
      scripted.answer([...patch('  return 1;'), '', ...createK].join('\n')),
    );
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/a.ts', '-m', 'add h and k; f returns 10', '--json'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 0, run.stderr);
    const repair = llm.userMessageOf(from + 1);
    assert.match(repair, /ok CREATE_ELEMENT src\/a\.ts \(kept; do not repeat it\)/);
    const written = readFileSync(join(root, 'src', 'a.ts'), 'utf8');
    assert.match(written, /export function h\(\): number/, 'the element reported as kept is written');
    assert.match(written, /export function k\(\): number/);
    assert.match(written, /return 10;/);
    const json = JSON.parse(run.stdout) as {
      history: Array<{ round: number; type: string; path: string; status: string }>;
    };
    assert.deepEqual(
      json.history.map((h) => [h.round, h.type, h.status]),
      [
        [1, 'CREATE_ELEMENT', 'applied'],
        [1, 'PATCH_ELEMENT', 'failed'],
        [2, 'PATCH_ELEMENT', 'applied'],
        [2, 'CREATE_ELEMENT', 'applied'],
      ],
    );
  });

  void test('a kept operation sent again with the same identity is replaced, and the history says so', async () => {
    const root = tempWorkspace('scalpel-merge-', { 'src/a.ts': THREE_LINES });
    const hAgain = createH.map((line) => line.replace('return 2;', 'return 20;'));
    llm.server.enqueue(
      scripted.answer([...createH, '', ...patch('  return 2;')].join('\n')),
      scripted.answer(
        [
          ...patch('  return 1;'),
          '',
          ...hAgain,
          '',
          'ADD_IMPORT src/a.ts',
          '```ts',
          "import { x } from './x';",
          '```',
        ].join('\n'),
      ),
    );
    const run = await scalpel(root, ['edit', 'src/a.ts', '-m', 'add h; f returns 10', '--verify', 'syntax'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 0, run.stderr);
    const written = readFileSync(join(root, 'src', 'a.ts'), 'utf8');
    assert.equal(written.match(/function h\(\)/g)?.length, 1, written);
    assert.match(written, /return 20;/);
    assert.match(written, /import \{ x \} from '\.\/x';/);
    assert.match(
      run.stderr,
      /the model sent CREATE_ELEMENT src\/a\.ts again in round 2: its later version replaced the one of round 1/,
    );
  });
});

/** A class whose methods each hold two distinct lines a patch can target. */
const METHODS = 4;
const CLASS_FILE = 'src/c.ts';
const CLASS = `export class C {\n${Array.from(
  { length: METHODS },
  (_, i) => `  m${i}(): string {\n    const a = 'm${i}a';\n    return 'm${i}b' + a;\n  }\n`,
).join('\n')}}\n`;

type Op =
  | { readonly kind: 'create'; readonly name: number; readonly body: number }
  | { readonly kind: 'import'; readonly module: number }
  | {
      readonly kind: 'patch';
      readonly method: number;
      readonly line: 'a' | 'b';
      readonly right: boolean;
      readonly tag: number;
    };

function render(op: Op): string {
  switch (op.kind) {
    case 'create':
      return [
        `CREATE_ELEMENT ${CLASS_FILE}/class[C] LAST_CHILD KIND=method`,
        '```ts',
        `n${op.name}(): number {`,
        `  return ${op.body};`,
        '}',
        '```',
      ].join('\n');
    case 'import':
      return ['ADD_IMPORT src/c.ts', '```ts', `import { v${op.module} } from './mod${op.module}';`, '```'].join('\n');
    case 'patch': {
      const text = op.line === 'a' ? `const a = 'm${op.method}a';` : `return 'm${op.method}b' + a;`;
      const search = op.right ? text : `${text} // not there`;
      return [
        `PATCH_ELEMENT ${CLASS_FILE}/class[C]/method[m${op.method}]`,
        '```ts',
        '<<<<<<< SEARCH',
        `    ${search}`,
        '=======',
        `    ${text.replace(`m${op.method}${op.line}'`, `m${op.method}${op.line}-${op.tag}'`)}`,
        '>>>>>>> REPLACE',
        '```',
      ].join('\n');
    }
  }
}

/** The identity the merge must use, as this test's generator knows it. */
function identity(op: Op): string {
  switch (op.kind) {
    case 'create':
      return `create n${op.name}`;
    case 'import':
      return `import ${op.module}`;
    case 'patch':
      return `patch m${op.method} ${op.line} ${op.right}`;
  }
}

/** What an operation leaves in the written file. */
function effect(op: Op): string {
  switch (op.kind) {
    case 'create':
      return `n${op.name}(): number {\n    return ${op.body};`;
    case 'import':
      return `import { v${op.module} } from './mod${op.module}';`;
    case 'patch':
      return `m${op.method}${op.line}-${op.tag}'`;
  }
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), name: fc.nat(3), body: fc.nat(99) }),
  fc.record({ kind: fc.constant('import' as const), module: fc.nat(3) }),
  fc.record({
    kind: fc.constant('patch' as const),
    method: fc.nat(METHODS - 1),
    line: fc.constantFrom('a' as const, 'b' as const),
    right: fc.boolean(),
    tag: fc.nat(99),
  }),
);

void describe('property: no operation reported as kept is missing from what is written', () => {
  void test('random repair sequences', async () => {
    const counter = createTokenCounter();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        async (answers) => {
          // A server per case: answers the pipeline did not ask for must not reach the next one.
          const server = await startScriptedLlmServer();
          try {
            server.enqueue(...answers.map((ops) => scripted.answer(ops.map(render).join('\n\n'))));
            const outcome = await runEdit({
              instruction: 'change C',
              files: [{ path: CLASS_FILE, focus: [] }],
              snapshot: { read: (path) => (path === CLASS_FILE ? CLASS : undefined) },
              provider: scriptedOpenAi(server),
              counter,
              options: { repairRounds: answers.length - 1, full: true },
            });
            checkRounds(answers, server, outcome);
          } finally {
            await server.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** One operation as sent in one answer: kept apart from an equal one sent elsewhere. */
interface Sent {
  readonly op: Op;
  readonly round: number;
}

/**
 * Replays the rounds from what each repair message said (it lists the batch it verified, in order, ok or FAILED) and
 * checks that every operation last reported as kept, and not sent again with its identity, is written.
 */
function checkRounds(answers: readonly (readonly Op[])[], server: ScriptedLlmServer, outcome: EditOutcome): void {
  const used = server.requests.length;
  let batch: Sent[] = [];
  const kept = new Set<Sent>();
  for (let round = 0; round < used; round++) {
    const sent = (answers[round] ?? []).map((op) => ({ op, round }));
    if (round > 0) {
      const messages = server.requests[round]?.body?.messages ?? [];
      const message = String(messages.at(-1)?.content ?? '');
      const lines = message.split('\n').filter((line) => /^- (ok|FAILED) /.test(line));
      assert.equal(lines.length, batch.length, `round ${round}: one result line per operation\n${message}`);
      batch.forEach((entry, i) => (lines[i]?.startsWith('- ok ') === true ? kept.add(entry) : kept.delete(entry)));
      const incoming = new Set(sent.map((s) => identity(s.op)));
      for (const entry of batch) if (incoming.has(identity(entry.op))) kept.delete(entry);
      batch = [...batch.filter((entry) => kept.has(entry)), ...sent];
    } else batch = sent;
  }
  assert.deepEqual(
    outcome.operations.map((o) => `${o.type} ${o.path}`),
    batch.map((entry) => (render(entry.op).split('\n')[0] ?? '').replace(/ LAST_CHILD KIND=method$/, '')),
    "the verified batch is the kept operations and the last answer's",
  );
  if (!outcome.ok) {
    assert.equal(outcome.apply.changes.length, 0, 'a request that did not verify writes nothing');
    return;
  }
  const written = outcome.apply.changes[0]?.after ?? CLASS;
  for (const entry of kept)
    assert.ok(
      written.includes(effect(entry.op)),
      `reported kept, missing from what is written: ${render(entry.op)}\n${written}`,
    );
  for (const record of outcome.history)
    if (record.fate === 'replaced')
      assert.ok((record.replacedBy?.round ?? -1) > record.round, 'replaced by a later one');
}
