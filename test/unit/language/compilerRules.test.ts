import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../src/core/elements/outline';
import { loadAllLanguages } from '../../../src/core/language/languages';
import { applyOperations } from '../../../src/core/ops/apply';
import { oracleFor } from '../fuzz/compilerOracles';

/**
 * Issue 25: what the compilers refuse while parsing, though the tree-sitter grammars accept it, is a syntax error
 * Scalpel reports, so an edit that makes it is refused instead of written. Each rule was found by the language fuzz;
 * where the compiler is on PATH, it confirms every verdict here.
 */

type Snippet = readonly [name: string, file: string, source: string, message: string | undefined];

const SNIPPETS: readonly Snippet[] = [
  [
    'Java: a second package declaration',
    'A.java',
    'package a;\npackage b;\nclass A {}\n',
    'class, interface, enum, or record expected',
  ],
  [
    'Java: an import after a class',
    'A.java',
    'class A {}\nimport java.util.List;\n',
    'class, interface, enum, or record expected',
  ],
  [
    'Java: a package after an import',
    'A.java',
    'import java.util.List;\npackage a;\nclass A {}\n',
    'class, interface, enum, or record expected',
  ],
  [
    'Java: a constructor named after another class',
    'A.java',
    'class A {\n  B() {}\n}\n',
    'invalid method declaration; return type required',
  ],
  ['Java: an import of a name without a package', 'A.java', 'import List;\nclass A {}\n', "'.' expected"],
  [
    'Java: a nested class constructor',
    'A.java',
    'package a;\nimport b.C;\nclass A {\n  A() {}\n  class B {\n    B() {}\n  }\n}\n',
    undefined,
  ],
  [
    'Rust: an item macro call without its semicolon',
    'lib.rs',
    'impl A {\n    define!(0, a)\n    fn f() {}\n}\n',
    'macros that expand to items must be delimited with braces or followed by a semicolon',
  ],
  [
    'Rust: a top-level macro call without its semicolon',
    'lib.rs',
    'define!(a)\nfn f() {}\n',
    'macros that expand to items must be delimited with braces or followed by a semicolon',
  ],
  ['Rust: a bare CR in a doc comment', 'lib.rs', '/// doc\rfn f() {}\n', 'bare CR not allowed in doc-comment'],
  ['Rust: a bare CR in a string', 'lib.rs', 'fn f() { let s = "a\rb"; }\n', 'bare CR not allowed in string'],
  [
    'Rust: macro calls with braces, with semicolons, in bodies',
    'lib.rs',
    'm! { }\nn!(1);\nimpl A {\n    o![2];\n    fn f() { p!(3) }\n}\n',
    undefined,
  ],
  [
    'Rust: a doc comment at the end of the file',
    'lib.rs',
    'fn f() {}\n/// doc\n// plain\n',
    'expected item after doc comment',
  ],
  [
    'Rust: a doc comment at the end of an impl',
    'lib.rs',
    'struct A;\nimpl A {\n    fn f() {}\n    /// doc\n}\n',
    "found a documentation comment that doesn't document anything",
  ],
  [
    'Rust: a doc comment at the end of a function body',
    'lib.rs',
    'fn f() {\n    let _x = 1;\n    /** doc */\n}\n',
    "found a documentation comment that doesn't document anything",
  ],
  [
    'Rust: a doc comment after the last field',
    'lib.rs',
    'struct A {\n    a: i32,\n    /// doc\n}\n',
    "found a documentation comment that doesn't document anything",
  ],
  [
    'Rust: an inner doc comment after an item',
    'lib.rs',
    'mod m {\n    fn f() {}\n    //! late\n    fn g() {}\n}\n',
    'expected outer doc comment',
  ],
  [
    'Rust: doc comments on items, statements, expressions and in macros; inner ones first',
    'lib.rs',
    '#![allow(dead_code)]\n//! Crate.\n\nmod m {\n    //! Module.\n    /// F.\n    fn f() -> i32 {\n        /// A statement.\n        let x = 1;\n        /// A tail.\n        x\n    }\n}\nmacro_rules! d { () => { /// x\n } }\n',
    undefined,
  ],
  [
    'Rust: an expression among the items of a file',
    'lib.rs',
    'pub const A: &[u8] = &[1];\n    &[2];\n',
    'expected item, found `&`',
  ],
  [
    'Rust: a call among the items of a file, after an attribute',
    'lib.rs',
    '#[test]\nparse("a").unwrap();\nfn f() {}\n',
    'missing `fn` or `struct` for function or struct definition',
  ],
  [
    'Rust: a let among the items of a module',
    'lib.rs',
    'mod m {\n    let x = 1;\n}\n',
    'expected item, found keyword `let`',
  ],
  [
    'Rust: a let among the items of an impl',
    'lib.rs',
    'impl A {\n    let x = 1;\n    fn f() {}\n}\n',
    'non-item in item list',
  ],
  [
    'Rust: a semicolon after a function in a trait',
    'lib.rs',
    'trait T {\n    fn f() {};\n}\n',
    'non-item in item list',
  ],
  ['Rust: a semicolon after a struct', 'lib.rs', 'struct A {}\n;\n', 'expected item, found `;`'],
  ['Rust: a semicolon after a braced item macro call', 'lib.rs', 'm! { a }\n;\n', 'expected item, found `;`'],
  [
    'Rust: a macro call in a block without its semicolon before the next statement',
    'lib.rs',
    'fn f() {\n    write!(out, "a")\n    write!(out, "b")\n}\n',
    'expected `;`, found `write`',
  ],
  [
    'Rust: a parameter without its name',
    'lib.rs',
    'impl A {\n    fn f(&selfFz, x: u8) {}\n}\n',
    'expected one of `:`, `@`, or `|`, found `,`',
  ],
  [
    'Rust: statements, macro calls and unnamed parameters where rustc takes them',
    'lib.rs',
    'm!(a);\nn! { b }\nimpl A {\n    o!(c);\n    p![d]\n    ;\n}\ntype F = fn(u8, u16);\nfn g() {\n    let x = 1;\n    q!(x)\n    &x;\n    r! { x }\n    s!(x);\n    ;\n    t!(x)\n}\n',
    undefined,
  ],
  [
    'Java: a method outside any class',
    'A.java',
    'class A {\n}\nvoid m() {}\n',
    'class, interface, enum, or record expected',
  ],
  [
    'Java: a field outside any class',
    'A.java',
    'package a;\nclass A {}\nint x = 1;\n',
    'class, interface, enum, or record expected',
  ],
  [
    'Java: every kind of type at the top, with comments',
    'A.java',
    'package a;\n// c\nclass A {}\ninterface B {}\nenum C { X }\nrecord D(int x) {}\n@interface E {}\n/* e */\n',
    undefined,
  ],
  [
    'Go: an import after a function',
    'a.go',
    'package a\n\nfunc f() {}\n\nimport "fmt"\n',
    'syntax error: imports must appear before other declarations',
  ],
  ['Go: a second package clause', 'a.go', 'package a\n\npackage b\n', 'syntax error: package statement must be first'],
  [
    'C#: a using after a namespace',
    'A.cs',
    'namespace N { class A {} }\nusing System;\n',
    'CS1529: A using clause must precede all other elements defined in the namespace except extern alias declarations',
  ],
  [
    'C#: a using after a class in a namespace',
    'A.cs',
    'namespace N {\n  class A {}\n  using System;\n}\n',
    'CS1529: A using clause must precede all other elements defined in the namespace except extern alias declarations',
  ],
  [
    'C#: a constructor named after another class',
    'A.cs',
    'class A {\n  public B() {}\n}\n',
    'CS1520: Method must have a return type',
  ],
  [
    'C#: usings after a file-scoped namespace',
    'A.cs',
    'using System;\nnamespace N;\nusing System.Linq;\nclass A { A() {} }\n',
    undefined,
  ],
];

