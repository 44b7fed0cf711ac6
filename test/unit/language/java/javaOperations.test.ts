import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import { diffElements } from '../../../../src/core/ops/diff';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFixture, elementAt, readFixture } from '../specCases';

/** Java's import operations and the members after an enum's constants, on the hard-case file and small texts. */

const FILE = 'src/main/java/com/example/shapes/HardCases.java';
const TEXT = readFixture('java/fixtures/HardCases.java');
const KIND = 'class[HardCases]/enum[Kind]';

function apply(text: string, operations: readonly Operation[]) {
  return applyOperations({ read: (path) => (path === FILE ? text : undefined) }, operations);
}

const add = (content: string): Operation => ({ type: 'ADD_IMPORT', path: FILE, content });
const remove = (content: string, path = FILE): Operation => ({ type: 'REMOVE_IMPORT', path, content });

/** The first lines of a text, up to its first type. */
function head(text: string): string {
  return text.slice(0, text.search(/^(\/\*\*|class|public|@)/m));
}

const GROUPED = [
  'package com.example;',
  '',
  'import java.io.File;',
  'import java.util.List;',
  '',
  'import javax.inject.Inject;',
  '',
  'import org.example.Thing;',
  '',
  'import static org.junit.Assert.assertEquals;',
  '',
  'class A {}',
  '',
].join('\n');

