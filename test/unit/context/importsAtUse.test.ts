import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seenInContext, unseenTargets } from '../../../src/core/check/seenCode';
import { buildContext } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { loadLanguagesFor, outlineSource } from '../../../src/core/language/languages';
import { runEdit } from '../../../src/core/llm/pipeline';
import type { Operation } from '../../../src/core/ops/operation';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 28, imports at their use: a focused view shows the import declarations its code uses and one line for the
// rest, in every language; the seen-code rule then treats the block as partly seen.

const counter = createTokenCounter();
const FILE = 'src/App.tsx';

/** A 500-line import block, sorted by module, one declaration per line, then code. */
const IMPORTS = Array.from(
  { length: 500 },
  (_, i) => `import { Panel${i}, usePanel${i} } from './panels/panel${String(i).padStart(3, '0')}';`,
);
const HANDLERS = Array.from(
  { length: 30 },
  (_, i) => `export function handler${i}(event: Event): void {\n  console.log('handler ${i}', event.type);\n}\n`,
);
const MEMBER = `export function Toolbar(props: { title: string }) {
  const state = usePanel42(props.title);
  return (
    <Panel42 title={props.title} state={state}>
      <Panel7 />
    </Panel42>
  );
}
`;
const APP = `import React from 'react';\n${IMPORTS.join('\n')}\n\n${HANDLERS.join('\n')}\n${MEMBER}`;
const TOOLBAR = `${FILE}/function[Toolbar]`;

void describe('imports at their use', () => {
  const outline = outlineSource(FILE, APP);

  void test('the 8-line member of a file with a 500-line import block costs under 1,000 tokens, with its imports', () => {
    const context = buildContext([{ outline, focus: [TOOLBAR] }], counter, { budget: 12_000 });
    assert.ok(context.tokens < 1_000, `${context.tokens} tokens (the file: ${context.wholeFileTokens})`);
    assert.ok(context.text.includes("import { Panel42, usePanel42 } from './panels/panel042';\n"), context.text);
    assert.ok(context.text.includes("import { Panel7, usePanel7 } from './panels/panel007';\n"), context.text);
    assert.ok(!context.text.includes("from './panels/panel008'"), 'an import the code does not use is left out');
    assert.match(context.text, /^\/\/ 499 more imports: react, \.\/panels\/panel000, .*, … \d+ more \(lines 1-501\)$/m);
    assert.ok(context.text.includes(MEMBER.trimEnd()));
    // The import share is reported apart, for the bench.
    const [file] = context.files;
    assert.ok(file !== undefined && file.importTokens > 0 && file.importTokens < context.tokens * 0.25);
    // The imports left out are recorded as stubs: addressable, not seen.
    const level = (path: string): string | undefined => context.elements.find((e) => e.path === path)?.level;
    assert.equal(level(`${FILE}/import[./panels/panel042]`), 'full');
    assert.equal(level(`${FILE}/import[./panels/panel008]`), 'stub');
  });

  void test('a file with a few imports shows them all: the summary line would cost as much', () => {
    const small = outlineSource(
      'src/small.ts',
      `import { a } from './a';\nimport { b } from './b';\n\n${HANDLERS.join('\n')}export function useA(): number {\n  return a();\n}\n`,
    );
    const context = buildContext([{ outline: small, focus: ['src/small.ts/function[useA]'] }], counter);
    assert.ok(context.text.includes("import { b } from './b';"), context.text);
    assert.doesNotMatch(context.text, /more import/);
  });

  void test('a long declaration of which one name is used is shortened to that name, and counts as partly seen', () => {
    const names = Array.from({ length: 30 }, (_, i) => `  name${i},`).join('\n');
    const text = `import {\n${names}\n} from './names';\nimport { other } from './other';\n\n${HANDLERS.join('\n')}export function useOne(): number {\n  return name17 + other;\n}\n`;
    const shortened = outlineSource('src/names.ts', text);
    const context = buildContext([{ outline: shortened, focus: ['src/names.ts/function[useOne]'] }], counter);
    assert.ok(
      context.text.includes("import {\n  // … 17 more names\n  name17,\n  // … 12 more names\n} from './names';\n"),
      context.text,
    );
    assert.equal(context.elements.find((e) => e.path === 'src/names.ts/import[./names]')?.level, 'signature');
  });

  void test('REPLACE of an import not shown is refused and shown; ADD_IMPORT and REMOVE_IMPORT stay valid', () => {
    const context = buildContext([{ outline, focus: [TOOLBAR] }], counter);
    const seen = seenInContext(context);
    const operations: Operation[] = [
      { type: 'REPLACE_ELEMENT', path: `${FILE}/import[./panels/panel008]`, content: "import { Panel8 } from './x';" },
      { type: 'REPLACE_ELEMENT', path: `${FILE}/import[./panels/panel042]`, content: "import { Panel42 } from './y';" },
      { type: 'ADD_IMPORT', path: FILE, content: "import { Panel9 } from './panels/panel009';" },
      { type: 'REMOVE_IMPORT', path: FILE, content: "import { usePanel10 } from './panels/panel010';" },
      { type: 'DELETE_ELEMENT', path: `${FILE}/import[./panels/panel011]` },
    ];
    const refused = unseenTargets(operations, seen, (file) => (file === FILE ? outline : undefined));
    assert.deepEqual(
      refused.map((r) => r.show),
      [{ file: FILE, path: `${FILE}/import[./panels/panel008]` }],
    );
  });

  void test('in every language: the imports the shown code uses, one line for the others', async () => {
    const cases: Array<{ file: string; text: string; focus: string; used: string; unused: string; summary: RegExp }> = [
      {
        file: 'app/main.py',
        text: `${Array.from({ length: 40 }, (_, i) => `from pkg.mod${i} import thing${i}`).join('\n')}\nimport os\n\n\n${Array.from({ length: 30 }, (_, i) => `def helper${i}(x):\n    return x + ${i}\n`).join('\n\n')}\n\ndef main(path):\n    value = thing7(path)\n    return os.path.join(value, "x")\n`,
        focus: 'app/main.py/function[main]',
        used: 'from pkg.mod7 import thing7',
        unused: 'from pkg.mod8 import thing8',
        summary: /^# 39 more imports: pkg\.mod0, pkg\.mod1, /m,
      },
      {
        file: 'cmd/main.go',
        text: `package main\n\nimport (\n${Array.from({ length: 40 }, (_, i) => `\tp${i} "example.com/pkg/p${i}"`).join('\n')}\n)\n\nimport "strings"\n\n${Array.from({ length: 30 }, (_, i) => `func helper${i}(x int) int {\n\treturn x + ${i}\n}\n`).join('\n')}\nfunc Main(s string) string {\n\treturn strings.ToUpper(s)\n}\n`,
        focus: 'cmd/main.go/function[Main]',
        used: 'import "strings"',
        unused: '"example.com/pkg/p8"',
        summary: /^\/\/ 1 more import: example\.com\/pkg\/p0,/m,
      },
      {
        file: 'src/Main.java',
        text: `package demo;\n\n${Array.from({ length: 40 }, (_, i) => `import demo.parts.Part${i};`).join('\n')}\n\npublic class Main {\n${Array.from({ length: 30 }, (_, i) => `  int helper${i}(int x) {\n    return x + ${i};\n  }\n`).join('\n')}\n  Part7 make() {\n    return new Part7();\n  }\n}\n`,
        focus: 'src/Main.java/class[Main]/method[make]',
        used: 'import demo.parts.Part7;',
        unused: 'import demo.parts.Part8;',
        summary: /^\/\/ 39 more imports: demo\.parts\.Part0, /m,
      },
    ];
    for (const c of cases) {
      await loadLanguagesFor([c.file]);
      const view = buildContext([{ outline: outlineSource(c.file, c.text), focus: [c.focus] }], counter);
      assert.ok(view.text.includes(c.used), `${c.file}:\n${view.text}`);
      assert.ok(!view.text.includes(c.unused), `${c.file}:\n${view.text}`);
      assert.match(view.text, c.summary, `${c.file}:\n${view.text}`);
    }
  });
});

