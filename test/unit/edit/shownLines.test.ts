import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { unseenTargets } from '../../../src/core/check/seenCode';
import { linesShownIn } from '../../../src/core/edit/shownLines';
import { outlineSource } from '../../../src/core/elements/outline';
import { parseOperations } from '../../../src/core/ops/format';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from '../cli/runScalpel';

// Issue 24 item 4, lines shown are lines seen: a PATCH_ELEMENT whose SEARCH lines were all shown verbatim (a
// references list, a FIND answer, a repair excerpt) is written from what the model saw; a whole replacement of an
// element seen only by name is still refused.

const GREET = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n';
const helper = (i: number): string =>
  `export function helper${i}(values: number[]): number {\n  let total = 0;\n  for (const value of values) total += value * ${i + 1};\n  return total;\n}\n`;
/** Long enough to be sent focused: `main` is shown by its name only, its call of greet in greet's references. */
const APP = `import { greet } from './greet';\n\n${[0, 1, 2, 3].map(helper).join('\n')}\nexport function main(): string {\n  const who = 'world';\n  return greet(who);\n}\n\n${[4, 5, 6, 7].map(helper).join('\n')}`;
const MAIN = 'src/app.ts/function[main]';

function patchMain(search: string[], replace: string[]): string {
  return [
    `PATCH_ELEMENT ${MAIN}`,
    '```ts',
    '<<<<<<< SEARCH',
    ...search,
    '=======',
    ...replace,
    '>>>>>>> REPLACE',
    '```',
  ].join('\n');
}

void describe('lines shown verbatim count as seen for a PATCH_ELEMENT', () => {
  const llm = useScriptedModel();

  const workspace = (): string =>
    tempWorkspace('scalpel-lines-', {
      'src/greet.ts': GREET,
      'src/app.ts': APP,
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
    });
  const args = [
    'edit',
    'src/greet.ts',
    'src/app.ts',
    '--focus',
    'src/greet.ts/function[greet]',
    '--focus',
    'src/app.ts/function[helper0]',
    '--no-plan',
    '-m',
    'shout the greeting in main',
  ];

  void test('a patch of the call line the references list showed applies in the first round', async () => {
    // greet.ts long enough to be sent focused: a file sent whole gets no references list.
    const root = tempWorkspace('scalpel-lines-', {
      'src/greet.ts': `${GREET}\n${[10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map(helper).join('\n')}`,
      'src/app.ts': APP,
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
    });
    llm.server.enqueue(scripted.answer(patchMain(['  return greet(who);'], ['  return greet(who).toUpperCase();'])));
    const from = llm.server.requests.length;
    // The task's words name the call sites, so the context lists greet's references (issue 28: they are listed when
    // they pay), grouped by file: `src/app.ts:` then `- function[main]: return greet(who);`.
    const atCallSites = args.map((arg) => (arg === 'shout the greeting in main' ? 'shout the greeting at the call sites of greet' : arg));
    const run = await scalpel(root, atCallSites, { env: llm.cliEnv });
    const context = llm.userMessageOf(from);
    assert.ok(
      context.includes('src/app.ts:\n- function[main]: return greet(who);'),
      `the references list shows the line:\n${context}`,
    );
    assert.equal(run.code, 0, `${run.stderr}\n${llm.userMessageOf(from + 1)}`);
    assert.equal(llm.server.requests.length - from, 1, 'no seen-code round');
    assert.ok(!context.includes("const who = 'world';"), "main's body is not shown");
    assert.match(readFileSync(join(root, 'src', 'app.ts'), 'utf8'), /return greet\(who\)\.toUpperCase\(\);/);
  });

  void test('a patch of a line a FIND answer showed applies after the FIND round', async () => {
    const root = workspace();
    llm.server.enqueue(
      scripted.answer('FIND greet'),
      scripted.answer(patchMain(['  return greet(who);'], ['  return greet(who).toUpperCase();'])),
    );
    const from = llm.server.requests.length;
    // --verify syntax: no references list in the context, so the FIND answer is the only place the line was shown.
    const run = await scalpel(root, [...args, '--verify', 'syntax'], { env: llm.cliEnv });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!llm.userMessageOf(from).includes('return greet(who);'));
    assert.ok(llm.userMessageOf(from + 1).includes(`- used in ${MAIN}: return greet(who);`));
    assert.equal(llm.server.requests.length - from, 2, 'the FIND round, then the answer that applies');
  });

  void test('a patch that also searches a line never shown is refused and main is shown in full', async () => {
    const root = workspace();
    const guessed = patchMain(["  const who = 'world';", '  return greet(who);'], ["  return greet('you');"]);
    llm.server.enqueue(scripted.answer(guessed), scripted.answer(guessed));
    const from = llm.server.requests.length;
    const run = await scalpel(root, args, { env: llm.cliEnv });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 2);
    assert.match(
      llm.userMessageOf(from + 1),
      /PATCH_ELEMENT of src\/app\.ts\/function\[main\], which you saw only as a signature or stub/,
    );
  });
});

