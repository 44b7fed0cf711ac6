import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOperations } from '../../../../src/core/ops/format';
import type { Operation, ParseResult } from '../../../../src/core/ops/operation';

const FENCE = '```';

/** Joins lines with \n; tests that need other line ends say so. */
const answer = (...lines: string[]): string => lines.join('\n');

function only(result: ParseResult): Operation {
  assert.deepEqual(result.errors, []);
  assert.equal(result.operations.length, 1, 'expected exactly one operation');
  const [operation] = result.operations;
  assert.ok(operation !== undefined);
  return operation;
}

void describe('parseOperations: every operation', () => {
  void test('REPLACE_ELEMENT gives the path, the raw code and the header line', () => {
    const result = parseOperations(
      answer(
        'REPLACE_ELEMENT src/user.ts/class[User]/method[validate]',
        `${FENCE}ts`,
        '/** Checks input. */',
        'validate(input: string): boolean {',
        '  return input.length > 0;',
        '}',
        FENCE,
      ),
    );
    assert.deepEqual(only(result), {
      type: 'REPLACE_ELEMENT',
      path: 'src/user.ts/class[User]/method[validate]',
      content: '/** Checks input. */\nvalidate(input: string): boolean {\n  return input.length > 0;\n}',
      line: 1,
    });
  });

  void test('CREATE_ELEMENT reads each of the four positions', () => {
    const cases: [string, unknown][] = [
      ['FIRST_CHILD', { kind: 'FIRST_CHILD' }],
      ['LAST_CHILD', { kind: 'LAST_CHILD' }],
      ['BEFORE method[validate]', { kind: 'BEFORE', sibling: 'method[validate]' }],
      [
        'AFTER src/user.ts/class[User]/method[validate]',
        { kind: 'AFTER', sibling: 'src/user.ts/class[User]/method[validate]' },
      ],
    ];
    for (const [written, position] of cases) {
      const operation = only(
        parseOperations(answer(`CREATE_ELEMENT src/user.ts/class[User] ${written}`, FENCE, 'reset(): void {}', FENCE)),
      );
      assert.deepEqual(operation, {
        type: 'CREATE_ELEMENT',
        path: 'src/user.ts/class[User]',
        position,
        content: 'reset(): void {}',
        line: 1,
      });
    }
  });

  void test('CREATE_ELEMENT takes the element kind as KIND=<kind> or (<kind>), anywhere after the path', () => {
    for (const header of [
      'CREATE_ELEMENT src/user.ts LAST_CHILD KIND=function',
      'CREATE_ELEMENT src/user.ts LAST_CHILD kind=function',
      'CREATE_ELEMENT src/user.ts LAST_CHILD (function)',
      'CREATE_ELEMENT src/user.ts KIND=function LAST_CHILD',
    ]) {
      const operation = only(parseOperations(answer(header, `${FENCE}ts`, 'export function f() {}', FENCE)));
      assert.equal(operation.type, 'CREATE_ELEMENT');
      assert.equal(operation.elementKind, 'function', header);
      assert.deepEqual(operation.position, { kind: 'LAST_CHILD' });
    }
  });

  void test('CREATE_ELEMENT takes the blank lines around the new element as BLANK_LINES=<above>,<below> or one count', () => {
    const read = (header: string): Operation =>
      only(parseOperations(answer(header, `${FENCE}ts`, 'const a = 1;', FENCE)));
    const both = read('CREATE_ELEMENT src/a.ts AFTER variable[x] BLANK_LINES=0,2 KIND=variable');
    assert.equal(both.type === 'CREATE_ELEMENT' && both.elementKind, 'variable');
    assert.deepEqual(both.type === 'CREATE_ELEMENT' && both.blankLines, { above: 0, below: 2 });
    assert.deepEqual(both.type === 'CREATE_ELEMENT' && both.position, { kind: 'AFTER', sibling: 'variable[x]' });
    const one = read('CREATE_ELEMENT src/a.ts blank_lines=1 LAST_CHILD');
    assert.deepEqual(one.type === 'CREATE_ELEMENT' && one.blankLines, { above: 1, below: 1 });
    const none = read('CREATE_ELEMENT src/a.ts LAST_CHILD');
    assert.equal(none.type === 'CREATE_ELEMENT' && none.blankLines, undefined);
  });

  void test('a BLANK_LINES that is no count, too many, or given twice is an error naming the form', () => {
    for (const [header, message] of [
      ['CREATE_ELEMENT src/a.ts LAST_CHILD BLANK_LINES=9', /"9" is not a count of blank lines/],
      ['CREATE_ELEMENT src/a.ts LAST_CHILD BLANK_LINES=one', /"one" is not a count of blank lines/],
      ['CREATE_ELEMENT src/a.ts LAST_CHILD BLANK_LINES=1,-1', /is not a count of blank lines/],
      ['CREATE_ELEMENT src/a.ts LAST_CHILD BLANK_LINES=1 BLANK_LINES=0', /BLANK_LINES is given twice/],
    ] as const) {
      const result = parseOperations(answer(header, `${FENCE}ts`, 'const a = 1;', FENCE));
      assert.equal(result.operations.length, 0, header);
      assert.match(result.errors[0]?.message ?? '', message, header);
      assert.match(result.errors[0]?.expected ?? '', /BLANK_LINES/, header);
    }
  });

  void test('position keywords are read in any case', () => {
    const operation = only(
      parseOperations(answer('CREATE_ELEMENT src/a.ts/class[A] after method[x]', FENCE, 'y() {}', FENCE)),
    );
    assert.equal(operation.type === 'CREATE_ELEMENT' && operation.position.kind, 'AFTER');
  });

  void test('DELETE_ELEMENT needs no body', () => {
    const result = parseOperations(
      answer('DELETE_ELEMENT src/user.ts/function[legacy]', 'DELETE_ELEMENT src/user.ts/variable[old]'),
    );
    assert.deepEqual(result, {
      operations: [
        { type: 'DELETE_ELEMENT', path: 'src/user.ts/function[legacy]', line: 1 },
        { type: 'DELETE_ELEMENT', path: 'src/user.ts/variable[old]', line: 2 },
      ],
      errors: [],
    });
  });

  void test('PATCH_ELEMENT reads several SEARCH/REPLACE pairs from one block, blank lines between them allowed', () => {
    const operation = only(
      parseOperations(
        answer(
          'PATCH_ELEMENT src/user.ts/class[User]/method[save]',
          `${FENCE}ts`,
          '<<<<<<< SEARCH',
          'const retries = 1;',
          '=======',
          'const retries = 3;',
          '>>>>>>> REPLACE',
          '',
          '<<<<<<< SEARCH',
          '  log(a);',
          '  log(b);',
          '=======',
          '>>>>>>> REPLACE',
          FENCE,
        ),
      ),
    );
    assert.deepEqual(operation, {
      type: 'PATCH_ELEMENT',
      path: 'src/user.ts/class[User]/method[save]',
      patches: [
        { search: 'const retries = 1;', replace: 'const retries = 3;' },
        { search: '  log(a);\n  log(b);', replace: '' },
      ],
      line: 1,
    });
  });

  void test('PATCH_ELEMENT pairs written without a fence are read up to the last REPLACE marker', () => {
    const result = parseOperations(
      answer(
        'PATCH_ELEMENT src/a.ts/function[f]',
        '<<<<<<< SEARCH',
        'return 1;',
        '=======',
        'return 2;',
        '>>>>>>> REPLACE',
        'This makes f return 2.',
        'DELETE_ELEMENT src/a.ts/function[g]',
      ),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['PATCH_ELEMENT', 'DELETE_ELEMENT'],
    );
    assert.deepEqual(result.operations[0]?.type === 'PATCH_ELEMENT' && result.operations[0].patches, [
      { search: 'return 1;', replace: 'return 2;' },
    ]);
  });

  void test('ADD_IMPORT and REMOVE_IMPORT carry the import declaration', () => {
    const result = parseOperations(
      answer(
        'ADD_IMPORT src/user.ts',
        `${FENCE}ts`,
        "import { z } from 'zod';",
        FENCE,
        'REMOVE_IMPORT src/user.ts',
        `${FENCE}ts`,
        "import { old } from './old';",
        FENCE,
      ),
    );
    assert.deepEqual(result.operations, [
      { type: 'ADD_IMPORT', path: 'src/user.ts', content: "import { z } from 'zod';", line: 1 },
      { type: 'REMOVE_IMPORT', path: 'src/user.ts', content: "import { old } from './old';", line: 5 },
    ]);
  });

  void test('REMOVE_IMPORT of an import[...] path needs no body: the module is the content', () => {
    const result = parseOperations(
      answer('REMOVE_IMPORT src/user.ts/import[./old]', '', 'DELETE_ELEMENT src/user.ts/function[f]'),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.operations[0], {
      type: 'REMOVE_IMPORT',
      path: 'src/user.ts/import[./old]',
      content: './old',
      line: 1,
    });
    assert.equal(result.operations.length, 2);
  });

  void test('CREATE_FILE and REPLACE_FILE take a whole file of any language', () => {
    const result = parseOperations(
      answer(
        'CREATE_FILE src/new.ts',
        `${FENCE}ts`,
        'export const a = 1;',
        FENCE,
        'REPLACE_FILE README.md',
        `${FENCE}md`,
        '# Title',
        '',
        'Text.',
        FENCE,
      ),
    );
    assert.deepEqual(result.operations, [
      { type: 'CREATE_FILE', path: 'src/new.ts', content: 'export const a = 1;', line: 1 },
      { type: 'REPLACE_FILE', path: 'README.md', content: '# Title\n\nText.', line: 5 },
    ]);
  });
});

