import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseOperations, serializeOperations, serializeOperationsAsJson } from '../../../../src/core/ops/format';
import {
  OPERATION_TYPES,
  type CreatePosition,
  type Operation,
  type ParseResult,
  type SearchReplacePair,
} from '../../../../src/core/ops/operation';

/** Lines that have tripped up fenced formats: fences, headers, patch markers, tags, whitespace-only lines. */
const NASTY_LINES = [
  '```',
  '```ts',
  '````',
  '`````md',
  '~~~',
  '~~~ts',
  '  ```',
  'const s = `a``b```;',
  'REPLACE_ELEMENT src/a.ts/function[f]',
  'DELETE_ELEMENT src/a.ts/function[g]',
  '### CREATE_ELEMENT src/a.ts LAST_CHILD',
  'MODIFY_ELEMENT src/a.ts/function[f]',
  '<<<<<<< SEARCH',
  '=======',
  '>>>>>>> REPLACE',
  '<<<<<<<< SEARCH',
  '========',
  '>>>>>>>> REPLACE',
  '<operations>',
  '</operations>',
  '[{ "type": "DELETE_ELEMENT", "path": "x.ts/function[f]" }]',
  '```json',
  '',
  '  ',
  '\t',
  'return a;  ',
  '}',
];

const textLine = fc.oneof(
  fc.constantFrom(...NASTY_LINES),
  fc.string({ maxLength: 30 }).filter((line) => !/[\r\n]/.test(line)),
);

/** A code body: any lines at all, without carriage returns (the parser turns CRLF into LF by design). */
const body = fc.oneof(
  fc.constant(''),
  fc.constant('\n'),
  fc.array(textLine, { minLength: 1, maxLength: 8 }).map((lines) => lines.join('\n')),
);

const nameChar = fc.constantFrom(...'abcXYZ019_$. -()\'"{},#=\\[]'.split(''));
const kindWord = fc.constantFrom('class', 'method', 'function', 'property', 'variable', 'statement', 'export=');
const segment = fc
  .tuple(kindWord, fc.string({ unit: nameChar, maxLength: 8 }))
  .map(([kind, name]) => `${kind}[${name}]`);
const fileName = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'abz09_-. ('.split('')), minLength: 1, maxLength: 8 }),
    fc.constantFrom('.ts', '.tsx', '.js', '.md', '.json', ''),
  )
  .map(([stem, extension]) => stem + extension);
const anyFilePath = fc.array(fileName, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
const elementPath = fc
  .tuple(anyFilePath, fc.array(segment, { maxLength: 3 }), fc.boolean())
  .map(([file, segments, constructorLast]) =>
    [file, ...segments, ...(constructorLast ? ['constructor'] : [])].join('/'),
  );

/** Paths as the parser hands them out, which is what the serializer promises to write back unchanged. */
function isCanonicalPath(path: string): boolean {
  const wrapped = path.length >= 2 && /^["'`]/.test(path) && path.endsWith(path.charAt(0));
  return path.trim() === path && path !== '' && !/^file:/i.test(path) && !path.endsWith(':') && !wrapped;
}

const path = elementPath.filter(isCanonicalPath);
const filePath = anyFilePath.filter(isCanonicalPath);
const sibling = fc.oneof(segment, path).filter(isCanonicalPath);

const position: fc.Arbitrary<CreatePosition> = fc.oneof(
  fc.constant({ kind: 'FIRST_CHILD' as const }),
  fc.constant({ kind: 'LAST_CHILD' as const }),
  sibling.map((name) => ({ kind: 'BEFORE' as const, sibling: name })),
  sibling.map((name) => ({ kind: 'AFTER' as const, sibling: name })),
);

const pair: fc.Arbitrary<SearchReplacePair> = fc.record({ search: body.filter((text) => text !== ''), replace: body });

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ type: fc.constant('REPLACE_ELEMENT' as const), path, content: body }),
  fc.record({ type: fc.constant('CREATE_ELEMENT' as const), path, position, content: body }),
  fc.record({ type: fc.constant('CREATE_ELEMENT' as const), path, position, content: body, elementKind: kindWord }),
  fc.record({
    type: fc.constant('CREATE_ELEMENT' as const),
    path,
    position,
    content: body,
    blankLines: fc.record({ above: fc.integer({ min: 0, max: 3 }), below: fc.integer({ min: 0, max: 3 }) }),
  }),
  fc.record({ type: fc.constant('DELETE_ELEMENT' as const), path }),
  fc.record({
    type: fc.constant('PATCH_ELEMENT' as const),
    path,
    patches: fc.array(pair, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ type: fc.constant('ADD_IMPORT' as const), path: filePath, content: body }),
  fc.record({ type: fc.constant('REMOVE_IMPORT' as const), path, content: body }),
  fc.record({ type: fc.constant('CREATE_FILE' as const), path: filePath, content: body }),
  fc.record({ type: fc.constant('REPLACE_FILE' as const), path: filePath, content: body }),
);

/** Plain copies without `line`: fast-check builds records without a prototype, which deepEqual would count. */
function withoutLines(operations: readonly Operation[]): Operation[] {
  return operations.map((parsed) => {
    const copy = structuredClone({ ...parsed }) as Record<string, unknown>;
    delete copy['line'];
    return copy as unknown as Operation;
  });
}

