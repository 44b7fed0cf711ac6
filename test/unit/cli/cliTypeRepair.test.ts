import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 24's repair rounds for type errors, through `scalpel edit` with the real checker: the errors come with the
// code that must change (a caller the model saw only as a signature is attached in full and may then be replaced), a
// caller in a file outside the request is attached too and its file joins the batch (or, past the budget, can be
// brought in with NEED), a file that cannot be edited here is no reason for another round, and the failure says what
// to do in flags.

const GREET = `export function greet(name: string): string {
  return \`Hello, \${name}\`;
}
`;
/** Long enough (over the 50-line small-file limit) to be sent as a focused view, its functions as signatures. */
const APP = `import { greet } from './greet';

export function main(): string {
  return greet('world');
}
${Array.from({ length: 30 }, (_, i) => `\nexport function other${i}(): number {\n  return ${i};\n}`).join('\n')}
`;
const NEW_GREET = [
  'REPLACE_ELEMENT src/greet.ts/function[greet]',
  '```ts',
  'export function greet(name: string, punctuation: string): string {',
  '  return `Hello, ${name}${punctuation}`;',
  '}',
  '```',
].join('\n');
const NEW_MAIN = [
  'REPLACE_ELEMENT src/app.ts/function[main]',
  '```ts',
  'export function main(): string {',
  "  return greet('world', '!');",
  '}',
  '```',
].join('\n');

function workspace(extra: Record<string, string> = {}): string {
  return tempWorkspace('scalpel-type-repair-', {
    'src/greet.ts': GREET,
    'src/app.ts': APP,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
    ...extra,
  });
}

/** `scalpel edit` of greet with app.ts in the request, focused far from main: main is sent as its signature only. */
function editSeeingMainAsSignature(message: string): string[] {
  return [
    'edit',
    'src/greet.ts',
    'src/app.ts',
    '--focus',
    'src/greet.ts/function[greet]',
    '--focus',
    'src/app.ts/function[other29]',
    '-m',
    message,
  ];
}