void describe('parseOperations: tolerance where the intent is plain', () => {
  const replace = (header: string): Operation => only(parseOperations(answer(header, `${FENCE}ts`, 'f() {}', FENCE)));

  void test('prose before, between and after operations is ignored', () => {
    const result = parseOperations(
      answer(
        "I'll fix the validation and remove the legacy helper.",
        '',
        'REPLACE_ELEMENT src/a.ts/function[f]',
        FENCE,
        'f() {}',
        FENCE,
        'Now the helper is unused, so:',
        'DELETE_ELEMENT src/a.ts/function[legacy]',
        '',
        'Let me know if you want tests too.',
      ),
    );
    assert.deepEqual(result.errors, []);
    assert.deepEqual(
      result.operations.map((operation) => [operation.type, operation.line]),
      [
        ['REPLACE_ELEMENT', 3],
        ['DELETE_ELEMENT', 8],
      ],
    );
  });

  void test('markdown decoration on header lines is stripped', () => {
    for (const header of [
      '### REPLACE_ELEMENT src/a.ts/function[f]',
      '- REPLACE_ELEMENT src/a.ts/function[f]',
      '* REPLACE_ELEMENT src/a.ts/function[f]',
      '1. REPLACE_ELEMENT src/a.ts/function[f]',
      '**REPLACE_ELEMENT** src/a.ts/function[f]',
      '**REPLACE_ELEMENT src/a.ts/function[f]**',
      '**REPLACE_ELEMENT:** `src/a.ts/function[f]`',
      'REPLACE_ELEMENT `src/a.ts/function[f]`',
      '`REPLACE_ELEMENT` `src/a.ts/function[f]`',
      '`REPLACE_ELEMENT src/a.ts/function[f]`',
      'REPLACE_ELEMENT src/a.ts/function[f]:',
      'REPLACE_ELEMENT: src/a.ts/function[f]',
      '## 2. **REPLACE_ELEMENT** `src/a.ts/function[f]`:',
      'REPLACE_ELEMENT "src/a.ts/function[f]"',
      'REPLACE_ELEMENT file:src/a.ts/function[f]',
      'REPLACE_ELEMENT file: src/a.ts/function[f]',
      'replace_element src/a.ts/function[f]',
      '\tREPLACE_ELEMENT   src/a.ts/function[f]   ',
    ]) {
      const operation = replace(header);
      assert.equal(operation.path, 'src/a.ts/function[f]', header);
      assert.equal(operation.type, 'REPLACE_ELEMENT');
    }
  });

  void test('backslashes become slashes in the file part only; names keep theirs', () => {
    assert.equal(replace('REPLACE_ELEMENT src\\models\\user.ts/class[User]').path, 'src/models/user.ts/class[User]');
    assert.equal(replace('REPLACE_ELEMENT src\\a.ts/variable[a\\]b]').path, 'src/a.ts/variable[a\\]b]');
    assert.equal(replace('REPLACE_FILE docs\\guide.md').path, 'docs/guide.md');
    assert.equal(
      replace('REPLACE_ELEMENT app\\[id]\\page.tsx/function[Page]').path,
      'app/[id]/page.tsx/function[Page]',
    );
    // The file names of every shipped language end the file part, so a folder that reads like a segment stays one.
    assert.equal(
      replace('REPLACE_ELEMENT src\\cache[v2]\\views.py/class[Home]').path,
      'src/cache[v2]/views.py/class[Home]',
    );
    assert.equal(replace('REPLACE_ELEMENT src\\main\\Main.java/class[Main]').path, 'src/main/Main.java/class[Main]');
  });

  void test('a quoted path may hold spaces; bracketed names may hold spaces unquoted', () => {
    assert.equal(replace('REPLACE_FILE "docs/my notes.md"').path, 'docs/my notes.md');
    assert.equal(
      replace("REPLACE_ELEMENT src/a.test.ts/statement[describe('a b')]").path,
      "src/a.test.ts/statement[describe('a b')]",
    );
  });

  void test('wrapper tags around the answer or on the header line are ignored', () => {
    for (const text of [
      answer('<operations>', 'REPLACE_ELEMENT src/a.ts/function[f]', FENCE, 'f() {}', FENCE, '</operations>'),
      answer('<edit>REPLACE_ELEMENT src/a.ts/function[f]', FENCE, 'f() {}', `${FENCE}</edit>`),
      answer(
        '<operations>',
        '<edit file="src/a.ts">',
        'REPLACE_ELEMENT src/a.ts/function[f]',
        FENCE,
        'f() {}',
        FENCE,
        '</edit>',
        '</operations>',
      ),
    ]) {
      const operation = only(parseOperations(text));
      assert.equal(operation.type === 'REPLACE_ELEMENT' && operation.content, 'f() {}');
    }
  });

  void test('an answer wrapped in one outer fence is read as if unwrapped', () => {
    for (const outer of ['```', '```text', '````markdown', '~~~']) {
      const result = parseOperations(
        answer(
          outer,
          'REPLACE_ELEMENT src/a.ts/function[f]',
          `${FENCE}ts`,
          'f() {}',
          FENCE,
          '',
          'DELETE_ELEMENT src/a.ts/function[g]',
          outer.replace(/[a-z]+$/, ''),
        ),
      );
      assert.deepEqual(result.errors, [], outer);
      assert.deepEqual(
        result.operations.map((operation) => operation.type),
        ['REPLACE_ELEMENT', 'DELETE_ELEMENT'],
        outer,
      );
    }
  });

  void test('CRLF line ends are read as LF; trailing spaces and tabs in code are kept', () => {
    const operation = only(
      parseOperations(
        ['REPLACE_ELEMENT src/a.ts/function[f]  ', '```ts', 'function f() {  ', '\treturn 1;\t', '}', '```', ''].join(
          '\r\n',
        ),
      ),
    );
    assert.equal(operation.type === 'REPLACE_ELEMENT' && operation.content, 'function f() {  \n\treturn 1;\t\n}');
  });

  void test('leading and trailing blank lines inside the fence are code and kept', () => {
    const operation = replaceWith(['', 'x();', '']);
    assert.equal(operation, '\nx();\n');
  });

  function replaceWith(bodyLines: string[], opening = FENCE, closing = opening.replace(/[a-z]+$/, '')): string {
    const operation = only(parseOperations(answer('REPLACE_FILE a.md', opening, ...bodyLines, closing)));
    assert.ok(operation.type === 'REPLACE_FILE');
    return operation.content;
  }

  void test('a longer fence keeps code that contains ``` lines', () => {
    assert.equal(replaceWith(['const md = `', '```', 'x', '```', '`;'], '````ts'), 'const md = `\n```\nx\n```\n`;');
    assert.equal(replaceWith(['a', '```', 'b'], '~~~~', '~~~~~'), 'a\n```\nb');
  });

  void test('a body closes only at a fence of the same character, at least as long as the opening one', () => {
    assert.equal(replaceWith(['a', '~~~', '```', 'b'], '````'), 'a\n~~~\n```\nb');
    assert.equal(replaceWith(['a', '```'], '~~~'), 'a\n```');
  });

  void test('a markdown body with a nested ```lang block between plain ``` fences survives whole', () => {
    assert.equal(
      replaceWith(['# Setup', '```bash', 'npm i', '```', 'Done.'], '```md'),
      '# Setup\n```bash\nnpm i\n```\nDone.',
    );
  });

  void test('a fence indented in a list item strips that indentation from the code', () => {
    const result = parseOperations(
      answer('- REPLACE_ELEMENT src/a.ts/function[f]', '  ```ts', '  function f() {', '    return 1;', '  }', '  ```'),
    );
    const operation = only(result);
    assert.equal(operation.type === 'REPLACE_ELEMENT' && operation.content, 'function f() {\n  return 1;\n}');
  });

  void test('a body line reading like a header stays code when the fence is not broken', () => {
    const content = replaceWith(['REPLACE_ELEMENT is documented here.', 'DELETE_ELEMENT src/x.ts/function[y]']);
    assert.equal(content, 'REPLACE_ELEMENT is documented here.\nDELETE_ELEMENT src/x.ts/function[y]');
  });

  void test('a ```json block of operations in prose is read as operations; other JSON in prose is ignored', () => {
    const result = parseOperations(
      answer(
        'The config stays:',
        '```json',
        '{ "strict": true }',
        '```',
        'Operations:',
        '```json',
        '[{ "type": "DELETE_ELEMENT", "path": "src/a.ts/function[f]" }]',
        '```',
      ),
    );
    assert.deepEqual(result, {
      operations: [{ type: 'DELETE_ELEMENT', path: 'src/a.ts/function[f]', line: 7 }],
      errors: [],
    });
  });

  void test('a prose line that only mentions a constant in capitals is not an operation', () => {
    const result = parseOperations(answer('MAX_RETRIES is now 3.', 'DEFAULT_TIMEOUT stays.'));
    assert.deepEqual(result, { operations: [], errors: [] });
  });

  void test('an empty answer or pure prose gives nothing and no error', () => {
    assert.deepEqual(parseOperations(''), { operations: [], errors: [] });
    assert.deepEqual(parseOperations('I cannot make this change without the file.'), { operations: [], errors: [] });
  });
});

