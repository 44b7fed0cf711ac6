import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../../src/core/context/tokens';
import { diffElements, diffElementsInDetail } from '../../../../src/core/ops/diff';
import { serializeOperations } from '../../../../src/core/ops/format';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFile } from './applyToFile';

const FILE = 'src/user.ts';
const counter = createTokenCounter();

/** The diff, after checking the one promise it makes: applying it to `before` gives `after` exactly. */
function diffRoundTrip(before: string, after: string, file = FILE): Operation[] {
  const { operations, renames } = diffElementsInDetail(file, before, after);
  assert.equal(applyToFile(file, before, operations, renames), after, `applying\n${serializeOperations(operations)}`);
  return operations;
}

function summary(operations: readonly Operation[]): string[] {
  return operations.map((o) => `${o.type} ${o.path}`);
}

const userService = `import { Repository } from './repository';
import { hash } from './crypto';

/** Users and their passwords. */
export class UserService {
  private readonly cache = new Map<string, string>();

  constructor(private readonly repository: Repository) {}

  /** Looks a user up, first in the cache. */
  async find(id: string): Promise<string | undefined> {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const user = await this.repository.load(id);
    if (user === undefined) return undefined;
    this.cache.set(id, user.name);
    return user.name;
  }

  validate(name: string): boolean {
    return name.length > 0;
  }
}

export function normalize(name: string): string {
  return name.trim().toLowerCase();
}

export function greet(name: string): string {
  return \`Hello, \${name}\`;
}
`;