void describe('scalpel edit: type errors come with the code to fix them (issue 24)', () => {
  const llm = useScriptedModel();

  void test('a caller seen only as a signature is attached in full, and the signature change applies after one repair round', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(NEW_GREET), scripted.answer(NEW_MAIN));
    const from = llm.server.requests.length;
    const run = await scalpel(root, editSeeingMainAsSignature('greet takes the punctuation'), { env: llm.cliEnv });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 2, 'one repair round');
    const first = llm.userMessageOf(from);
    assert.doesNotMatch(first, /export function main\(\): string \{\n/, 'the first request did not show main in full');
    const repair = llm.messagesOf(from + 1).at(-1)?.content ?? '';
    assert.match(
      repair,
      /- in src\/app\.ts:\n {2}- src\/app\.ts\/function\[main\]: TS2554 Expected 2 arguments, but got 1\./,
    );
    assert.match(repair, /The code holding these errors, which you had not seen in full/);
    assert.match(
      repair,
      /\/\/ @ src\/app\.ts\/function\[main\]\nexport function main\(\): string \{\n {2}return greet\('world'\);\n\}/,
    );
    assert.match(readFileSync(join(root, 'src', 'app.ts'), 'utf8'), /greet\('world', '!'\)/);
    assert.match(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), /punctuation: string/);
  });

  void test('a caller in a file outside the request comes in full with the repair, and both change after one round', async () => {
    const root = workspace();
    llm.server.enqueue(scripted.answer(NEW_GREET), scripted.answer(NEW_MAIN));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/greet.ts', '-m', 'greet takes the punctuation'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 2, 'one repair round');
    const repair = llm.messagesOf(from + 1).at(-1)?.content ?? '';
    assert.match(repair, /- in src\/app\.ts, a file outside this request that may be edited in this batch/);
    assert.match(
      repair,
      /\/\/ @ src\/app\.ts\/function\[main\]\nexport function main\(\): string \{\n {2}return greet\('world'\);\n\}/,
    );
    assert.match(readFileSync(join(root, 'src', 'app.ts'), 'utf8'), /greet\('world', '!'\)/);
    assert.match(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), /punctuation: string/);
  });

  void test('a caller past what the repair can attach is offered with NEED, and the errors stay in view beside the answer', async () => {
    // Two callers outside the request of about 6,000 tokens each: the repair's budget holds one of them.
    const big = (name: string, call: string): string =>
      `import { greet } from './greet';\n\nexport function ${name}(): string {\n${Array.from(
        { length: 500 },
        (_, i) => `  const value${i} = 'line ${i} of ${name}';\n`,
      ).join('')}  return ${call};\n}\n`;
    const root = workspace({
      'src/first.ts': big('first', "greet('one')"),
      'src/second.ts': big('second', "greet('two')"),
    });
    const fix = (file: string, name: string, call: string): string =>
      `REPLACE_ELEMENT src/${file}.ts/function[${name}]\n\`\`\`ts\n${big(name, call).split('\n').slice(2).join('\n')}\`\`\``;
    llm.server.enqueue(
      scripted.answer(`${NEW_GREET}\n\n${NEW_MAIN}`),
      // The model asks for the caller the repair named but could not attach.
      scripted.answer('NEED src/second.ts/function[second]'),
      scripted.answer(
        `${fix('first', 'first', "greet('one', '!')")}\n\n${fix('second', 'second', "greet('two', '!')")}`,
      ),
    );
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/greet.ts', 'src/app.ts', '-m', 'greet takes the punctuation'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 3);
    const repair = llm.messagesOf(from + 1).at(-1)?.content ?? '';
    assert.match(repair, /- in src\/first\.ts, a file outside this request that may be edited in this batch/);
    assert.match(repair, /- in src\/second\.ts, a file outside this request:\n/);
    assert.match(repair, /answer NEED src\/second\.ts\/function\[second\] \(one per line\)/);
    const afterNeed = llm.messagesOf(from + 2);
    assert.match(afterNeed.at(-1)?.content ?? '', /The code you asked for \(NEED\), in full/);
    assert.ok(
      afterNeed.some((m) => /Type errors your batch causes/.test(m.content)),
      'the repair message listing the errors is not cut from the conversation by the answer to NEED',
    );
    assert.match(readFileSync(join(root, 'src', 'first.ts'), 'utf8'), /greet\('one', '!'\)/);
    assert.match(readFileSync(join(root, 'src', 'second.ts'), 'utf8'), /greet\('two', '!'\)/);
  });

  void test('errors in a file that cannot be edited here end the rounds at once, named with the flags', async () => {
    // A read-only caller: the write policy protects it, so no operation of this request may change it. (An ignored
    // folder is not listed at all, so its files are no importers the check reads.)
    const root = workspace({
      'generated/use.ts': "import { greet } from '../src/greet';\n\nexport const hello = greet('you');\n",
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src', 'generated'] }),
      'src/app.ts': "import { greet } from './greet';\n\nexport const fine = greet('a', 'b');\n",
    });
    chmodSync(join(root, 'generated', 'use.ts'), 0o444);
    llm.server.enqueue(scripted.answer(NEW_GREET), scripted.answer(NEW_GREET));
    const from = llm.server.requests.length;
    const run = await scalpel(root, ['edit', 'src/greet.ts', '-m', 'greet takes the punctuation'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 1, run.stderr);
    assert.equal(llm.server.requests.length - from, 1, 'no repair round for errors no operation can fix');
    assert.match(run.stderr, /new type errors the model did not fix in generated\/use\.ts: 1 error/);
    assert.match(
      run.stderr,
      /^ {2}generated\/use\.ts:3:\d+ TS2554 Expected 2 arguments, but got 1\. \(in generated\/use\.ts\/variable\[hello\]\)$/m,
    );
    assert.match(run.stderr, /--allow-new-errors writes it with them; --verify syntax checks the syntax alone/);
    assert.match(run.stderr, /in files this request cannot edit/);
    assert.doesNotMatch(run.stderr, /[Rr]ephrase/);
    assert.equal(readFileSync(join(root, 'src', 'greet.ts'), 'utf8'), GREET, 'nothing written');
  });

  void test("earlier rounds' failures are not sent again, and the failure line stays one short line", async () => {
    const root = workspace();
    const wrong = (name: string): string =>
      [
        'REPLACE_ELEMENT src/greet.ts/function[greet]',
        '```ts',
        `export function ${name}(): number {`,
        '  return 1;',
        '}',
        '```',
      ].join('\n');
    llm.server.enqueue(scripted.answer(NEW_GREET), scripted.answer(NEW_GREET), scripted.answer(wrong('greet')));
    const from = llm.server.requests.length;
    const run = await scalpel(root, editSeeingMainAsSignature('x'), { env: llm.cliEnv });

    assert.equal(run.code, 1);
    const third = llm.messagesOf(from + 2);
    const users = third.filter((m) => m.role === 'user').map((m) => m.content);
    assert.equal(
      users.filter((u) => u.includes('TS2554 Expected 2 arguments')).length,
      1,
      'only the latest round lists the errors',
    );
    assert.match(users[1] ?? '', /^\(This round's failures are superseded by a later message\.\)/);
    assert.ok(
      run.stderr.split('\n').every((line) => line.length <= 2_000),
      'no line of stderr is a wall of text',
    );
  });
});