void describe('what counts as shown', () => {
  void test('listings are read from what was sent: references, FIND uses, the reference check, type errors', () => {
    const text = [
      'References to src/greet.ts/function[greet] (2 in 2 files):',
      '- src/app.ts/function[main]: return greet(who);',
      '- src/cli.ts (top level): greet(process.argv[2]);',
      'FIND greet: defined once, 1 use',
      '- defined: src/greet.ts/function[greet]  export function greet(name: string): string',
      '- used in src/b.ts/class[B]/method[run]: this.out(greet(this.name));',
      '- src/c.ts:4 in src/c.ts/function[f]: return greet(x);',
      '- src/d.ts/function[g]: TS2554 Expected 2 arguments, but got 1.',
      "    at: return greet('world');",
      '- src/e.ts/function[h]: ' + 'x'.repeat(150) + '…',
      '```ts',
      '- src/f.ts/function[k]: inside a code block',
      '```',
    ].join('\n');
    assert.deepEqual(Object.fromEntries(linesShownIn(text)), {
      'src/app.ts': ['return greet(who);'],
      'src/cli.ts': ['greet(process.argv[2]);'],
      'src/b.ts': ['this.out(greet(this.name));'],
      'src/c.ts': ['return greet(x);'],
      'src/d.ts': ["return greet('world');"],
    });
  });

  void test('a references list grouped by file (issue 28): each site counts for the file heading it', () => {
    const text = [
      'References to src/greet.ts/function[greet] (4 in 3 files):',
      'src/greet.ts:',
      '- function[twice]: return greet(greet(name));',
      'src/app.ts:',
      '- function[main]: return greet(who);',
      '- (top level): greet(process.argv[2]);',
      'test/greet.test.ts (test):',
      "- call[it('greets')]: assert.equal(greet('a'), 'Hello, a');",
      '- … and 2 more in src/other.ts',
      '',
      '- not a site: the heading ended above',
    ].join('\n');
    assert.deepEqual(Object.fromEntries(linesShownIn(text)), {
      'src/greet.ts': ['return greet(greet(name));'],
      'src/app.ts': ['return greet(who);', 'greet(process.argv[2]);'],
      'test/greet.test.ts': ["assert.equal(greet('a'), 'Hello, a');"],
    });
  });

  void test('the rule: every SEARCH line shown; a whole replacement still needs the element in full', () => {
    const outline = outlineSource('src/app.ts', APP);
    const seen = {
      wholeFiles: new Set<string>(),
      fullElements: new Set<string>(),
      lines: new Map([['src/app.ts', new Set(['return greet(who);'])]]),
    };
    const refused = (answer: string): string[] =>
      unseenTargets(parseOperations(answer).operations, seen, () => outline).map((r) => r.operation.type);
    assert.deepEqual(refused(patchMain(['  return greet(who);', ''], ['  return greet(who) + 1;'])), []);
    assert.deepEqual(refused(patchMain(["  const who = 'world';"], ["  const who = 'you';"])), ['PATCH_ELEMENT']);
    const replace = [
      `REPLACE_ELEMENT ${MAIN}`,
      '```ts',
      'export function main(): string {',
      '  return greet(who);',
      '}',
      '```',
    ];
    assert.deepEqual(refused(replace.join('\n')), ['REPLACE_ELEMENT']);
  });
});