void describe('parseOperations: strict where the intent is not plain', () => {
  const errorsOf = (text: string): { line: number; message: string }[] =>
    parseOperations(text).errors.map(({ line, message }) => ({ line, message }));

  void test('an unknown operation type that looks like one is an error listing the valid types, and its code is skipped', () => {
    const result = parseOperations(
      answer('Intro.', 'MODIFY_ELEMENT src/a.ts/function[f]', FENCE, 'DELETE_ELEMENT inside code', FENCE),
    );
    assert.equal(result.operations.length, 0);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0]?.line, 2);
    assert.match(result.errors[0]?.message ?? '', /MODIFY_ELEMENT/);
    assert.match(result.errors[0]?.expected ?? '', /REPLACE_ELEMENT, CREATE_ELEMENT, DELETE_ELEMENT, PATCH_ELEMENT/);
  });

  void test('a header without a path is an error', () => {
    assert.deepEqual(errorsOf(answer('', 'DELETE_ELEMENT')), [{ line: 2, message: 'DELETE_ELEMENT has no path' }]);
  });

  void test('text after the path is an error rather than part of the path', () => {
    const [error] = errorsOf(answer('DELETE_ELEMENT src/a.ts/function[f] (unused now)'));
    assert.equal(error?.line, 1);
    assert.match(error?.message ?? '', /unexpected text after the path/);
  });

  void test('CREATE_ELEMENT without a position, with an unknown one, or BEFORE without a sibling is an error', () => {
    const body = [FENCE, 'x() {}', FENCE];
    assert.match(errorsOf(answer('CREATE_ELEMENT src/a.ts/class[A]', ...body))[0]?.message ?? '', /has no position/);
    assert.match(
      errorsOf(answer('CREATE_ELEMENT src/a.ts/class[A] INSIDE', ...body))[0]?.message ?? '',
      /unknown position "INSIDE"/,
    );
    assert.match(
      errorsOf(answer('CREATE_ELEMENT src/a.ts/class[A] BEFORE', ...body))[0]?.message ?? '',
      /BEFORE needs a sibling/,
    );
    assert.match(
      errorsOf(answer('CREATE_ELEMENT src/a.ts/class[A] LAST_CHILD method[x]', ...body))[0]?.message ?? '',
      /unexpected "method\[x\]"/,
    );
    assert.match(
      errorsOf(answer('CREATE_ELEMENT src/a.ts/class[A] LAST_CHILD (a new method)', ...body))[0]?.message ?? '',
      /not an element kind/,
    );
  });

  void test('an operation that needs code but has none is an error at its header; the next operation still reads', () => {
    const result = parseOperations(
      answer('REPLACE_ELEMENT src/a.ts/function[f]', 'function f() {}', 'DELETE_ELEMENT src/a.ts/function[g]'),
    );
    assert.deepEqual(
      result.errors.map(({ line, message }) => ({ line, message })),
      [{ line: 1, message: 'REPLACE_ELEMENT has no fenced code block after its header' }],
    );
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['DELETE_ELEMENT'],
    );
  });

  void test('PATCH_ELEMENT errors: no pair, a SEARCH without markers, an empty SEARCH, text outside pairs', () => {
    const patch = (...body: string[]): { line: number; message: string }[] =>
      errorsOf(answer('PATCH_ELEMENT src/a.ts/function[f]', FENCE, ...body, FENCE));
    assert.deepEqual(patch(), [{ line: 1, message: 'PATCH_ELEMENT has no SEARCH/REPLACE pair' }]);
    assert.deepEqual(patch('return 1;'), [{ line: 3, message: 'text outside a SEARCH/REPLACE pair: "return 1;"' }]);
    assert.deepEqual(patch('<<<<<<< SEARCH', 'return 1;', 'return 2;'), [
      { line: 3, message: 'SEARCH without ======= and >>>>>>> REPLACE markers' },
    ]);
    assert.deepEqual(patch('<<<<<<< SEARCH', 'a', '=======', 'b'), [
      { line: 5, message: 'SEARCH/REPLACE pair without >>>>>>> REPLACE' },
    ]);
    assert.deepEqual(patch('<<<<<<< SEARCH', '=======', 'b', '>>>>>>> REPLACE'), [
      { line: 3, message: 'SEARCH text is empty' },
    ]);
    assert.deepEqual(patch('<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE'), [
      { line: 3, message: 'SEARCH has no ======= divider before >>>>>>> REPLACE' },
    ]);
  });

  void test('a body cut off by the end of the answer is an error at its opening fence; earlier operations are kept', () => {
    const result = parseOperations(
      answer(
        'DELETE_ELEMENT src/a.ts/function[g]',
        'REPLACE_ELEMENT src/a.ts/function[f]',
        '```ts',
        'function f() {',
        '  return',
      ),
    );
    assert.deepEqual(
      result.operations.map((operation) => operation.type),
      ['DELETE_ELEMENT'],
    );
    assert.deepEqual(
      result.errors.map(({ line, message }) => ({ line, message })),
      [{ line: 3, message: 'the code fence opened here is never closed: the answer looks truncated' }],
    );
  });

  void test('a forgotten closing fence is reported where the next operation starts, and that operation is read', () => {
    const result = parseOperations(
      answer(
        'REPLACE_ELEMENT src/a.ts/function[f]',
        '```ts',
        'function f() {}',
        '',
        'REPLACE_ELEMENT src/a.ts/function[g]',
        '```ts',
        'function g() {}',
        '```',
      ),
    );
    assert.deepEqual(
      result.errors.map(({ line, message }) => ({ line, message })),
      [{ line: 2, message: 'the code fence opened here is not closed before the operation at line 5' }],
    );
    assert.deepEqual(
      result.operations.map((operation) => operation.path),
      ['src/a.ts/function[g]'],
    );
  });

  void test('a runaway header line gives an error that quotes only the start of the stray text', () => {
    const [error] = parseOperations(`DELETE_ELEMENT src/a.ts/function[f] ${'"and more '.repeat(5000)}`).errors;
    assert.match(error?.message ?? '', /^unexpected text after the path: "\"and more/);
    assert.ok((error?.message.length ?? 0) < 120, `${error?.message.length} characters`);
  });

  void test('errors carry what was expected, in words a model can act on', () => {
    const [error] = parseOperations(answer('CREATE_ELEMENT src/a.ts/class[A] END', FENCE, 'x() {}', FENCE)).errors;
    assert.equal(error?.expected, 'FIRST_CHILD, LAST_CHILD, BEFORE <sibling> or AFTER <sibling>');
  });

  void test('input that is not a string does not throw', () => {
    const result = parseOperations(undefined as unknown as string);
    assert.deepEqual(result.operations, []);
  });
});