void describe('compiler rules the grammars do not know', () => {
  before(() => loadAllLanguages());

  for (const [name, file, source, expected] of SNIPPETS) {
    void test(`${name}: ${expected ?? 'compiles'}`, () => {
      const errors = outlineSource(file, source).syntaxErrors.map((e) => e.message);
      if (expected === undefined) assert.deepEqual(errors, []);
      else if (expected === "'.' expected") {
        // The grammar reads `import List;`; what refuses it is the import operations' reading (javaImports).
        const result = applyOperations({ read: (p) => (p === file ? 'class A {}\n' : undefined) }, [
          { type: 'ADD_IMPORT', path: file, content: 'List' },
        ]);
        assert.equal(result.ok, false, JSON.stringify(result.results));
      } else assert.ok(errors.includes(expected), JSON.stringify(errors));
    });
  }

  for (const language of ['rust', 'java', 'go'] as const) {
    const extension = { rust: '.rs', java: '.java', go: '.go' }[language];
    void test(`the ${language} compiler agrees with every verdict above (skipped without it)`, (t) => {
      const oracle = oracleFor(language);
      if (typeof oracle === 'string') {
        t.skip(oracle);
        return;
      }
      const cases = SNIPPETS.filter(([, file]) => file.endsWith(extension));
      const refused = new Set(
        oracle.check(cases.map(([name, , source]) => ({ name, text: source }))).map((v) => v.name),
      );
      for (const [name, , , expected] of cases) assert.equal(refused.has(name), expected !== undefined, name);
    });
  }
});

