import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { createEditService } from '../../../src/core/edit/editService';
import { outlineSource } from '../../../src/core/elements/outline';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import {
  contextReferences,
  describeGrouped,
  referencesBudgetOf,
  referencesPay,
} from '../../../src/core/graph/contextReferences';
import { ReferenceFinder, type ReferenceSite } from '../../../src/core/graph/references';
import { ReferenceSearchCutShort } from '../../../src/core/graph/semantics';
import { resolveElementPathOrThrow } from '../../../src/core/elements/resolve';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scriptedOpenAi } from '../pipeline/validateEdit';

// Where the focused elements are used, in the focused context: real files on disk, the real compiler, and for the
// edit the scripted model over real HTTP.

const GREET = `${Array.from({ length: 24 }, (_, i) => `export const label${i} = 'a label that pads the file ${i}';`).join('\n')}

export function greet(name: string): string {
  return name.length > 20 ? greet(name.slice(0, 20)) : \`Hello, \${name}\`;
}

export class Greeter {
  prefix = 'Hi';
  say(name: string): string {
    return \`\${this.prefix} \${greet(name)}\`;
  }
}
`;

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler' } }),
  'src/greet.ts': GREET,
  'src/app.ts': `import { greet, Greeter } from './greet';

export function main(): void {
  console.log(greet('Ada'));
  console.log(new Greeter().say('Bo'));
}

export const banner = greet('Banner');
`,
  'src/many.ts': `import { greet } from './greet';

${Array.from({ length: 30 }, (_, i) => `export const g${i} = greet('n${i}');`).join('\n')}
`,
};

const GREET_PATH = 'src/greet.ts/function[greet]';

void describe('references in the focused context', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-context-references-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root));
  const finder = new ReferenceFinder(graph);
  const counter = createTokenCounter();
  const outline = outlineSource('src/greet.ts', GREET);
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(async () => {
    await server.close();
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test('a focused function lists its callers in other files and the rest of its own file, not its own body', () => {
    const found = contextReferences(finder, [{ outline, focus: [GREET_PATH] }], counter);
    const appendix = found.appendices.get('src/greet.ts') ?? '';
    assert.match(appendix, /^References to src\/greet\.ts\/function\[greet\] \(33 in 3 files\):/);
    // Grouped by file, the path once: the element's own file first, then the others.
    assert.ok(
      appendix.includes(
        "src/greet.ts:\n- class[Greeter]/method[say]: return `${this.prefix} ${greet(name)}`;\nsrc/app.ts:\n- function[main]: console.log(greet('Ada'));\n- variable[banner]: export const banner = greet('Banner');\nsrc/many.ts:\n",
      ),
      appendix,
    );
    assert.equal(appendix.split('\n').filter((line) => line.startsWith('src/app.ts')).length, 1, appendix);
    // The recursive call is in the body the model sees in full: not listed.
    assert.ok(!appendix.includes('greet(name.slice(0, 20))'), appendix);
    // At most twelve sites, then where the rest are.
    assert.match(appendix, /\n- … and 21 more in src\/many\.ts$/);
    assert.equal(found.elements, 1);
    assert.ok(found.tokens <= referencesBudgetOf(undefined));
  });

  void test('a small budget lists fewer sites and still says how many there are', () => {
    const found = contextReferences(finder, [{ outline, focus: [GREET_PATH] }], counter, { contextBudget: 400 });
    const appendix = found.appendices.get('src/greet.ts') ?? '';
    assert.ok(found.tokens <= 40, `${found.tokens} tokens`);
    assert.match(appendix, /\(33 in 3 files\)/);
    assert.match(appendix, /… and \d+ more in/);
  });

  void test('methods and properties are looked up; a class or an element without uses elsewhere says so briefly', () => {
    const found = contextReferences(
      finder,
      [
        {
          outline,
          focus: ['src/greet.ts/class[Greeter]/method[say]', 'src/greet.ts/class[Greeter]/property[prefix]'],
        },
      ],
      counter,
    );
    const appendix = found.appendices.get('src/greet.ts') ?? '';
    assert.ok(appendix.includes("src/app.ts:\n- function[main]: console.log(new Greeter().say('Bo'));"), appendix);
    // `this.prefix` is inside `say`, which the model sees in full.
    assert.ok(appendix.includes('No uses of src/greet.ts/class[Greeter]/property[prefix] outside what is shown'));
    const forClass = contextReferences(finder, [{ outline, focus: ['src/greet.ts/class[Greeter]'] }], counter);
    assert.equal(forClass.appendices.size, 0, 'a class is not looked up: its members are');
  });

  void test('past the time limit the appendix says the search was cut short, and the next search is whole again', () => {
    const say = 'src/greet.ts/class[Greeter]/method[say]';
    const late = contextReferences(finder, [{ outline, focus: [GREET_PATH, say] }], counter, { timeLimitMs: 0 });
    const appendix = late.appendices.get('src/greet.ts') ?? '';
    assert.equal(late.cutShort, 2);
    assert.equal(late.sites, 0);
    assert.ok(
      appendix.includes(
        'References to src/greet.ts/function[greet]: not searched in time (2 other files mention the name); uses may exist beyond what is shown.',
      ),
      appendix,
    );
    assert.ok(
      appendix.includes(`References to ${say}: not searched in time (1 other file mentions the name)`),
      appendix,
    );
    const whole = contextReferences(finder, [{ outline, focus: [GREET_PATH] }], counter);
    assert.equal(whole.cutShort, 0);
    assert.match(whole.appendices.get('src/greet.ts') ?? '', /\(33 in 3 files\)/);
  });

  void test("the compiler's search stops at its time limit, checked between the files it searches", () => {
    const semantics = graph.semanticsFor('src/greet.ts');
    assert.ok(semantics !== undefined);
    const { element } = resolveElementPathOrThrow(outline, GREET_PATH);
    assert.throws(
      () => semantics.references('src/greet.ts', element, ['src/app.ts', 'src/many.ts'], new Map(), { timeLimitMs: 0 }),
      (error: unknown) => error instanceof ReferenceSearchCutShort && /cut short after \d+\.\d s/.test(error.message),
    );
    assert.equal(
      semantics.references('src/greet.ts', element, ['src/app.ts', 'src/many.ts'], new Map()).length,
      36,
      'without a limit the same search finds every use: the 33 listed, the recursive call and the two imports',
    );
  });

  void test('a workspace that lies under a node_modules folder is still searched (a package checked in place)', () => {
    const parent = mkdtempSync(join(tmpdir(), 'scalpel-context-references-nm-'));
    const inside = join(parent, 'node_modules', 'pkg');
    for (const [file, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(inside, file)), { recursive: true });
      writeFileSync(join(inside, file), text);
    }
    const nested = new CodeGraph(nodeSourceFileSystem(inside));
    try {
      const found = contextReferences(new ReferenceFinder(nested), [{ outline, focus: [GREET_PATH] }], counter);
      assert.match(found.appendices.get('src/greet.ts') ?? '', /\(33 in 3 files\)/);
    } finally {
      nested.dispose();
      rmSync(parent, { recursive: true, force: true });
    }
  });

  void test('the edit service sends the callers with the focused function, and `verify: syntax` leaves them out', async () => {
    const text = readFileSync(join(root, 'src/greet.ts'), 'utf8');
    const snapshot = { read: (path: string) => (path === 'src/greet.ts' ? text : undefined) };
    const service = createEditService({ workspaceRoot: root });
    const userMessages = async (verify: 'types' | 'syntax'): Promise<string> => {
      const before = server.requests.length;
      server.enqueue(scripted.answer('Nothing to do.'));
      await service.edit({
        instruction: 'add a greeting parameter to greet',
        files: [{ path: 'src/greet.ts', focus: [GREET_PATH] }],
        snapshot,
        provider: scriptedOpenAi(server),
        command: 'test.edit',
        settings: { repairRounds: 0, smallFileLines: 1, verify },
      });
      const body = server.requests[before]?.body;
      return String(body?.messages?.find((m) => m.role === 'user')?.content ?? '');
    };
    const withTypes = await userMessages('types');
    assert.ok(withTypes.includes("src/app.ts:\n- function[main]: console.log(greet('Ada'));"), withTypes);
    assert.ok(withTypes.indexOf('References to') < withTypes.indexOf('Task: add a greeting'));
    const withSyntax = await userMessages('syntax');
    assert.ok(!withSyntax.includes('References to'), withSyntax);
  });

  void test('a task that changes no signature gets no references: they are sent when they pay', async () => {
    const text = readFileSync(join(root, 'src/greet.ts'), 'utf8');
    const service = createEditService({ workspaceRoot: root });
    const before = server.requests.length;
    server.enqueue(scripted.answer('Nothing to do.'));
    await service.edit({
      instruction: 'greet with Hi instead of Hello',
      files: [{ path: 'src/greet.ts', focus: [GREET_PATH] }],
      snapshot: { read: (path: string) => (path === 'src/greet.ts' ? text : undefined) },
      provider: scriptedOpenAi(server),
      command: 'test.edit',
      settings: { repairRounds: 0, smallFileLines: 1 },
    });
    const sent = String(server.requests[before]?.body?.messages?.find((m) => m.role === 'user')?.content ?? '');
    assert.ok(sent.includes('Task: greet with Hi'), sent);
    assert.ok(!sent.includes('References to'), sent);
  });
});

