import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 18's type check through `scalpel edit` in-process, the scripted model answering over real HTTP and the real
// TypeScript checker reading real files: a signature change that breaks a caller in another file goes back to the
// model with the error and is not written, unless --allow-new-errors.

const GREET = `export function greet(name: string): string {
  return \`Hello, \${name}\`;
}
`;
const APP = `import { greet } from './greet';

export function main(): string {
  return greet('world');
}
`;
const ANSWER = [
  'REPLACE_ELEMENT src/greet.ts/function[greet]',
  '```ts',
  'export function greet(name: string, punctuation: string): string {',
  '  return `Hello, ${name}${punctuation}`;',
  '}',
  '```',
].join('\n');
const GREETED = GREET.replace('name: string)', 'name: string, punctuation: string)').replace(
  '${name}`',
  '${name}${punctuation}`',
);

function workspace(): string {
  return tempWorkspace('scalpel-types-', {
    'src/greet.ts': GREET,
    'src/app.ts': APP,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
  });
}

void describe('scalpel edit: the type check', () => {
  const llm = useScriptedModel();

  const args = ['edit', 'src/greet.ts', '-m', 'greet takes the punctuation', '--repair-rounds', '1'];

  function lastUserMessage(index: number): string {
    const users = (llm.server.requests[index]?.body?.messages ?? []).filter((m) => m.role === 'user');
    return String(users[users.length - 1]?.content ?? '');
  }

  void test('a required parameter that breaks a caller goes back with TS2554 and is not written', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const from = llm.server.requests.length;
    const run = await scalpel(root, args, { env: llm.cliEnv });

    assert.equal(run.code, 1, run.stderr);
    assert.equal(llm.server.requests.length - from, 2, 'one repair round');
    const repair = lastUserMessage(from + 1);
    assert.match(repair, /src\/app\.ts/);
    assert.match(repair, /TS2554 Expected 2 arguments, but got 1/);
    assert.match(repair, /at: return greet\('world'\);/);
    assert.match(run.stderr, /TS2554/);
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREET, 'nothing written');
    assert.equal(readFileSync(join(root, 'src', 'app.ts'), 'utf8'), APP);
  });

  void test('with --allow-new-errors the edit is written and the errors are reported', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const from = llm.server.requests.length;
    const run = await scalpel(root, [...args, '--allow-new-errors'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserMessage(from + 1), /TS2554/, 'the errors still went back to the model first');
    assert.match(run.stderr, /new type errors allowed in src\/app\.ts: 1 error the edit adds\n.*TS2554/);
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREETED);
  });

  void test('stderr and --json report the same errors, stderr where to find them and not the advice meant for the model', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const run = await scalpel(root, [...args, '--allow-new-errors', '--json'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout) as { newTypeErrors?: { file: string; line: number; column: number }[] };
    const listed = run.stderr.split('\n').filter((line) => /^ {2}\S+:\d+:\d+ TS\d+ /.test(line));
    assert.deepEqual(
      listed.map((line) => line.trim().split(' ')[0]),
      (json.newTypeErrors ?? []).map((e) => `${e.file}:${e.line}:${e.column}`),
    );
    assert.match(
      listed[0] ?? '',
      /^ {2}src\/app\.ts:4:\d+ TS2554 Expected 2 arguments, but got 1\. \(in src\/app\.ts\/function\[main\]\)$/,
    );
    assert.doesNotMatch(run.stderr, /with further operations/, 'the repair advice is for the model, not the user');
  });

  void test('--json lists the new errors it was let through with, where they are', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const run = await scalpel(root, [...args, '--allow-new-errors', '--json'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout) as {
      newTypeErrors?: { file: string; line: number; code: number; elementPath?: string }[];
    };
    assert.deepEqual(
      json.newTypeErrors?.map((e) => [e.file, e.line, e.code, e.elementPath]),
      [['src/app.ts', 4, 2554, 'src/app.ts/function[main]']],
    );
  });

  void test('--verify syntax checks the parse alone', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(ANSWER));
    const from = llm.server.requests.length;
    const run = await scalpel(root, [...args, '--verify', 'syntax'], { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 1, 'no repair round');
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREETED);
  });

  void test('--verify takes types or syntax', async () => {
    const run = await scalpel(workspace(), [...args, '--verify', 'semantic'], { env: llm.cliEnv });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--verify takes types or syntax, not "semantic"/);
  });
});
