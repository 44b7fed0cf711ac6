import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ts as bundledTs } from 'ts-morph';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 24's "Done when" for the type check, through `scalpel edit` in-process: the scripted model answers over real
// HTTP, the real TypeScript checker reads real files in workspaces without node_modules. Correct answers whose only
// errors are the environment's (a test runner's types, @types/node, a monorepo's rootDir) apply on the first answer;
// errors the model cannot fix are named with the flags that let the edit through.

const SUM = 'export function sum(a: number, b: number): number {\n  return a + b;\n}\n';
const SUM_TEST = `import { sum } from './sum';

describe('sum', () => {
  it('adds', () => {
    expect(sum(1, 2)).toBe(3);
  });
});
`;
const VITEST_TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, lib: ['ES2022'], types: ['vitest/globals'] },
  include: ['src'],
});

void describe('scalpel edit: only the errors an edit causes count (issue 24)', () => {
  const llm = useScriptedModel();

  function requestsSince(from: number): number {
    return llm.server.requests.length - from;
  }

  void test('a new vitest test using expect, in a workspace without node_modules, applies on the first answer', async () => {
    const root = tempWorkspace('scalpel-vitest-', {
      'tsconfig.json': VITEST_TSCONFIG,
      'src/sum.ts': SUM,
      'src/sum.test.ts': SUM_TEST,
    });
    const updated = SUM_TEST.replace(
      '});\n});',
      "});\n\n  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n});",
    );
    llm.server.enqueue(scripted.answer(`REPLACE_FILE src/sum.test.ts\n\`\`\`ts\n${updated}\`\`\``));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/sum.test.ts', '-m', 'test negative numbers too'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(requestsSince(from), 1, 'no repair round');
    assert.equal(readFileSync(join(root, 'src', 'sum.test.ts'), 'utf8'), updated);
    // The file had `Cannot find name 'expect'` before: the new copies are old errors, not the edit's.
    assert.doesNotMatch(run.stderr, /TS2304/);
  });

  void test('a new test file using expect and vi applies too: the globals of a test runner that is not installed', async () => {
    const root = tempWorkspace('scalpel-vitest-new-', {
      'tsconfig.json': VITEST_TSCONFIG,
      'src/sum.ts': SUM,
    });
    const created =
      "import { sum } from './sum';\n\nit('adds', () => {\n  const spy = vi.fn();\n  expect(sum(1, 1)).toBe(2);\n  expect(spy).not.toHaveBeenCalled();\n});\n";
    llm.server.enqueue(scripted.answer(`CREATE_FILE src/sum.spec.ts\n\`\`\`ts\n${created}\`\`\``));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/sum.ts', '-m', 'add a test for sum', '--json'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(requestsSince(from), 1);
    assert.equal(readFileSync(join(root, 'src', 'sum.spec.ts'), 'utf8'), created);
    const json = JSON.parse(run.stdout) as { typeCheck?: { environmentErrors: { code: number; reason: string }[] } };
    const reasons = (json.typeCheck?.environmentErrors ?? []).map((e) => `TS${e.code} ${e.reason}`);
    assert.ok(
      reasons.some((r) => r.startsWith('TS2304 `expect`')),
      reasons.join('\n'),
    );
    assert.ok(
      reasons.some((r) => r.startsWith('TS2304 `vi` comes from vitest')),
      reasons.join('\n'),
    );
    // --json: progress as one JSON object a line on stderr, the type check's included.
    const events = run.stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { event: string; phase: string; message: string });
    assert.ok(events.every((e) => e.event === 'progress'));
    assert.ok(
      events.some((e) => e.phase === 'verify' && /^type check with TypeScript \d/.test(e.message)),
      events.map((e) => e.message).join('\n'),
    );
  });

  void test('a property typed ReturnType<typeof setTimeout> without @types/node applies on the first answer', async () => {
    const poller = 'export class Poller {\n  start(): void {\n    return;\n  }\n}\n';
    const root = tempWorkspace('scalpel-timer-', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, lib: ['ES2022'] }, include: ['src'] }),
      'src/poller.ts': poller,
    });
    llm.server.enqueue(
      scripted.answer(
        [
          'CREATE_ELEMENT src/poller.ts/class[Poller] FIRST_CHILD KIND=property',
          '```ts',
          'private timer: ReturnType<typeof setTimeout> | undefined;',
          '```',
        ].join('\n'),
      ),
    );
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/poller.ts', '-m', 'keep the timer in a property'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(requestsSince(from), 1);
    assert.match(readFileSync(join(root, 'src', 'poller.ts'), 'utf8'), /private timer: ReturnType<typeof setTimeout>/);
    assert.match(
      run.stderr,
      /TS2304 Cannot find name 'setTimeout'\. \(`setTimeout` comes from @types\/node, not installed\)/,
    );
  });

  void test('a monorepo package whose tsconfig trips TS6059 under the bundled TypeScript applies a one-line fix', async () => {
    const packageConfig = JSON.stringify({
      compilerOptions: { strict: true, rootDir: 'src', outDir: 'dist', module: 'ESNext', moduleResolution: 'Bundler' },
      include: ['src'],
    });
    const index = "import { helper } from '../../b/src/helpers';\n\nexport const value = helper(1);\n";
    const root = tempWorkspace('scalpel-monorepo-', {
      'packages/a/tsconfig.json': packageConfig,
      'packages/b/tsconfig.json': packageConfig,
      'packages/b/src/helper.ts': 'export function helper(n: number): number {\n  return n + 1;\n}\n',
      'packages/a/src/index.ts': index,
    });
    const fixed = index.replace('/helpers', '/helper');
    llm.server.enqueue(
      scripted.answer(['REPLACE_FILE packages/a/src/index.ts', '```ts', fixed.trimEnd(), '```'].join('\n')),
    );
    const from = llm.server.requests.length;
    const run = await scalpel(
      root,
      ['edit', 'packages/a/src/index.ts', '-m', 'fix the import path'],
      { env: llm.cliEnv },
    );

    assert.equal(run.code, 0, run.stderr);
    assert.equal(requestsSince(from), 1);
    assert.equal(readFileSync(join(root, 'packages', 'a', 'src', 'index.ts'), 'utf8'), fixed);
    assert.match(run.stderr, /TS6059 File 'packages\/b\/src\/helper\.ts' is not under 'rootDir'/, 'paths relative');
    assert.match(run.stderr, /\(the project's configuration\)/);
    assert.match(
      run.stderr,
      new RegExp(`types checked with TypeScript ${bundledTs.version.replace(/\./g, '\\.')} \\(bundled with Scalpel\\)`),
    );
  });

  void test("the workspace's own TypeScript checks when it has one, and says so", async () => {
    const root = tempWorkspace('scalpel-own-ts-', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
      'src/sum.ts': SUM,
    });
    // A real TypeScript in the workspace's node_modules: the project's own (another version than ts-morph's).
    const projectTypescript = join(__dirname, ...Array<string>(4).fill('..'), 'node_modules', 'typescript');
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(projectTypescript, join(root, 'node_modules', 'typescript'));
    const version = (JSON.parse(readFileSync(join(projectTypescript, 'package.json'), 'utf8')) as { version: string })
      .version;
    const answer = [
      'REPLACE_ELEMENT src/sum.ts/function[sum]',
      '```ts',
      'export function sum(a: number, b: number): number {',
      '  return b + a;',
      '}',
      '```',
    ].join('\n');
    llm.server.enqueue(scripted.answer(answer), scripted.answer(answer));
    const own = await scalpel(root, ['edit', 'src/sum.ts', '-m', 'swap the operands', '--dry-run', '--json'], {
      env: llm.cliEnv,
    });
    assert.equal(own.code, 0, own.stderr);
    const checker = (JSON.parse(own.stdout) as { typeCheck?: { checker?: { version: string; source: string } } })
      .typeCheck?.checker;
    assert.deepEqual(checker && [checker.version, checker.source], [version, 'workspace']);

    const bundled = await scalpel(
      root,
      ['edit', 'src/sum.ts', '-m', 'swap the operands', '--dry-run', '--tsdk', 'bundled'],
      {
        env: llm.cliEnv,
      },
    );
    assert.equal(bundled.code, 0, bundled.stderr);
    assert.match(
      bundled.stderr,
      new RegExp(`types checked with TypeScript ${bundledTs.version.replace(/\./g, '\\.')} \\(bundled`),
    );
  });
});