void describe('references when they pay', () => {
  void test("the task's words say when a signature or export is likely to change", () => {
    for (const task of [
      'add a timeout parameter to fetchUser',
      'make load async',
      'rename total to sum',
      'return a Promise<string> instead',
      'export the helper',
      'change the signature of parse to take options',
      'update every caller of greet',
    ])
      assert.equal(referencesPay(task), true, task);
    for (const task of ['fix the off-by-one in the loop', 'log the error before rethrowing', 'trim the input'])
      assert.equal(referencesPay(task), false, task);
  });

  void test('uses are grouped by file with the path once: the own file first, then importers, tests last', () => {
    const site = (file: string, line: number, elementPath: string): ReferenceSite => ({
      file,
      line,
      column: 3,
      elementPath,
      lineText: `use(${line});`,
      isWrite: false,
      isCall: true,
    });
    const text = describeGrouped(
      {
        target: 'src/use.ts/function[use]',
        sites: [
          site('src/a.test.ts', 4, "src/a.test.ts/statement[describe]/call[it 'uses']"),
          site('src/b.ts', 9, 'src/b.ts/function[run]'),
          site('src/b.ts', 12, 'src/b.ts/function[stop]'),
          site('src/use.ts', 30, 'src/use.ts/function[again]'),
          site('src/z.ts', 2, 'src/z.ts/variable[z]'),
        ],
      },
      12,
      'src/use.ts',
    );
    assert.equal(
      text,
      [
        'References to src/use.ts/function[use] (5 in 4 files):',
        'src/use.ts:',
        '- function[again]: use(30);',
        'src/b.ts:',
        '- function[run]: use(9);',
        '- function[stop]: use(12);',
        'src/z.ts:',
        '- variable[z]: use(2);',
        'src/a.test.ts (test):',
        "- statement[describe]/call[it 'uses']: use(4);",
      ].join('\n'),
    );
  });
});
