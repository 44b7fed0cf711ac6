import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { languageFor, loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyToFixture, elementAt, outlinePaths, readFixture } from '../specCases';

const FILE = 'src/main/java/com/example/shapes/HardCases.java';
const TEXT = readFixture('java/fixtures/HardCases.java');
const CLASS = 'class[HardCases]';

void describe('Java element model', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('.java files are Java', () => {
    assert.equal(languageFor('a/B.java')?.id, 'java');
  });

  void test('every element of the hard-case file, with its lines: overloads and constructors numbered', () => {
    assert.deepEqual(outlinePaths(FILE, TEXT), [
      'statement[package] 1-1',
      'import[java.util.List] 3-3',
      'import[java.util.function.Function] 4-4',
      'import[static java.lang.Math.sqrt] 5-5',
      'class[HardCases] 7-88',
      'class[HardCases]/property[LIMIT,OTHER] 10-10',
      'class[HardCases]/property[items] 11-11',
      'class[HardCases]/static[1] 13-15',
      'class[HardCases]/constructor#1 17-20',
      'class[HardCases]/constructor#2 22-24',
      'class[HardCases]/method[run] 26-27',
      'class[HardCases]/method[scale]#1 29-32',
      'class[HardCases]/method[scale]#2 34-36',
      'class[HardCases]/method[map] 38-40',
      'class[HardCases]/class[Node] 42-50',
      'class[HardCases]/class[Node]/property[next] 43-43',
      'class[HardCases]/class[Node]/class[Inner] 45-49',
      'class[HardCases]/class[Node]/class[Inner]/method[depth] 46-48',
      'class[HardCases]/interface[Visitor] 52-58',
      'class[HardCases]/interface[Visitor]/method[visit] 53-53',
      'class[HardCases]/interface[Visitor]/method[fallback] 55-57',
      'class[HardCases]/enum[Kind] 60-77',
      'class[HardCases]/enum[Kind]/member[CIRCLE] 61-61',
      'class[HardCases]/enum[Kind]/member[SQUARE] 62-62',
      'class[HardCases]/enum[Kind]/property[sides] 64-64',
      'class[HardCases]/enum[Kind]/constructor#1 66-68',
      'class[HardCases]/enum[Kind]/constructor#2 70-72',
      'class[HardCases]/enum[Kind]/method[sides] 74-76',
      'class[HardCases]/record[Pair] 79-83',
      'class[HardCases]/record[Pair]/constructor 80-82',
      'class[HardCases]/interface[Marker] 85-87',
      'class[HardCases]/interface[Marker]/method[value] 86-86',
      'class[Base] 90-90',
    ]);
  });

  void test('Javadoc and annotations are in the range', () => {
    assert.match(
      elementAt(FILE, TEXT, CLASS).text,
      /^\/\*\* The hard-case file[^\n]*\n@SuppressWarnings\("unused"\)\npublic class/,
    );
    assert.match(elementAt(FILE, TEXT, `${CLASS}/method[run]`).text, /^@Override\n {2}public void run\(\) \{\}$/);
    assert.equal(
      elementAt(FILE, TEXT, `${CLASS}/method[scale]#2`).element.signature,
      'public double scale(double x, double y)',
    );
  });

  void test('delete one overload, replace a constructor, patch a generic method, create in a nested class', () => {
    const after = applyToFixture(FILE, TEXT, [
      { type: 'DELETE_ELEMENT', path: `${FILE}/${CLASS}/method[scale]#2` },
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/${CLASS}/constructor#2`,
        content: 'public HardCases(List<T> items) {\n  this.items = List.copyOf(items);\n}',
      },
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/${CLASS}/method[map]`,
        patches: [{ search: '.toList()', replace: '.collect(java.util.stream.Collectors.toList())' }],
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/${CLASS}/class[Node]`,
        position: { kind: 'AFTER', sibling: 'property[next]' },
        content: 'int size() {\n  return next == null ? 1 : 1 + next.size();\n}',
      },
    ]);
    // One overload left: it no longer needs its number.
    assert.match(elementAt(FILE, after, `${CLASS}/method[scale]`).text, /Scales by one factor/);
    assert.match(elementAt(FILE, after, `${CLASS}/constructor#2`).text, /List\.copyOf/);
    assert.match(elementAt(FILE, after, `${CLASS}/method[map]`).text, /Collectors\.toList/);
    assert.match(elementAt(FILE, after, `${CLASS}/class[Node]/method[size]`).text, /^int size\(\) \{\n {6}return/);
  });
});