void describe('Java import operations', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('ADD_IMPORT takes its sorted place in the group of its package; a static import among the static ones', () => {
    const after = applyToFixture(FILE, TEXT, [add('import java.util.Map;'), add('import static java.lang.Math.abs;')]);
    assert.equal(
      head(after),
      [
        'package com.example.shapes;',
        '',
        'import java.util.List;',
        'import java.util.Map;',
        'import java.util.function.Function;',
        'import static java.lang.Math.abs;',
        'import static java.lang.Math.sqrt;',
        '',
        '',
      ].join('\n'),
    );
  });

  void test('the nearest group of several, separated by blank lines; several new ones at one place stay sorted', () => {
    const after = applyToFixture(FILE, GROUPED, [
      add('javax.annotation.Nullable'),
      add('java.util.Set'),
      add('java.util.Map'),
      add('static org.junit.Assert.assertTrue'),
      add('org.example.Other'),
    ]);
    assert.equal(
      after,
      [
        'package com.example;',
        '',
        'import java.io.File;',
        'import java.util.List;',
        'import java.util.Map;',
        'import java.util.Set;',
        '',
        'import javax.annotation.Nullable;',
        'import javax.inject.Inject;',
        '',
        'import org.example.Other;',
        'import org.example.Thing;',
        '',
        'import static org.junit.Assert.assertEquals;',
        'import static org.junit.Assert.assertTrue;',
        '',
        'class A {}',
        '',
      ].join('\n'),
    );
  });

  void test('an unsorted group gets the new import at its end', () => {
    const text = 'import java.util.Map;\nimport java.util.List;\n\nclass A {}\n';
    const after = applyToFixture(FILE, text, [add('java.util.Set')]);
    assert.equal(after, 'import java.util.Map;\nimport java.util.List;\nimport java.util.Set;\n\nclass A {}\n');
  });

  void test('content with or without the keyword and the semicolon reads the same', () => {
    for (const content of ['import java.util.Map;', 'import java.util.Map', 'java.util.Map;', '  java.util.Map  ']) {
      const after = applyToFixture(FILE, TEXT, [add(content)]);
      assert.match(after, /^import java\.util\.List;\nimport java\.util\.Map;\nimport java\.util\.function/m, content);
    }
    const statics = applyToFixture(FILE, TEXT, [add('static java.lang.Math.abs')]);
    assert.match(statics, /^import static java\.lang\.Math\.abs;\nimport static java\.lang\.Math\.sqrt;$/m);
  });

  void test('already imported, also through a wildcard of its package: a note, and nothing changes', () => {
    const same = apply(TEXT, [add('import java.util.List;')]);
    assert.equal(same.ok, true);
    assert.deepEqual(same.changes, []);
    assert.match(same.results[0]?.message ?? '', /java\.util\.List is already imported/);
    const text = 'import java.util.*;\nimport static org.junit.Assert.*;\n\nclass A {}\n';
    const covered = apply(text, [add('java.util.Map'), add('static org.junit.Assert.assertTrue')]);
    assert.equal(covered.ok, true);
    assert.deepEqual(covered.changes, []);
    assert.match(covered.results[0]?.message ?? '', /already imported by java\.util\.\*/);
    assert.match(covered.results[1]?.message ?? '', /already imported by static org\.junit\.Assert\.\*/);
    // A wildcard imports the package's types, not the types nested in them.
    const nested = applyToFixture(FILE, text, [add('java.util.Map.Entry')]);
    assert.match(nested, /^import java\.util\.Map\.Entry;$/m);
  });

  void test('a second type of the same simple name is refused and the file stays as it was', () => {
    const result = apply(TEXT, [add('java.util.Map'), add('java.awt.List')]);
    assert.equal(result.ok, false);
    assert.deepEqual(result.changes, []);
    const message = result.results[1]?.message ?? '';
    assert.match(message, /'List' is already imported as java\.util\.List/);
  });

  void test('malformed content gets a clear error', () => {
    for (const [content, pattern] of [
      ['import java.util.;', /does not parse/],
      ['class A {}', /not an import declaration/],
      ['import java.util.List; class A {}', /not an import declaration/],
      ['List<String>', /does not parse|not an import declaration/],
    ] as const) {
      const result = apply(TEXT, [add(content)]);
      assert.equal(result.ok, false, content);
      assert.deepEqual(result.changes, []);
      assert.match(result.results[0]?.message ?? '', pattern, content);
      assert.match(result.results[0]?.hint ?? '', /e\.g\. import java\.util\.List;/);
    }
  });

  void test('a file without imports gets the first one after its package line, else after its header comment', () => {
    assert.equal(
      applyToFixture(FILE, 'package a.b;\n\nclass A {}\n', [add('java.util.List')]),
      'package a.b;\n\nimport java.util.List;\n\nclass A {}\n',
    );
    assert.equal(
      applyToFixture(FILE, '/* Licence. */\npackage a.b;\n\n/** A. */\nclass A {}\n', [add('java.util.List')]),
      '/* Licence. */\npackage a.b;\n\nimport java.util.List;\n\n/** A. */\nclass A {}\n',
    );
    assert.equal(
      applyToFixture(FILE, '// Licence.\n\nclass A {}\n', [add('java.util.List')]),
      '// Licence.\n\nimport java.util.List;\n\nclass A {}\n',
    );
  });

  void test('a class created FIRST_CHILD of the file goes after the package line, which heads the file', () => {
    const created: Operation = {
      type: 'CREATE_ELEMENT',
      path: FILE,
      position: { kind: 'FIRST_CHILD' },
      content: 'class B {\n}',
    };
    assert.equal(
      applyToFixture(FILE, 'package a.b;\n\npublic class A {\n}\n', [created]),
      'package a.b;\n\nclass B {\n}\n\npublic class A {\n}\n',
    );
  });

  void test('REMOVE_IMPORT by declaration, by name and by path; the last one leaves the package and one blank line', () => {
    const after = applyToFixture(FILE, TEXT, [
      remove('import java.util.function.Function;'),
      remove('', `${FILE}/import[static java.lang.Math.sqrt]`),
      remove('java.util.List'),
    ]);
    assert.equal(head(after), 'package com.example.shapes;\n\n');
    const missing = apply(TEXT, [remove('java.util.Map')]);
    assert.equal(missing.ok, false);
    assert.match(missing.results[0]?.message ?? '', /nothing is imported from java\.util\.Map/);
  });

  void test('the element diff writes an added import as ADD_IMPORT, and the result is the target', () => {
    const target = TEXT.replace('import java.util.List;\n', 'import java.util.List;\nimport java.util.Map;\n');
    const operations = diffElements(FILE, TEXT, target);
    assert.deepEqual(operations, [{ type: 'ADD_IMPORT', path: FILE, content: 'import java.util.Map;' }]);
    assert.equal(applyToFixture(FILE, TEXT, operations), target);
  });
});

