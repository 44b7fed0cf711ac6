import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import { diffElements } from '../../../../src/core/ops/diff';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFixture, elementAt, outlinePaths, readFixture } from '../specCases';

/** C#'s using operations and the declarations of a file-scoped namespace, on the hard-case file and small texts. */

const FILE = 'Shapes/HardCases.cs';
const TEXT = readFixture('csharp/fixtures/HardCases.cs');

function apply(text: string, operations: readonly Operation[]) {
  return applyOperations({ read: (path) => (path === FILE ? text : undefined) }, operations);
}

const add = (content: string): Operation => ({ type: 'ADD_IMPORT', path: FILE, content });
const remove = (content: string, path = FILE): Operation => ({ type: 'REMOVE_IMPORT', path, content });

/** The text up to the first namespace. */
function head(text: string): string {
  return text.slice(0, text.indexOf('namespace'));
}

const FILE_SCOPED = [
  'using System;',
  '',
  'namespace App.Models;',
  '',
  'public class User',
  '{',
  '    public string Name { get; set; } = "";',
  '}',
  '',
  'public record Point(int X, int Y);',
  '',
].join('\n');

void describe('C# using operations', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('ADD_IMPORT takes its sorted place among the namespaces, System first; a static using before the aliases', () => {
    const after = applyToFixture(FILE, TEXT, [
      add('using System.Linq;'),
      add('using Microsoft.Win32;'),
      add('static System.Math'),
    ]);
    assert.equal(
      head(after),
      [
        'using System;',
        'using System.Collections.Generic;',
        'using System.Linq;',
        'using Microsoft.Win32;',
        'using static System.Math;',
        'using Env = System.Environment;',
        '',
        '',
      ].join('\n'),
    );
  });

  void test('content with or without the keyword and the semicolon reads the same', () => {
    for (const content of ['using System.Linq;', 'using System.Linq', 'System.Linq;', 'System.Linq']) {
      const after = applyToFixture(FILE, TEXT, [add(content)]);
      assert.match(head(after), /^using System\.Collections\.Generic;\nusing System\.Linq;\nusing Env/m, content);
    }
    const alias = applyToFixture(FILE, TEXT, [add('Json = System.Text.Json.JsonSerializer')]);
    assert.match(alias, /^using Env = System\.Environment;\nusing Json = System\.Text\.Json\.JsonSerializer;$/m);
    const global = applyToFixture(FILE, 'namespace A;\n', [add('global using System.IO')]);
    assert.equal(global, 'global using System.IO;\n\nnamespace A;\n');
  });

  void test('already imported, also by a global using: a note, and nothing changes', () => {
    const same = apply(TEXT, [add('using System;'), add('Env = System.Environment')]);
    assert.equal(same.ok, true);
    assert.deepEqual(same.changes, []);
    assert.match(same.results[0]?.message ?? '', /System is already imported/);
    const covered = apply('global using System;\n\nclass A { }\n', [add('System')]);
    assert.equal(covered.ok, true);
    assert.deepEqual(covered.changes, []);
    assert.match(covered.results[0]?.message ?? '', /already imported by global System/);
  });

  void test('an alias already taken is refused, malformed content gets a clear error, and the file stays as it was', () => {
    const clash = apply(TEXT, [add('System.Linq'), add('using Env = MyApp.Environment;')]);
    assert.equal(clash.ok, false);
    assert.deepEqual(clash.changes, []);
    assert.match(
      clash.results[1]?.message ?? '',
      /the alias 'Env' is already taken by using Env = System\.Environment/,
    );
    for (const content of ['using System.;', 'class A { }', 'using System; class A { }']) {
      const result = apply(TEXT, [add(content)]);
      assert.equal(result.ok, false, content);
      assert.deepEqual(result.changes, []);
      assert.match(result.results[0]?.message ?? '', /does not parse|not an import declaration/, content);
    }
  });

  void test('REMOVE_IMPORT by directive, by name and by path', () => {
    const after = applyToFixture(FILE, TEXT, [
      remove('using System.Collections.Generic;'),
      remove('', `${FILE}/import[Env = System.Environment]`),
      remove('System'),
    ]);
    assert.match(after, /^namespace Shapes\n/);
    const missing = apply(TEXT, [remove('System.Linq')]);
    assert.equal(missing.ok, false);
    assert.match(missing.results[0]?.message ?? '', /nothing is imported from System\.Linq/);
  });

  void test('usings inside a namespace block: a new one goes there, at their indentation', () => {
    const text = [
      'namespace App',
      '{',
      '    using System;',
      '    using System.Text;',
      '',
      '    public class A { }',
      '}',
      '',
    ].join('\n');
    const after = applyToFixture(FILE, text, [add('System.IO'), remove('System.Text')]);
    assert.equal(after, text.replace('    using System.Text;\n', '    using System.IO;\n'));
    assert.equal(elementAt(FILE, after, 'namespace[App]/import[System.IO]').text, 'using System.IO;');
  });

  void test('a file without usings gets the first one at its top, after its header comment', () => {
    assert.equal(
      applyToFixture(FILE, '// Licence.\n\nnamespace App;\n\nclass A { }\n', [add('System')]),
      '// Licence.\n\nusing System;\n\nnamespace App;\n\nclass A { }\n',
    );
  });

  void test('the element diff writes an added using as ADD_IMPORT, and the result is the target', () => {
    const target = TEXT.replace('using System;\n', 'using System;\nusing System.Buffers;\n');
    const operations = diffElements(FILE, TEXT, target);
    assert.deepEqual(operations, [{ type: 'ADD_IMPORT', path: FILE, content: 'using System.Buffers;' }]);
    assert.equal(applyToFixture(FILE, TEXT, operations), target);
  });
});

