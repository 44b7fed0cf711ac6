import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseOperations } from '../../../src/core/ops/format';
import { OPERATION_TYPES } from '../../../src/core/ops/operation';
import { checkProperty, fuzzRun } from './fuzzSettings';

/**
 * The parser against answers built from the pieces that trip fenced formats up (headers, fences of every length,
 * JSON, patch markers, tags) mixed with random text: it never throws, never reports an internal error, and what it
 * returns is well formed. 3,000 cases per unit run, 300,000 with `npm run fuzz`.
 */

const HEADER_WORDS = [...OPERATION_TYPES, 'MODIFY_ELEMENT', 'UPDATE_FILE', 'replace_element', '**REPLACE_ELEMENT**'];
const PATHS = [
  'src/a.ts/function[f]',
  'src/a.ts/class[A]/method[m]',
  'src/a.ts',
  'README.md',
  '`src/b.ts`',
  '"docs/my notes.md"',
  'file:src/c.ts',
  '../escape.ts',
  '/abs/path.ts',
  'src\\win\\path.ts',
  "src/a.ts/statement[describe('a b')]",
  '',
];
const POSITIONS = [
  '',
  'LAST_CHILD',
  'FIRST_CHILD',
  'AFTER method[m]',
  'BEFORE function[f]',
  'INSIDE',
  'KIND=method',
  '(method)',
  'LAST_CHILD BLANK_LINES=0,2',
  'AFTER method[m] BLANK_LINES=1',
  'BLANK_LINES=9',
  'BLANK_LINES=,',
];
const FENCES = [
  '```',
  '```ts',
  '```md',
  '```json',
  '````',
  '````md',
  '`````',
  '~~~',
  '~~~ts',
  '  ```',
  '```</operations>',
  '```bash',
];
const LINES = [
  '',
  '  ',
  '\t',
  '}',
  'return a;',
  'const s = `a``b```;',
  '<<<<<<< SEARCH',
  '=======',
  '>>>>>>> REPLACE',
  '<<<<<<<< SEARCH',
  '========',
  '<operations>',
  '</operations>',
  '[{ "type": "DELETE_ELEMENT", "path": "src/a.ts/function[f]" }]',
  '{ "operations": [',
  '{ "type": "CREATE_FILE", "path": "x.md", "content": "a\\nb" }',
  ']}',
  '"content": "unterminated',
  '// ... existing code ...',
  '# Title',
  '- item',
  '\r',
];

const headerLine = fc
  .tuple(
    fc.constantFrom('', '### ', '- ', '1. ', '> ', '<edit>'),
    fc.constantFrom(...HEADER_WORDS),
    fc.constantFrom(' ', '  ', ': ', '\t'),
    fc.constantFrom(...PATHS),
    fc.constantFrom(...POSITIONS),
  )
  .map(
    ([prefix, word, gap, path, position]) => `${prefix}${word}${gap}${path}${position === '' ? '' : ` ${position}`}`,
  );

const randomLine = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('`'.repeat(3), '`'.repeat(20), '~'.repeat(4)),
);

const line = fc.oneof(
  { weight: 3, arbitrary: headerLine },
  { weight: 4, arbitrary: fc.constantFrom(...FENCES) },
  { weight: 6, arbitrary: fc.constantFrom(...LINES) },
  { weight: 3, arbitrary: randomLine },
);

const answer = fc.oneof(
  fc.array(line, { maxLength: 40 }).map((lines) => lines.join('\n')),
  fc.array(line, { maxLength: 20 }).map((lines) => lines.join('\r\n')),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

void test('fuzz: the parser never throws and returns well-formed results', () => {
  const run = fuzzRun('parser', 3_000);
  checkProperty(
    'parser',
    run,
    fc.property(answer, (text) => {
      const result = parseOperations(text);
      const lineCount = text.split('\n').length;
      assert.ok(Array.isArray(result.operations) && Array.isArray(result.errors));
      for (const error of result.errors) {
        assert.ok(
          Number.isInteger(error.line) && error.line >= 1 && error.line <= lineCount + 1,
          `error line ${error.line}`,
        );
        assert.ok(typeof error.message === 'string' && error.message !== '');
        assert.doesNotMatch(error.message, /internal parser error/);
      }
      for (let i = 1; i < result.errors.length; i++) {
        assert.ok((result.errors[i - 1]?.line ?? 0) <= (result.errors[i]?.line ?? 0), 'errors sorted by line');
      }
      for (const operation of result.operations) {
        assert.ok((OPERATION_TYPES as readonly string[]).includes(operation.type), operation.type);
        assert.equal(typeof operation.path, 'string');
        assert.ok(operation.line === undefined || (operation.line >= 1 && operation.line <= lineCount));
        if (operation.type === 'PATCH_ELEMENT') {
          assert.ok(
            operation.patches.length > 0 &&
              operation.patches.every((p: { readonly search: string }) => p.search !== ''),
          );
        } else if (operation.type === 'RENAME_ELEMENT') {
          assert.ok(typeof operation.newName === 'string' && operation.newName !== '');
        } else if (operation.type !== 'DELETE_ELEMENT') {
          assert.equal(typeof operation.content, 'string');
        }
      }
    }),
  );
});
