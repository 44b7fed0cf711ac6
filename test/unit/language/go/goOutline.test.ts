import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { languageFor, loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyToFixture, elementAt, outlinePaths, readFixture } from '../specCases';

const FILE = 'shapes/hard_cases.go';
const TEXT = readFixture('go/fixtures/hard_cases.go');

void describe('Go element model', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('.go files are Go', () => {
    assert.equal(languageFor('a/b.go')?.id, 'go');
  });

  void test('every element of the hard-case file, with its lines: methods carry their receiver', () => {
    assert.deepEqual(outlinePaths(FILE, TEXT), [
      'statement[package] 1-2',
      'import[errors,strings] 4-7',
      'import[fmt] 9-9',
      'variable[ErrEmpty] 11-12',
      'variable[Small,Large] 14-17',
      'interface[Shape] 19-24',
      'interface[Shape]/method[Area] 21-22',
      'interface[Shape]/type[fmt.Stringer] 23-23',
      'struct[Square] 26-32',
      'struct[Square]/property[Side] 28-28',
      'struct[Square]/property[name] 29-29',
      'struct[Square]/property[Base] 30-30',
      'struct[Square]/property[x,y] 31-31',
      'type[ID,Alias] 34-37',
      'method[Square.Area] 39-42',
      'method[(*Square).Scale] 44-47',
      'method[(*Box).Map] 49-52',
      'function[New] 54-59',
      'function[init]#1 61-61',
      'function[init]#2 63-63',
    ]);
  });

  void test('doc comments are in the range; signatures stop at the body', () => {
    const scale = elementAt(FILE, TEXT, 'method[(*Square).Scale]');
    assert.match(scale.text, /^\/\/ Scale scales in place/);
    assert.equal(scale.element.signature, 'func (s *Square) Scale(by float64)');
    assert.match(elementAt(FILE, TEXT, 'struct[Square]').text, /^\/\/ Square is a square\.\ntype Square struct \{/);
  });

  void test('replace a pointer-receiver method, patch a value-receiver one, delete the second init', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/method[(*Square).Scale]`,
        content: '// Scale scales in place.\nfunc (s *Square) Scale(by float64) {\n\ts.Side *= by\n\ts.x = 0\n}',
      },
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/method[Square.Area]`,
        patches: [{ search: 's.Side * s.Side', replace: 's.Side * s.Side * 1' }],
      },
      { type: 'DELETE_ELEMENT', path: `${FILE}/function[init]#2` },
    ]);
    assert.match(elementAt(FILE, after, 'method[(*Square).Scale]').text, /s\.x = 0\n\}$/);
    assert.match(elementAt(FILE, after, 'method[Square.Area]').text, /return s\.Side \* s\.Side \* 1/);
    assert.equal(elementAt(FILE, after, 'function[init]').element.ordinal, undefined);
    assert.ok(after.endsWith('func init() {}\n'), after.slice(-80));
  });

  void test('create a struct field, an interface method and a method after another', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/struct[Square]`,
        position: { kind: 'LAST_CHILD' },
        content: 'Color string',
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/interface[Shape]`,
        position: { kind: 'FIRST_CHILD' },
        content: 'Perimeter() float64',
      },
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'AFTER', sibling: 'method[Square.Area]' },
        content: 'func (s Square) Perimeter() float64 {\n\treturn 4 * s.Side\n}',
      },
    ]);
    assert.equal(elementAt(FILE, after, 'struct[Square]/property[Color]').text, 'Color string');
    assert.equal(elementAt(FILE, after, 'interface[Shape]/method[Perimeter]').text, 'Perimeter() float64');
    const created = elementAt(FILE, after, 'method[Square.Perimeter]');
    assert.equal(created.element.startLine, elementAt(FILE, after, 'method[Square.Area]').element.endLine + 2);
  });
});
