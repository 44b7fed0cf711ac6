import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scalpel } from './runScalpel';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';

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
  const root = mkdtempSync(join(tmpdir(), 'scalpel-types-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'greet.ts'), GREET);
  writeFileSync(join(root, 'src', 'app.ts'), APP);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }));
  return root;
}

void describe('scalpel edit: the type check', () => {
  let server: ScriptedLlmServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startScriptedLlmServer();
    env = { OPENAI_API_KEY: 'sk-cli-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
  });
  after(async () => {
    await server.close();
  });

  const args = ['edit', 'src/greet.ts', '-m', 'greet takes the punctuation', '--repair-rounds', '1'];

  function lastUserMessage(index: number): string {
    const users = (server.requests[index]?.body?.messages ?? []).filter((m) => m.role === 'user');
    return String(users[users.length - 1]?.content ?? '');
  }

  void test('a required parameter that breaks a caller goes back with TS2554 and is not written', async () => {
    const root = workspace();
    server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const from = server.requests.length;
    const run = await scalpel(root, args, { env });

    assert.equal(run.code, 1, run.stderr);
    assert.equal(server.requests.length - from, 2, 'one repair round');
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
    server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const from = server.requests.length;
    const run = await scalpel(root, [...args, '--allow-new-errors'], { env });

    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserMessage(from + 1), /TS2554/, 'the errors still went back to the model first');
    assert.match(run.stderr, /new type errors allowed in src\/app\.ts: 1 error the edit adds\n.*TS2554/);
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREETED);
  });

  void test('stderr and --json report the same errors, stderr where to find them and not the advice meant for the model', async () => {
    const root = workspace();
    server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const run = await scalpel(root, [...args, '--allow-new-errors', '--json'], { env });

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
    server.enqueue(scripted.answer(ANSWER), scripted.answer(ANSWER));
    const run = await scalpel(root, [...args, '--allow-new-errors', '--json'], { env });

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
    server.enqueue(scripted.answer(ANSWER));
    const from = server.requests.length;
    const run = await scalpel(root, [...args, '--verify', 'syntax'], { env });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length - from, 1, 'no repair round');
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREETED);
  });

  void test('--verify takes types or syntax', async () => {
    const run = await scalpel(workspace(), [...args, '--verify', 'semantic'], { env });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--verify takes types or syntax, not "semantic"/);
  });
});