void describe('imports at their use, through the edit', () => {
  const llm = useScriptedModel();

  void test('an ADD_IMPORT written from the partial view lands where the file keeps its imports', async () => {
    const snapshot = { read: (path: string) => (path === FILE ? APP : undefined) };
    llm.server.enqueue(
      scripted.answer(
        [
          `ADD_IMPORT ${FILE}`,
          '```tsx',
          "import { Panel100Header } from './panels/panel100';",
          '```',
          `ADD_IMPORT ${FILE}`,
          '```tsx',
          "import { Toast } from './toast';",
          '```',
          `PATCH_ELEMENT ${TOOLBAR}`,
          '```tsx',
          '<<<<<<< SEARCH',
          '      <Panel7 />',
          '=======',
          '      <Panel7 />',
          '      <Toast />',
          '>>>>>>> REPLACE',
          '```',
        ].join('\n'),
      ),
    );
    const before = llm.server.requests.length;
    const outcome = await runEdit({
      instruction: 'show a toast under the seventh panel',
      files: [{ path: FILE, focus: [TOOLBAR] }],
      snapshot,
      provider: llm.provider(),
      counter,
      options: { repairRounds: 0 },
    });
    assert.equal(outcome.ok, true, outcome.failure);
    const sent = llm.userMessageOf(before);
    assert.ok(sent.includes('Task: show a toast'), sent);
    assert.ok(counter.count(sent) < 1_000, `${counter.count(sent)} tokens sent`);
    const after = outcome.apply.changes[0]?.after ?? '';
    // Merged into the declaration of its module, in the middle of the block the model did not see...
    assert.ok(after.includes("import { Panel100, Panel100Header, usePanel100 } from './panels/panel100';"), after);
    // ...and a new module after the last import, before the code.
    assert.ok(
      after.includes(
        "import { Panel499, usePanel499 } from './panels/panel499';\nimport { Toast } from './toast';\n\n",
      ),
      after.slice(0, 200),
    );
    assert.ok(after.includes('      <Panel7 />\n      <Toast />\n'));
  });
});