void describe('Java enums: the members after the constants', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('fields, constructors and methods after the constants are elements of the enum', () => {
    assert.equal(elementAt(FILE, TEXT, `${KIND}/method[sides]`).text, 'int sides() {\n      return sides;\n    }');
    assert.equal(elementAt(FILE, TEXT, `${KIND}/property[sides]`).text, 'private final int sides;');
    assert.match(elementAt(FILE, TEXT, `${KIND}/constructor#2`).text, /^Kind\(int sides\)/);
  });

  void test('replace, patch and delete them; create a method after the last one and a constant among the constants', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/${KIND}/method[sides]`,
        content: 'int sides() {\n  return Math.max(sides, 0);\n}',
      },
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/${KIND}/constructor#2`,
        patches: [{ search: '= sides', replace: '= sides * 1' }],
      },
      { type: 'DELETE_ELEMENT', path: `${FILE}/${KIND}/constructor#1` },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/${KIND}`,
        position: { kind: 'LAST_CHILD' },
        content: 'boolean round() {\n  return sides == 0;\n}',
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/${KIND}`,
        position: { kind: 'BEFORE', sibling: 'member[SQUARE]' },
        content: 'TRIANGLE(3)',
      },
    ]);
    assert.equal(
      elementAt(FILE, after, KIND).text,
      [
        'enum Kind {',
        '    CIRCLE,',
        '    TRIANGLE(3),',
        '    SQUARE(4);',
        '',
        '    private final int sides;',
        '',
        '    Kind(int sides) {',
        '      this.sides = sides * 1;',
        '    }',
        '',
        '    int sides() {',
        '      return Math.max(sides, 0);',
        '    }',
        '',
        '    boolean round() {',
        '      return sides == 0;',
        '    }',
        '  }',
      ].join('\n'),
    );
  });

  void test('constants added after the last one take over the ; that ends the constants, one a line', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/${KIND}`,
        position: { kind: 'AFTER', sibling: 'member[SQUARE]' },
        content: 'TRIANGLE(3)',
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/${KIND}`,
        position: { kind: 'AFTER', sibling: 'member[TRIANGLE]' },
        content: 'HEXAGON(6)',
      },
    ]);
    assert.match(
      elementAt(FILE, after, KIND).text,
      /\n {4}CIRCLE,\n {4}SQUARE\(4\),\n {4}TRIANGLE\(3\),\n {4}HEXAGON\(6\);\n\n {4}private final int sides;/,
    );
  });

  void test('an enum with a ; and only constants gets a method after the ;, one without the ; a clear refusal', () => {
    const method: Operation = {
      type: 'CREATE_ELEMENT',
      path: `${FILE}/enum[E]`,
      position: { kind: 'FIRST_CHILD' },
      content: 'int f() {\n  return 1;\n}',
    };
    assert.equal(
      applyToFixture(FILE, 'enum E {\n  A,\n  B;\n}\n', [method]),
      'enum E {\n  A,\n  B;\n\n  int f() {\n    return 1;\n  }\n}\n',
    );
    const refused = apply('enum E {\n  A,\n  B // no members yet\n}\n', [method]);
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.changes, []);
    assert.match(refused.results[0]?.message ?? '', /the enum has no ';' after its constants/);
  });
});

void describe('Java imports through element operations', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('imports at the head of created code are merged; an import created AFTER another goes there', () => {
    const text = 'package p;\n\nimport a.B;\nimport z.Z;\n\nclass A {}\n';
    const after = applyToFixture(FILE, text, [
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'LAST_CHILD' },
        content: 'import java.util.List;\n\nclass C {\n  List<String> x;\n}',
      },
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'AFTER', sibling: 'import[z.Z]' },
        content: 'import c.C;',
      },
    ]);
    assert.equal(
      after,
      'package p;\n\nimport a.B;\nimport java.util.List;\nimport z.Z;\nimport c.C;\n\nclass A {}\n\nclass C {\n  List<String> x;\n}\n',
    );
  });
});