void describe('C# file-scoped namespaces', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('the declarations after `namespace X;` are top-level elements; the namespace is its line', () => {
    assert.deepEqual(outlinePaths(FILE, FILE_SCOPED), [
      'import[System] 1-1',
      'namespace[App.Models] 3-3',
      'class[User] 5-8',
      'class[User]/property[Name] 7-7',
      'record[Point] 10-10',
    ]);
  });

  void test('every operation works on them', () => {
    const after = applyToFixture(FILE, FILE_SCOPED, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/class[User]/property[Name]`,
        patches: [{ search: '""', replace: '"?"' }],
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/class[User]`,
        position: { kind: 'LAST_CHILD' },
        content: 'public int Age { get; set; }',
      },
      { type: 'REPLACE_ELEMENT', path: `${FILE}/record[Point]`, content: 'public record Point(double X, double Y);' },
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'LAST_CHILD' },
        content: 'public enum Role\n{\n    Admin,\n}',
      },
      { type: 'ADD_IMPORT', path: FILE, content: 'System.Text' },
    ]);
    assert.equal(
      after,
      [
        'using System;',
        'using System.Text;',
        '',
        'namespace App.Models;',
        '',
        'public class User',
        '{',
        '    public string Name { get; set; } = "?";',
        '    public int Age { get; set; }',
        '}',
        '',
        'public record Point(double X, double Y);',
        '',
        'public enum Role',
        '{',
        '    Admin,',
        '}',
        '',
      ].join('\n'),
    );
    const deleted = applyToFixture(FILE, FILE_SCOPED, [{ type: 'DELETE_ELEMENT', path: `${FILE}/class[User]` }]);
    assert.equal(deleted, 'using System;\n\nnamespace App.Models;\n\npublic record Point(int X, int Y);\n');
  });

  void test('usings written after the namespace line are its usings: a new one goes beside them', () => {
    const text = 'namespace App;\n\nusing System;\n\nclass A { }\n';
    assert.equal(
      applyToFixture(FILE, text, [add('System.Text')]),
      'namespace App;\n\nusing System;\nusing System.Text;\n\nclass A { }\n',
    );
  });
});
