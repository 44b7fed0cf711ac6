import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { call, toolEnv } from './toolSupport';

// The `context` tool through the same builder as every surface (issue 27 item 4, issue 28): the imports the shown code
// uses, and a focus larger than the answer shown in part instead of an error about a budget the agent never set.

const IMPORTS = Array.from(
  { length: 120 },
  (_, i) => `import { Part${i}, part${i}Helper } from './parts/part${String(i).padStart(3, '0')}';`,
);

function method(name: string, lines: number, uses = ''): string {
  const body = Array.from({ length: lines - 3 }, (_, i) => `    total += ${name}Step(${i}, total);`);
  return `  ${name}(total: number): number {\n    ${uses}\n${body.join('\n')}\n    return total;\n  }`;
}

const STORE = `${IMPORTS.join('\n')}

export class Store {
${['load', 'save', 'merge', 'prune', 'index'].map((name) => method(name, 40)).join('\n\n')}

${method('rebuild', 93, 'const part = new Part7(part12Helper(total));')}

${['flush', 'close'].map((name) => method(name, 40)).join('\n\n')}
}
`;

void describe('the context tool', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-context-tool-'));
  writeFileSync(join(root, 'store.ts'), STORE);
  const env = toolEnv(root);
  after(() => rmSync(root, { recursive: true, force: true }));

  void test('an 8-line focus carries the imports it uses and one line for the rest', async () => {
    writeFileSync(
      join(root, 'small.ts'),
      `${IMPORTS.join('\n')}\n\n${Array.from({ length: 40 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n\nexport function pick(n: number): number {\n  const part = new Part3(n);\n  const helped = part3Helper(part);\n  if (helped > 10) {\n    return 10;\n  }\n  return helped;\n}\n`,
    );
    const run = await call(env, 'context', { focus: ['small.ts/function[pick]'] });
    assert.equal(run.isError, false, run.text);
    assert.ok(run.text.includes("import { Part3, part3Helper } from './parts/part003';"), run.text);
    assert.ok(!run.text.includes("from './parts/part004'"), 'an import the code does not use is not shown');
    assert.match(run.text, /^\/\/ 119 more imports: \.\/parts\/part000, \.\/parts\/part001, .* \(lines 1-120\)$/m);
    assert.ok(run.tokens < 600, `${run.tokens} tokens`);
  });

  void test('a 93-line member focused with a 2,000-token answer budget is shown, not refused', async () => {
    const run = await call(env, 'context', { focus: ['store.ts/class[Store]/method[rebuild]'] }, 2_000);
    assert.equal(run.isError, false, run.text);
    assert.doesNotMatch(run.text, /budget|raise|settings/i);
    assert.ok(run.text.includes('rebuild(total: number): number {'), run.text);
    assert.ok(run.text.includes("import { Part7, part7Helper } from './parts/part007';"), run.text);
    assert.ok(run.tokens <= 2_000, `${run.tokens} tokens`);
  });

  void test('a focus over the answer budget is shown in part: a container with its members by name', async () => {
    const run = await call(env, 'context', { focus: ['store.ts/class[Store]'], maxTokens: 600 }, 10_000);
    assert.equal(run.isError, false, run.text);
    assert.ok(run.text.includes('export class Store {'), run.text);
    assert.ok(!run.text.includes('mergeStep(1, total)'), 'no member body');
    assert.match(run.text, /method\[rebuild\]/);
    assert.ok(run.tokens <= 700, `${run.tokens} tokens`);
  });
});