void describe('diffElements: element operations for a change', () => {
  void test('identical texts need no operations', () => {
    assert.deepEqual(diffElements(FILE, userService, userService), []);
  });

  void test('one changed line in a long method is a PATCH of that method, cheaper than its REPLACE', () => {
    const after = userService.replace(
      'if (user === undefined) return undefined;',
      'if (user === undefined) throw new Error(id);',
    );
    const operations = diffRoundTrip(userService, after);
    assert.deepEqual(summary(operations), [`PATCH_ELEMENT ${FILE}/class[UserService]/method[find]`]);
    const method = after.slice(after.indexOf('/** Looks'), after.indexOf('\n\n  validate'));
    const replace: Operation = {
      type: 'REPLACE_ELEMENT',
      path: `${FILE}/class[UserService]/method[find]`,
      content: method.replace(/\n {2}/g, '\n'),
    };
    assert.ok(counter.count(serializeOperations(operations)) < counter.count(serializeOperations([replace])));
  });

  void test('a short method rewritten whole is a REPLACE, cheaper than search/replace pairs', () => {
    const after = userService.replace('return name.length > 0;', 'return /^[a-z]+$/.test(name);');
    const operations = diffRoundTrip(userService, after);
    assert.deepEqual(summary(operations), [`REPLACE_ELEMENT ${FILE}/class[UserService]/method[validate]`]);
    const patch: Operation = {
      type: 'PATCH_ELEMENT',
      path: `${FILE}/class[UserService]/method[validate]`,
      patches: [{ search: '    return name.length > 0;', replace: '    return /^[a-z]+$/.test(name);' }],
    };
    assert.ok(counter.count(serializeOperations(operations)) <= counter.count(serializeOperations([patch])));
  });

  void test('a new method is created after its previous sibling', () => {
    const after = userService.replace(
      '    return name.length > 0;\n  }\n',
      '    return name.length > 0;\n  }\n\n  clear(): void {\n    this.cache.clear();\n  }\n',
    );
    const operations = diffRoundTrip(userService, after);
    assert.equal(operations.length, 1);
    const [create] = operations;
    assert.equal(create?.type, 'CREATE_ELEMENT');
    if (create?.type !== 'CREATE_ELEMENT') return;
    assert.equal(create.path, `${FILE}/class[UserService]`);
    assert.deepEqual(create.position, { kind: 'AFTER', sibling: 'method[validate]' });
    assert.equal(create.content, 'clear(): void {\n  this.cache.clear();\n}');
  });

  void test('a deleted function is one DELETE_ELEMENT', () => {
    const after = userService.replace(
      'export function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}\n\n',
      '',
    );
    assert.deepEqual(summary(diffRoundTrip(userService, after)), [`DELETE_ELEMENT ${FILE}/function[normalize]`]);
  });

  void test('two functions swapped are moved, not the file replaced', () => {
    const normalize = 'export function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}';
    const greet = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}';
    const after = userService.replace(`${normalize}\n\n${greet}`, `${greet}\n\n${normalize}`);
    const operations = diffRoundTrip(userService, after);
    assert.ok(!operations.some((o) => o.type === 'REPLACE_FILE'), summary(operations).join('\n'));
    assert.ok(operations.length <= 2, summary(operations).join('\n'));
  });

  void test('a changed import list changes only the import', () => {
    const after = userService.replace("import { hash } from './crypto';", "import { hash, verify } from './crypto';");
    const operations = diffRoundTrip(userService, after);
    assert.equal(operations.length, 1, summary(operations).join('\n'));
    const [operation] = operations;
    assert.ok(
      operation?.type === 'ADD_IMPORT' ||
        (operation?.type !== undefined && operation.path === `${FILE}/import[./crypto]`),
      summary(operations).join('\n'),
    );
  });

  void test('a binding appended out of alphabetical order is one ADD_IMPORT that writes out the list', () => {
    const before = "import { OperatorFunction } from '../types';\n\nexport const f: OperatorFunction = 1;\n";
    const after = before.replace('{ OperatorFunction }', '{ OperatorFunction, ObservableInput }');
    const operations = diffRoundTrip(before, after);
    assert.deepEqual(
      operations.map((o) => (o.type === 'ADD_IMPORT' ? o.content : o.type)),
      ["import { OperatorFunction, ObservableInput } from '../types';"],
    );
    assert.deepEqual(diffElementsInDetail(FILE, before, after, { counter }).fallbacks, []);
    // Sorted in, it needs only the new name.
    const sorted = diffRoundTrip(before, before.replace('{ OperatorFunction }', '{ Input, OperatorFunction }'));
    assert.deepEqual(
      sorted.map((o) => (o.type === 'ADD_IMPORT' ? o.content : o.type)),
      ["import { Input } from '../types';"],
    );
  });

  void test('a new import of another module is added on its own', () => {
    const after = userService.replace(
      "import { hash } from './crypto';\n",
      "import { hash } from './crypto';\nimport { log } from './log';\n",
    );
    const operations = diffRoundTrip(userService, after);
    assert.equal(operations.length, 1, summary(operations).join('\n'));
    assert.match(operations[0]?.type ?? '', /^(ADD_IMPORT|CREATE_ELEMENT)$/);
  });

  void test('an import added in the middle of the list is placed where it belongs', () => {
    const after = userService.replace(
      "import { Repository } from './repository';\n",
      "import { Repository } from './repository';\nimport { log } from './log';\n",
    );
    const operations = diffRoundTrip(userService, after);
    assert.deepEqual(summary(operations), [`CREATE_ELEMENT ${FILE}`]);
    assert.deepEqual(operations[0]?.type === 'CREATE_ELEMENT' ? operations[0].position : undefined, {
      kind: 'AFTER',
      sibling: 'import[./repository]',
    });
    // CREATE_ELEMENT beside an import is the import operation that keeps the position, not a fallback.
    assert.deepEqual(diffElementsInDetail(FILE, userService, after, { counter }).fallbacks, []);
  });

  void test('a comment removed above the first import patches that import in place, not the whole list', () => {
    const before = `/**\n * @prettier\n */\nimport { a } from './a';\nimport { b } from './b';\nimport { c } from './c';\n\nexport const x = a + b + c;\n`;
    const after = before.replace('/**\n * @prettier\n */\n', '');
    const operations = diffRoundTrip(before, after);
    // Removed lines take a line of context in a patch, so one PATCH of the import says it (s10a).
    assert.deepEqual(summary(operations), [`PATCH_ELEMENT ${FILE}/import[./a]`]);
    // A REPLACE keeps the doc comment it is not given, so the patch is the element's fallback; the file's is none.
    const fallbacks = diffElementsInDetail(FILE, before, after, { counter }).fallbacks;
    assert.deepEqual(
      fallbacks.map((f) => f.kind),
      ['element'],
    );
  });

  void test('an import added flush above the code of a file without imports is created BEFORE that code', () => {
    const before = 'type Handle = number;\ntype Clear = (handle: Handle) => void;\n';
    const after = `import type { Timer } from './timer';\n${before.replace('= number', '= Timer')}`;
    const operations = diffRoundTrip(before, after);
    assert.deepEqual(summary(operations), [`CREATE_ELEMENT ${FILE}`, `REPLACE_ELEMENT ${FILE}/type[Handle]`]);
    assert.deepEqual(diffElementsInDetail(FILE, before, after, { counter }).fallbacks, []);
  });

  void test('imports reordered, and a module changed where it stands, keep the other imports untouched', () => {
    const three = `import { a } from './a';\nimport { b } from './b';\nimport { c } from './c';\n\nexport const x = a + b + c;\n`;
    const swapped = three.replace(
      "import { a } from './a';\nimport { b } from './b';",
      "import { b } from './b';\nimport { a } from './a';",
    );
    const moved = diffRoundTrip(three, swapped);
    assert.equal(moved.length, 2, summary(moved).join('\n'));
    assert.ok(
      moved.every((o) => o.path === FILE || o.path.startsWith(`${FILE}/import[`)),
      summary(moved).join('\n'),
    );

    const renamed = diffRoundTrip(three, three.replace("from './b';", "from './b2';"));
    assert.deepEqual(
      summary(renamed).map((s) => s.replace(/^(REPLACE|PATCH)_ELEMENT/, 'EDIT')),
      [`EDIT ${FILE}/import[./b]`],
    );
  });

  void test('a renamed method is one operation on that method, which reports the rename', () => {
    const after = userService.replace('  validate(name: string): boolean {', '  isValid(name: string): boolean {');
    const operations = diffRoundTrip(userService, after);
    // With no other use of the name in the file, RENAME_ELEMENT is the cheapest of them.
    assert.deepEqual(
      summary(operations).map((s) => s.replace(/^(REPLACE|PATCH|RENAME)_ELEMENT/, 'EDIT')),
      [`EDIT ${FILE}/class[UserService]/method[validate]`],
    );
  });

  void test('a renamed top-level function and a renamed test are edited in place, not deleted and created', () => {
    const after = userService.replace('export function normalize(', 'export function normalized(');
    const operations = diffRoundTrip(userService, after);
    assert.equal(operations.length, 1, summary(operations).join('\n'));
    assert.equal(operations[0]?.path, `${FILE}/function[normalize]`);

    const spec =
      "describe('users', () => {\n  it('finds', () => {\n    expect(find(1)).toBe(1);\n  });\n\n  it('saves', () => {\n    save(1);\n  });\n});\n";
    const retitled = spec.replace("it('saves'", "it('saves a user'");
    const ops = diffRoundTrip(spec, retitled, 'src/user.test.ts');
    assert.equal(ops.length, 1, summary(ops).join('\n'));
    assert.equal(ops[0]?.path, "src/user.test.ts/statement[describe]/call[it 'saves']");
  });

  void test('several changed members of a class are one operation each, even where a patch of the class is cheaper', () => {
    const before = 'export class Limits {\n  min = 1;\n  max = 2;\n  step = 3;\n}\n';
    const after = 'export class Limits {\n  min = 10;\n  max = 20;\n  step = 30;\n}\n';
    const operations = diffRoundTrip(before, after);
    assert.deepEqual(
      operations.map((o) => o.path),
      [
        `${FILE}/class[Limits]/property[min]`,
        `${FILE}/class[Limits]/property[max]`,
        `${FILE}/class[Limits]/property[step]`,
      ],
    );
  });

  void test('a changed class header replaces or patches the class, not its members', () => {
    const after = userService.replace('export class UserService {', 'export class UserService extends Base {');
    const operations = diffRoundTrip(userService, after);
    assert.equal(operations.length, 1);
    assert.equal(operations[0]?.path, `${FILE}/class[UserService]`);
    assert.match(operations[0]?.type ?? '', /^(REPLACE_ELEMENT|PATCH_ELEMENT)$/);
  });

  void test('one member of an object literal changes alone', () => {
    const before = 'export const config = {\n  port: 8080,\n  host: "localhost",\n  retries: 3,\n};\n';
    const after = 'export const config = {\n  port: 9090,\n  host: "localhost",\n  retries: 3,\n};\n';
    assert.deepEqual(summary(diffRoundTrip(before, after)), [
      `REPLACE_ELEMENT ${FILE}/variable[config]/property[port]`,
    ]);
  });

  void test('an enum member added is created in the enum', () => {
    const before = 'export enum Color {\n  Red,\n  Green,\n}\n';
    const after = 'export enum Color {\n  Red,\n  Green,\n  Blue,\n}\n';
    const operations = diffRoundTrip(before, after);
    assert.equal(operations.length, 1, summary(operations).join('\n'));
    assert.ok(operations[0]?.path.startsWith(`${FILE}/enum[Color]`), summary(operations).join('\n'));
  });

  void test('CRLF files round-trip and the operations carry plain line breaks', () => {
    const before = userService.replace(/\n/g, '\r\n');
    const after = before.replace('return name.length > 0;', 'return name.trim().length > 0;');
    const operations = diffRoundTrip(before, after);
    assert.deepEqual(summary(operations), [`REPLACE_ELEMENT ${FILE}/class[UserService]/method[validate]`]);
    assert.ok(!JSON.stringify(operations).includes('\\r'));
  });

  void test("'use client' added above the imports, a blank line after it, is one CREATE_ELEMENT FIRST_CHILD", () => {
    const after = `'use client';\n\n${userService}`;
    const operations = diffRoundTrip(userService, after, 'src/user.tsx');
    assert.deepEqual(summary(operations), ['CREATE_ELEMENT src/user.tsx']);
    assert.deepEqual(operations[0]?.type === 'CREATE_ELEMENT' ? operations[0].position : undefined, {
      kind: 'FIRST_CHILD',
    });
  });

  void test("'use client' flush against the first import is created BEFORE it", () => {
    const operations = diffRoundTrip(userService, `'use client';\n${userService}`, 'src/user.tsx');
    assert.deepEqual(operations[0]?.type === 'CREATE_ELEMENT' ? operations[0].position : undefined, {
      kind: 'BEFORE',
      sibling: 'import[./repository]',
    });
  });

  void test("'use client' above a header comment, with an import added and a member changed, needs no REPLACE_FILE", () => {
    const before = `// Header of the file.\n\n${userService}`;
    const after = `'use client';\n\n// Header of the file.\n\n${userService}`
      .replace("import { hash } from './crypto';\n", "import { hash } from './crypto';\nimport { log } from './log';\n")
      .replace('return name.length > 0;', 'log(name);\n    return name.length > 0;');
    const diff = diffElementsInDetail('src/user.tsx', before, after);
    assert.equal(applyToFile('src/user.tsx', before, diff.operations), after);
    assert.ok(!diff.operations.some((o) => o.type === 'REPLACE_FILE'), summary(diff.operations).join('\n'));
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('a changed comment between top-level elements is a patch of the file, not REPLACE_FILE', () => {
    const before = `${userService}\n// Helpers below.\n\nexport const x = 1;\n`;
    const after = `${userService}\n// More helpers below.\n\nexport const x = 1;\n`;
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    assert.deepEqual(summary(diff.operations), [`PATCH_ELEMENT ${FILE}`]);
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('a changed comment between class members is a patch of the class that changes only the comment', () => {
    const before = userService.replace('  validate(', '  // Checks.\n\n  validate(');
    const after = userService.replace('  validate(', '  // Checks names.\n\n  validate(');
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    assert.deepEqual(
      diff.operations.map((o) => o.path),
      [`${FILE}/class[UserService]`],
    );
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('imports added above the old ones, after a new directive, are created before the import that stays', () => {
    const before = userService.replace(
      "import { Repository } from './repository';\n",
      "import { legacy } from './legacy';\n",
    );
    const after = `'use client';\n\nimport { log } from './log';\nimport { trace } from './trace';\n${userService.replace("import { Repository } from './repository';\n", '')}`;
    const diff = diffElementsInDetail('src/user.tsx', before, after);
    assert.equal(applyToFile('src/user.tsx', before, diff.operations), after);
    assert.ok(!diff.operations.some((o) => o.type === 'REPLACE_FILE'), summary(diff.operations).join('\n'));
  });

  void test('a new element the author wrote flush, where the file sets elements apart, carries its BLANK_LINES', () => {
    const after = userService.replace(
      'export function greet(',
      'export const shout = (name: string): string => {\n  return name.toUpperCase();\n};\nexport function greet(',
    );
    const diff = diffElementsInDetail(FILE, userService, after);
    assert.equal(applyToFile(FILE, userService, diff.operations), after);
    assert.deepEqual(summary(diff.operations), [`CREATE_ELEMENT ${FILE}`]);
    const created = diff.operations[0];
    assert.deepEqual(created?.type === 'CREATE_ELEMENT' ? created.blankLines : undefined, { above: 1, below: 0 });
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('an element moved to another place is deleted and created there, not REPLACE_FILE', () => {
    const after = userService
      .replace('export function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}\n\n', '')
      .concat('\nexport function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}\n');
    const diff = diffElementsInDetail(FILE, userService, after);
    assert.equal(applyToFile(FILE, userService, diff.operations), after);
    assert.deepEqual(summary(diff.operations).sort(), [
      `CREATE_ELEMENT ${FILE}`,
      `DELETE_ELEMENT ${FILE}/function[normalize]`,
    ]);
  });

  void test('an element moved, beside a change that has to be checked on its own, is still no REPLACE_FILE', () => {
    // The flush new element fails the first check of the whole plan, so each change is checked alone, where the moved
    // function created at its new place would clash with itself still standing at the old one.
    const after = userService
      .replace('export function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}\n\n', '')
      .replace('  validate(name: string)', '  check(): void {}\n  validate(name: string)')
      .concat('\nexport function normalize(name: string): string {\n  return name.trim().toLowerCase();\n}\n');
    const diff = diffElementsInDetail(FILE, userService, after);
    assert.equal(applyToFile(FILE, userService, diff.operations), after);
    assert.ok(!diff.operations.some((o) => o.type === 'REPLACE_FILE'), summary(diff.operations).join('\n'));
    assert.deepEqual(summary(diff.operations).sort(), [
      `CREATE_ELEMENT ${FILE}`,
      `CREATE_ELEMENT ${FILE}/class[UserService]`,
      `DELETE_ELEMENT ${FILE}/function[normalize]`,
    ]);
  });

  void test('a comment that stood apart above a function and now heads it is a patch of the file, not of the function', () => {
    const before = userService.replace('export function greet(', '/**\n * Says hello.\n */\n\nexport function greet(');
    const after = userService.replace(
      'export function greet(',
      '/**\n * Says hello to a user.\n */\nexport function greet(',
    );
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    assert.deepEqual(summary(diff.operations), [`PATCH_ELEMENT ${FILE}`]);
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('a new element under a section comment that stays is created before the element after it', () => {
    const before = userService.replace('export function greet(', '// Greetings\n\nexport function greet(');
    const after = userService.replace(
      'export function greet(',
      '// Greetings\n\nexport function wave(): string {\n  return "o/";\n}\n\nexport function greet(',
    );
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    const created = diff.operations[0];
    assert.deepEqual(created?.type === 'CREATE_ELEMENT' ? created.position : undefined, {
      kind: 'BEFORE',
      sibling: 'function[greet]',
    });
  });

  void test('commented-out code made code again is a patch of the file that takes the comment out, and the new element', () => {
    const commented = '// export function shout(name: string): string {\n//   return name.toUpperCase();\n// }\n\n';
    const before = userService.replace('export function greet(', `${commented}export function greet(`);
    const after = userService.replace(
      'export function greet(',
      'export function shout(name: string): string {\n  return name.toUpperCase();\n}\n\nexport function greet(',
    );
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    assert.deepEqual(summary(diff.operations).sort(), [`CREATE_ELEMENT ${FILE}`, `PATCH_ELEMENT ${FILE}`]);
  });

  void test('a new section, its heading comment apart from its first element, is created with the heading in its content', () => {
    const after = userService.concat(
      '\n/////////// Shouting ///////////\n\nexport function shout(name: string): string {\n  return name.toUpperCase();\n}\n',
    );
    const diff = diffElementsInDetail(FILE, userService, after);
    assert.equal(applyToFile(FILE, userService, diff.operations), after);
    assert.deepEqual(summary(diff.operations), [`CREATE_ELEMENT ${FILE}`]);
    const created = diff.operations[0];
    assert.match(
      created?.type === 'CREATE_ELEMENT' ? created.content : '',
      /^\/{11} Shouting \/{11}\n\nexport function shout/,
    );
  });

  void test('members written into an empty interface are created in it, not a replace of the interface', () => {
    const before = `${userService}export interface Options extends Base {}\n`;
    const after = `${userService}export interface Options extends Base {\n  strict: boolean;\n  depth?: number;\n}\n`;
    const diff = diffElementsInDetail(FILE, before, after);
    assert.equal(applyToFile(FILE, before, diff.operations), after);
    assert.deepEqual(summary(diff.operations), [
      `CREATE_ELEMENT ${FILE}/interface[Options]`,
      `CREATE_ELEMENT ${FILE}/interface[Options]`,
    ]);
    assert.deepEqual(diff.fallbacks, []);
  });

  void test('a broken old text is replaced whole, and so is a broken new one, which the engine then refuses', () => {
    const broken = userService.replace('validate(name: string): boolean {', 'validate(name: string): boolean {{');
    assert.deepEqual(summary(diffRoundTrip(broken, userService)), [`REPLACE_FILE ${FILE}`]);
    const diff = diffElementsInDetail(FILE, userService, broken);
    assert.deepEqual(diff.operations, [{ type: 'REPLACE_FILE', path: FILE, content: broken }]);
    assert.equal(diff.verified, false);
  });

  void test('a file the element model does not read is replaced whole', () => {
    assert.deepEqual(summary(diffRoundTrip('# Title\n', '# Title\n\nText.\n', 'README.md')), [
      'REPLACE_FILE README.md',
    ]);
  });
});
