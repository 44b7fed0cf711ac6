import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { resolveElementPath, walkElements } from '../../../../src/core/elements/resolve';
import { languageFor, loadLanguagesFor } from '../../../../src/core/language/languages';
import { corpusFileText, installHint } from '../../../support/languageCorpus';
import { applyToFixture, elementAt, outlinePaths, readFixture } from '../specCases';

const FILE = 'src/hard_cases.rs';
const TEXT = readFixture('rust/fixtures/hard_cases.rs');

void describe('Rust element model', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('.rs files are Rust', () => {
    assert.equal(languageFor('a/b.rs')?.id, 'rust');
  });

  void test('every element of the hard-case file, with its lines: methods sit in their impl block', () => {
    assert.deepEqual(outlinePaths(FILE, TEXT), [
      // The crate's inner doc comment (`//!`) documents the file: it joins no item.
      'import[std::collections::HashMap] 2-2',
      'import[std::fmt::{self, Display}] 3-3',
      'struct[Point] 5-12',
      'struct[Point]/property[x] 8-9',
      'struct[Point]/property[y] 10-11',
      'struct[Meters] 14-14',
      'enum[Shape] 16-20',
      'enum[Shape]/member[Circle] 17-17',
      'enum[Shape]/member[Square] 18-18',
      'enum[Shape]/member[Empty] 19-19',
      'trait[Area] 22-29',
      'trait[Area]/variable[SIDES] 23-23',
      'trait[Area]/type[Unit] 24-24',
      'trait[Area]/method[area] 25-25',
      'trait[Area]/method[describe] 26-28',
      'impl[Point] 31-39',
      'impl[Point]/method[new] 32-34',
      'impl[Point]/method[norm] 36-38',
      'impl[Display for Point] 41-45',
      'impl[Display for Point]/method[fmt] 42-44',
      'impl[From for Meters] 47-51',
      'impl[From for Meters]/method[from] 48-50',
      'namespace[registry] 53-59',
      'namespace[registry]/import[super::Point] 54-54',
      'namespace[registry]/function[find] 56-58',
      'variable[ORIGIN] 61-61',
      'variable[COUNT] 62-62',
      'type[Table] 63-63',
      'statement[macro_rules! square] 65-69',
      'function[main] 71-73',
    ]);
  });

  void test('doc comments and attributes are in the range', () => {
    assert.match(
      elementAt(FILE, TEXT, 'struct[Point]').text,
      /^\/\/\/ A point in the plane\.\n#\[derive\(Debug, Clone\)\]\npub struct Point \{/,
    );
    assert.match(elementAt(FILE, TEXT, 'struct[Point]/property[y]').text, /^#\[allow\(dead_code\)\]\n {4}y: f64,?$/);
    assert.equal(elementAt(FILE, TEXT, 'impl[Point]/method[norm]').element.signature, 'pub fn norm(&self) -> f64');
  });

  void test('create a method in an impl block, replace a trait impl method, delete an enum variant', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/impl[Point]`,
        position: { kind: 'LAST_CHILD' },
        content: 'pub fn zero() -> Self {\n    Point { x: 0.0, y: 0.0 }\n}',
      },
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/impl[Display for Point]/method[fmt]`,
        content:
          'fn fmt(&self, f: &mut fmt::Formatter<\'_>) -> fmt::Result {\n    write!(f, "<{}, {}>", self.x, self.y)\n}',
      },
      { type: 'DELETE_ELEMENT', path: `${FILE}/enum[Shape]/member[Empty]` },
    ]);
    assert.match(elementAt(FILE, after, 'impl[Point]/method[zero]').text, /^pub fn zero\(\) -> Self \{\n {8}Point/);
    assert.match(elementAt(FILE, after, 'impl[Display for Point]/method[fmt]').text, /"<\{\}, \{\}>"/);
    assert.equal(
      elementAt(FILE, after, 'impl[Point]/method[norm]').text,
      elementAt(FILE, TEXT, 'impl[Point]/method[norm]').text,
    );
    assert.doesNotMatch(after, /Empty/);
  });

  void test('patch a function inside a module', () => {
    const after = applyToFixture(FILE, TEXT, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/namespace[registry]/function[find]`,
        patches: [{ search: 'None', replace: 'Some(Point::new(0.0, 0.0))' }],
      },
    ]);
    assert.match(elementAt(FILE, after, 'namespace[registry]/function[find]').text, /Some\(Point::new/);
  });
});

void describe('Rust macro calls are named by their first identifier argument', () => {
  const file = 'tests/regression.rs';
  const text = [
    'rgtest!(r1098, |dir: Dir, mut cmd: TestCommand| {',
    '    dir.create("a", "x");',
    '});',
    'rgtest!(r1130, |dir: Dir, mut cmd: TestCommand| {});',
    'primitive_impl!(bool, serialize_bool);',
    'define_bool!(0, is_literal, set_literal);',
    'ast_struct! {',
    '    /// An array expression.',
    '    #[cfg(feature = "full")]',
    '    pub struct ExprArray #full {',
    '        pub attrs: Vec<Attribute>,',
    '    }',
    '}',
    'lazy_static! { static ref CONFIG: u8 = 1; }',
    'serde_if_integer128! {',
    '    primitive_impl!(i128, serialize_i128);',
    '}',
    'forwarded_impl!((), Box<CStr>, CString::into_boxed_c_str);',
    'forwarded_impl!((T), Reverse<T>, Reverse);',
    'rgtest!(r1130, |dir: Dir, mut cmd: TestCommand| {});',
    '',
  ].join('\n');
  before(() => loadLanguagesFor([file]));

  void test('the name after the macro is its first identifier argument; a group, a call or a path first names nothing', () => {
    assert.deepEqual(outlinePaths(file, text), [
      'statement[rgtest! r1098] 1-3',
      'statement[rgtest! r1130]#1 4-4',
      'statement[primitive_impl! bool] 5-5',
      'statement[define_bool! is_literal] 6-6',
      'statement[ast_struct! ExprArray] 7-13',
      'statement[lazy_static! CONFIG] 14-14',
      'statement[serde_if_integer128!] 15-17',
      'statement[forwarded_impl!]#1 18-18',
      'statement[forwarded_impl!]#2 19-19',
      'statement[rgtest! r1130]#2 20-20',
    ]);
  });

  void test('a path from before the names (`statement[rgtest!]#3`) resolves to the same call, and says how it was read', () => {
    const outline = outlineSource(file, text);
    const third = resolveElementPath(outline, `${file}/statement[rgtest!]#3`);
    assert.ok(third.ok);
    assert.equal(third.path, `${file}/statement[rgtest! r1130]#2`);
    assert.equal(third.tolerant, true);
    assert.equal(resolveElementPath(outline, `${file}/statement[define_bool!]`).ok, true, 'the one call of its macro');
    const several = resolveElementPath(outline, `${file}/statement[rgtest!]`);
    assert.equal(several.ok, false, 'three calls: which one is ambiguous');
    assert.equal(resolveElementPath(outline, `${file}/statement[rgtest!]#4`).ok, false, 'there is no fourth');
    const unnamed = resolveElementPath(outline, `${file}/statement[forwarded_impl!]#2`);
    assert.ok(unnamed.ok && !unnamed.tolerant, 'a call without a name keeps its path');
  });

  void test('real code: the 151 `test_lit!` tests of regex-syntax each have a name, and old paths still find them', (t) => {
    const real = corpusFileText('rust', 'regex-syntax-0.6.27/src/hir/literal/mod.rs');
    if (real === undefined) return t.skip(installHint('rust'));
    const outline = outlineSource(real.path, real.text);
    const calls = [...walkElements(outline.elements)].filter((e) => e.name.startsWith('test_lit!'));
    assert.equal(calls.length, 151);
    assert.deepEqual(
      calls.filter((e) => e.ordinal !== undefined || e.name === 'test_lit!').map((e) => e.path),
      [],
      'every call is named and no two share a name',
    );
    assert.ok(calls.some((e) => e.path === `${real.path}/namespace[tests]/statement[test_lit! pfx_group1]`));
    const legacy = resolveElementPath(outline, `${real.path}/namespace[tests]/statement[test_lit!]#10`);
    assert.ok(legacy.ok);
    assert.equal(legacy.element, calls[9]);
  });
});
