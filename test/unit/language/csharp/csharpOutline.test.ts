import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { languageFor, loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyToFixture, elementAt, outlinePaths, readFixture } from '../specCases';

const FILE = 'Shapes/HardCases.cs';
const TEXT = readFixture('csharp/fixtures/HardCases.cs');
const SQUARE = 'namespace[Shapes]/class[Square]';

void describe('C# element model', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('.cs files are C#', () => {
    assert.equal(languageFor('a/B.cs')?.id, 'csharp');
  });

  void test('every element of the hard-case file, with its lines: overloads, operators, properties, records', () => {
    assert.deepEqual(outlinePaths(FILE, TEXT), [
      'import[System] 1-1',
      'import[System.Collections.Generic] 2-2',
      'import[Env = System.Environment] 3-3',
      'namespace[Shapes] 5-81',
      'namespace[Shapes]/class[Square] 7-51',
      'namespace[Shapes]/class[Square]/property[side,scale] 11-11',
      'namespace[Shapes]/class[Square]/property[Sides] 12-12',
      'namespace[Shapes]/class[Square]/property[Changed] 14-14',
      'namespace[Shapes]/class[Square]/constructor#1 16-17',
      'namespace[Shapes]/class[Square]/constructor#2 19-22',
      'namespace[Shapes]/class[Square]/method[~Square] 24-24',
      'namespace[Shapes]/class[Square]/property[Size] 26-27',
      'namespace[Shapes]/class[Square]/property[Name] 29-29',
      'namespace[Shapes]/class[Square]/index[this] 31-31',
      'namespace[Shapes]/class[Square]/method[Area] 33-33',
      'namespace[Shapes]/class[Square]/method[Scale]#1 35-35',
      'namespace[Shapes]/class[Square]/method[Scale]#2 37-37',
      'namespace[Shapes]/class[Square]/method[CompareTo] 39-39',
      'namespace[Shapes]/class[Square]/method[operator +] 41-41',
      'namespace[Shapes]/class[Square]/method[implicit operator double] 43-43',
      'namespace[Shapes]/class[Square]/type[Resized] 45-45',
      'namespace[Shapes]/class[Square]/class[Cache] 47-50',
      'namespace[Shapes]/class[Square]/class[Cache]/property[Values] 49-49',
      'namespace[Shapes]/interface[IShape] 53-57',
      'namespace[Shapes]/interface[IShape]/method[Area] 55-55',
      'namespace[Shapes]/interface[IShape]/property[Name] 56-56',
      'namespace[Shapes]/class[Shape] 59-62',
      'namespace[Shapes]/class[Shape]/method[Area] 61-61',
      'namespace[Shapes]/struct[Point] 64-67',
      'namespace[Shapes]/struct[Point]/property[X,Y] 66-66',
      'namespace[Shapes]/enum[Kind] 69-73',
      'namespace[Shapes]/enum[Kind]/member[Circle] 71-71',
      'namespace[Shapes]/enum[Kind]/member[Square] 72-72',
      'namespace[Shapes]/record[Pair] 75-75',
      'namespace[Shapes]/record[Named] 77-80',
      'namespace[Shapes]/record[Named]/property[Upper] 79-79',
    ]);
  });

  void test('attributes and /// comments are in the range (attributes precede the signature)', () => {
    assert.match(
      elementAt(FILE, TEXT, SQUARE).text,
      /^\/\/\/ <summary>[^\n]*\n {4}\[Serializable\]\n {4}public partial class Square<T>/,
    );
    assert.match(
      elementAt(FILE, TEXT, `${SQUARE}/property[Size]`).text,
      /^\[Obsolete\("use Area"\)\]\n {8}public double Size/,
    );
  });

  void test('replace an overload, delete an event, patch a property, create an interface member', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/${SQUARE}/method[Scale]#2`,
        content: 'public double Scale(double x, double y) => Math.Sqrt(x * x + y * y) * scale;',
      },
      { type: 'DELETE_ELEMENT', path: `${FILE}/${SQUARE}/property[Changed]` },
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/${SQUARE}/property[Name]`,
        patches: [{ search: '"square"', replace: '"Square"' }],
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/namespace[Shapes]/interface[IShape]`,
        position: { kind: 'LAST_CHILD' },
        content: 'double Perimeter();',
      },
    ]);
    assert.match(elementAt(FILE, after, `${SQUARE}/method[Scale]#2`).text, /\* scale;$/);
    assert.doesNotMatch(after, /EventHandler/);
    assert.match(elementAt(FILE, after, `${SQUARE}/property[Name]`).text, /"Square"/);
    assert.equal(
      elementAt(FILE, after, 'namespace[Shapes]/interface[IShape]/method[Perimeter]').text,
      'double Perimeter();',
    );
  });
});
