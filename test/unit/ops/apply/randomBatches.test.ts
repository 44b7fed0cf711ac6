import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ElementNode } from '../../../../src/core/elements/element';
import { outlineSource } from '../../../../src/core/elements/outline';
import { allElements } from '../../../../src/core/elements/resolve';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { CreatePosition, Operation } from '../../../../src/core/ops/operation';
import { assertWellFormed, fixture } from './applyHarness';

/**
 * Random batches of valid and invalid operations on the fixtures: the engine never throws, answers ok only when every
 * operation is ok, returns nothing when a batch fails, and what it returns parses.
 */

const files: Record<string, string> = {
  'src/service.ts': fixture('service.ts'),
  'src/config.ts': fixture('config.ts'),
  'src/component.tsx': fixture('component.tsx'),
  'src/legacy.ts': fixture('legacy.ts'),
  'README.md': '# Read me\n',
};

interface Known {
  readonly file: string;
  readonly element: ElementNode;
  readonly text: string;
}

const known: Known[] = Object.entries(files)
  .filter(([file]) => /\.tsx?$/.test(file))
  .flatMap(([file, text]) => allElements(outlineSource(file, text)).map((element) => ({ file, element, text })));

const containers = known.filter((k) => k.element.children.length > 0 || k.element.bodyRange !== undefined);
const fileNames = Object.keys(files);

const elementArb = fc.constantFrom(...known);
const nameArb = fc.constantFrom('fresh', 'other', 'validate', 'port', 'Red', 'x', 'name', 'parse', 'run');

const contentArb = (k: Known): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(k.text.slice(k.element.range.start, k.element.range.end)),
    fc.constant(k.text.slice(k.element.range.start, k.element.range.end).replace(/\b\w+\b/, 'renamed')),
    fc.constant('// ... existing code ...'),
    fc.constant(''),
    fc.constant('}{'),
    nameArb.map((n) => `${n}(): void {}`),
    nameArb.map((n) => `export const ${n} = 1;`),
  );

const memberArb = fc.oneof(
  nameArb.map((n) => `${n}(): number {\n  return 1;\n}`),
  nameArb.map((n) => `${n} = 2;`),
  nameArb.map((n) => `${n}: 3,`),
  nameArb.map((n) => `export function ${n}(): void {}`),
  nameArb.map((n) => `${n}: string;`),
  fc.constant('garbage ) ('),
  fc.constant('/* ... */'),
);

const positionArb: fc.Arbitrary<CreatePosition> = fc.oneof(
  fc.constant({ kind: 'FIRST_CHILD' } as const),
  fc.constant({ kind: 'LAST_CHILD' } as const),
  elementArb.map((k) => ({ kind: 'BEFORE', sibling: k.element.path.split('/').pop() ?? '' }) as const),
  elementArb.map((k) => ({ kind: 'AFTER', sibling: k.element.path }) as const),
);

const pathTypoArb = elementArb.map((k) => k.element.path.replace(/\]$/, 'x]'));

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  elementArb.chain((k) =>
    contentArb(k).map((content): Operation => ({ type: 'REPLACE_ELEMENT', path: k.element.path, content })),
  ),
  pathTypoArb.map((path): Operation => ({ type: 'REPLACE_ELEMENT', path, content: 'x(): void {}' })),
  elementArb.map((k): Operation => ({ type: 'DELETE_ELEMENT', path: k.element.path })),
  pathTypoArb.map((path): Operation => ({ type: 'DELETE_ELEMENT', path })),
  elementArb.chain((k) => {
    const lines = k.text.slice(k.element.range.start, k.element.range.end).split('\n');
    return fc.constantFrom(...lines).map((line): Operation => ({
      type: 'PATCH_ELEMENT',
      path: k.element.path,
      patches: [{ search: line, replace: line.replace(/\d/, '7') }],
    }));
  }),
  fc
    .tuple(fc.constantFrom(...containers, undefined), positionArb, memberArb)
    .map(([container, position, content]): Operation => ({
      type: 'CREATE_ELEMENT',
      path: container?.element.path ?? 'src/service.ts',
      position,
      content,
    })),
  fc
    .tuple(
      fc.constantFrom(...fileNames),
      fc.constantFrom(
        "import { a } from './a';",
        "import { Input } from './decorators';",
        "import type { Base } from './base';",
        "'./base'",
        'nonsense',
      ),
    )
    .chain(([path, content]) =>
      fc.constantFrom<Operation>({ type: 'ADD_IMPORT', path, content }, { type: 'REMOVE_IMPORT', path, content }),
    ),
  fc
    .tuple(
      fc.constantFrom(...fileNames, 'src/new.ts', '../escape.ts', '/abs.ts'),
      fc.constantFrom('export const a = 1;\n', 'broken (', '// ... rest of file ...'),
    )
    .chain(([path, content]) =>
      fc.constantFrom<Operation>({ type: 'CREATE_FILE', path, content }, { type: 'REPLACE_FILE', path, content }),
    ),
);

void describe('random batches on the fixtures', () => {
  void test('never throw; ok only when every operation is ok; a failed batch changes nothing; results parse', () => {
    fc.assert(
      fc.property(fc.array(operationArb, { maxLength: 6 }), fc.boolean(), (operations, partial) => {
        const result = applyOperations({ read: (path) => files[path] }, operations, { partial });
        assertWellFormed(files, operations, result);
        if (!result.ok && !partial) assert.deepEqual(result.changes, []);
        for (const change of result.changes) {
          if (!/\.tsx?$/.test(change.path)) continue;
          const before =
            change.before === undefined ? 0 : outlineSource(change.path, change.before).syntaxErrors.length;
          assert.ok(outlineSource(change.path, change.after).syntaxErrors.length <= before, `${change.path} parses`);
        }
        for (const r of result.results) {
          if (r.status === 'failed') assert.ok((r.hint ?? r.message ?? '').length > 0);
        }
      }),
      { numRuns: 150, seed: 20260522 },
    );
  });

  void test('replacing every element with its own text changes nothing', () => {
    for (const k of known) {
      const content = k.text.slice(k.element.range.start, k.element.range.end);
      const result = applyOperations({ read: (path) => files[path] }, [
        { type: 'REPLACE_ELEMENT', path: k.element.path, content },
      ]);
      assert.ok(result.ok, `${k.element.path}: ${result.results[0]?.message ?? ''}`);
      assert.deepEqual(result.changes, [], k.element.path);
    }
  });
});