void describe('apply refuses what the compiler would', () => {
  before(() => loadAllLanguages());

  void test('Rust: deleting an item macro call takes its semicolon along', () => {
    const file = 'src/lib.rs';
    const text = 'impl A {\n    define!(0, a);\n    define!(1, b);\n}\n';
    const result = applyOperations({ read: (p) => (p === file ? text : undefined) }, [
      { type: 'DELETE_ELEMENT', path: `${file}/impl[A]/statement[define!]#1` },
    ]);
    assert.ok(result.ok, JSON.stringify(result.results));
    assert.equal(result.changes[0]?.after, 'impl A {\n    define!(1, b);\n}\n');
  });

  void test('Rust: functions created in a one-line trait take no `;` between them (rustc agrees)', (t) => {
    const file = 'src/lib.rs';
    const texts = ['pub trait T {\r    fn a(self) -> u8;\r}\r', 'trait T { fn a(&self) -> u8 { 1 } }\n'];
    const afters: string[] = [];
    for (const [text, kind] of [
      [texts[0], 'FIRST_CHILD'],
      [texts[1], 'LAST_CHILD'],
    ] as const) {
      const result = applyOperations({ read: (p) => (p === file ? text : undefined) }, [
        {
          type: 'CREATE_ELEMENT',
          path: `${file}/trait[T]`,
          position: { kind },
          content: 'fn b(&self) -> u8 {\n    2\n}',
        },
      ]);
      assert.ok(result.ok, JSON.stringify(result.results));
      const after = result.changes[0]?.after ?? '';
      assert.doesNotMatch(after, /\};/, after);
      afters.push(after);
    }
    const oracle = oracleFor('rust');
    if (typeof oracle === 'string') t.skip(oracle);
    else assert.deepEqual(oracle.check(afters.map((text, i) => ({ name: String(i), text }))), []);
  });

  void test('Java: a constructor of another class created in a class is refused', () => {
    const file = 'src/A.java';
    const result = applyOperations({ read: (p) => (p === file ? 'class A {\n  int x;\n}\n' : undefined) }, [
      {
        type: 'CREATE_ELEMENT',
        path: `${file}/class[A]`,
        position: { kind: 'LAST_CHILD' },
        content: 'B(int x) {\n  this.x = x;\n}',
      },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results[0]?.message ?? '', /invalid method declaration; return type required/);
  });

  void test('Java: a package declaration created FIRST_CHILD of a file that has one is refused', () => {
    const file = 'src/A.java';
    const result = applyOperations({ read: (p) => (p === file ? 'package a;\n\nclass A {}\n' : undefined) }, [
      { type: 'CREATE_ELEMENT', path: file, position: { kind: 'FIRST_CHILD' }, content: 'package b;' },
    ]);
    assert.equal(result.ok, false, JSON.stringify(result.changes[0]?.after));
  });
});