const KIND_WORD = /^[A-Za-z][\w-]*=?$/;

/** What every consumer of a ParseResult may rely on, whatever the answer was. */
function assertWellFormed(result: ParseResult, answer: string): void {
  const lineCount = answer.split('\n').length;
  for (const error of result.errors) {
    assert.ok(
      Number.isInteger(error.line) && error.line >= 1 && error.line <= lineCount,
      `error line ${error.line} of ${lineCount}`,
    );
    assert.ok(error.message.length > 0);
    assert.ok(!error.message.includes('internal parser error'), error.message);
  }
  for (const parsed of result.operations) {
    assert.ok((OPERATION_TYPES as readonly string[]).includes(parsed.type));
    assert.ok(
      typeof parsed.path === 'string' && parsed.path.trim() !== '' && !parsed.path.includes('\n'),
      `path ${JSON.stringify(parsed.path)}`,
    );
    assert.ok(
      parsed.line !== undefined && Number.isInteger(parsed.line) && parsed.line >= 1 && parsed.line <= lineCount,
    );
    switch (parsed.type) {
      case 'DELETE_ELEMENT':
        break;
      case 'RENAME_ELEMENT':
        assert.match(parsed.newName, /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u);
        break;
      case 'PATCH_ELEMENT':
        assert.ok(parsed.patches.length > 0);
        for (const patch of parsed.patches) {
          assert.ok(typeof patch.search === 'string' && patch.search !== '' && typeof patch.replace === 'string');
        }
        break;
      case 'CREATE_ELEMENT':
        assert.ok(['FIRST_CHILD', 'LAST_CHILD', 'BEFORE', 'AFTER'].includes(parsed.position.kind));
        if (parsed.position.kind === 'BEFORE' || parsed.position.kind === 'AFTER')
          assert.ok(parsed.position.sibling !== '');
        if (parsed.elementKind !== undefined) assert.match(parsed.elementKind, KIND_WORD);
        assert.equal(typeof parsed.content, 'string');
        break;
      default:
        assert.equal(typeof parsed.content, 'string');
    }
  }
}

type Mutation =
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'duplicate'; readonly at: number }
  | { readonly kind: 'swap'; readonly at: number; readonly with: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'truncate'; readonly at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(textLine, fc.string({ maxLength: 40 })),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(answer: string, change: Mutation): string {
  if (change.kind === 'truncate') return answer.slice(0, change.at % (answer.length + 1));
  const lines = answer.split('\n');
  const at = change.at % (lines.length + 1);
  switch (change.kind) {
    case 'delete':
      lines.splice(at, 1);
      break;
    case 'duplicate':
      lines.splice(at, 0, lines[at] ?? '');
      break;
    case 'swap': {
      const other = change.with % lines.length;
      const first = lines[at % lines.length] ?? '';
      lines[at % lines.length] = lines[other] ?? '';
      lines[other] = first;
      break;
    }
    case 'insert':
      lines.splice(at, 0, change.text);
      break;
  }
  return lines.join('\n');
}

void describe('operation format properties', () => {
  void test('parseOperations(serializeOperations(ops)) gives back ops, with each line at its header', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 6 }), (operations) => {
        const text = serializeOperations(operations);
        const result = parseOperations(text);
        assert.deepEqual(result.errors, []);
        assert.deepEqual(withoutLines(result.operations), withoutLines(operations));
        const lines = text.split('\n');
        for (const parsed of result.operations) assert.ok(lines[(parsed.line ?? 0) - 1]?.startsWith(parsed.type));
      }),
      { numRuns: 400 },
    );
  });

  void test('the JSON form reads back to the same operations', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 6 }), (operations) => {
        const result = parseOperations(serializeOperationsAsJson(operations));
        assert.deepEqual(result.errors, []);
        assert.deepEqual(withoutLines(result.operations), withoutLines(operations));
      }),
      { numRuns: 300 },
    );
  });

  void test('a serialized answer survives CRLF line ends, an outer fence and prose around it', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 4 }), (operations) => {
        const wrapped = [
          'Here are the edits.',
          '',
          '<operations>',
          serializeOperations(operations),
          '</operations>',
          'Done.',
        ].join('\n');
        const result = parseOperations(wrapped.replace(/\n/g, '\r\n'));
        assert.deepEqual(result.errors, []);
        assert.deepEqual(withoutLines(result.operations), withoutLines(operations));
      }),
      { numRuns: 200 },
    );
  });

  void test('random damage to a valid answer never breaks the parser and never yields a malformed operation', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (operations, asJson, changes) => {
          const valid = asJson ? serializeOperationsAsJson(operations) : serializeOperations(operations);
          const damaged = changes.reduce(mutate, valid);
          assertWellFormed(parseOperations(damaged), damaged);
        },
      ),
      { numRuns: 500 },
    );
  });

  void test('arbitrary text never breaks the parser', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(textLine, fc.string({ unit: 'grapheme', maxLength: 20 })), { maxLength: 20 }),
        (lines) => {
          const text = lines.join('\n');
          assertWellFormed(parseOperations(text), text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
