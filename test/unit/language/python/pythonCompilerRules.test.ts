import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { Operation } from '../../../../src/core/ops/operation';

/**
 * Issue 25: Python that CPython refuses passed tree-sitter's check and was written as ok (IndentationError, TabError,
 * `from __future__` after the other imports), and a PATCH in a tab-indented file was written with tabs on two lines
 * and spaces on the third. CPython's own rules now decide, with CPython's own messages.
 */

const FILE = 'pkg/mod.py';

/** Snippets and the message CPython gives for the first problem, or undefined when it compiles. */
const SNIPPETS: ReadonlyArray<readonly [string, string, string | undefined]> = [
  ['an indented line at module level', 'x = 1\n    y = 2\n', 'unexpected indent'],
  [
    'a tab and 8 spaces at one level',
    'if x:\n\ty = 1\n        z = 2\n',
    'inconsistent use of tabs and spaces in indentation',
  ],
  ['a dedent to no outer level', 'if x:\n    y = 1\n  z = 2\n', 'unindent does not match any outer indentation level'],
  [
    'a tab deeper than 4 spaces',
    'class A:\n    def f(self):\n\tpass\n',
    'inconsistent use of tabs and spaces in indentation',
  ],
  [
    'spaces after tabs that dedent wrongly',
    'class A:\n\tdef f(self):\n\t\tif x:\n\t\t\ty = 1\n            return y\n',
    'unindent does not match any outer indentation level',
  ],
  [
    'future import after code',
    'x = 1\nfrom __future__ import annotations\n',
    'from __future__ imports must occur at the beginning of the file',
  ],
  [
    'future import in a function',
    'def f():\n    from __future__ import annotations\n',
    'from __future__ imports must occur at the beginning of the file',
  ],
  [
    'future import after another import',
    'import os\nfrom __future__ import annotations\n',
    'from __future__ imports must occur at the beginning of the file',
  ],
  ['an unknown future feature', 'from __future__ import spam\n', 'future feature spam is not defined'],
  [
    'a byte order mark inside the code',
    'import os\n\n\uFEFFdef f():\n    pass\n',
    'invalid non-printable character U+FEFF',
  ],
  [
    '101 levels of indentation',
    Array.from({ length: 101 }, (_, i) => `${' '.repeat(i)}if x:\n`).join('') + `${' '.repeat(101)}pass\n`,
    'too many levels of indentation',
  ],
  ['brackets continue lines at any indentation', 'if x:\n    y = (1,\n  2)\n    z = 3\n', undefined],
  ['a backslash continues a line', 'if x:\n    y = 1 \\\n  + 2\n    z = 3\n', undefined],
  ['comments at any indentation', 'if x:\n        y = 1\n    # note\n        z = 2\n', undefined],
  ['a triple-quoted string over lines', 'def f():\n    s = """\nabc\n  def\n"""\n    return s\n', undefined],
  ['tabs then alignment spaces one level deeper', 'if x:\n\tif y:\n\t\tpass\n\telse:\n\t    pass\n', undefined],
  ['a form feed resets the column', 'if x:\n\tpass\n\fif y:\n    pass\n', undefined],
  [
    'a docstring, a comment, then future imports',
    '"""Doc."""\n# note\nfrom __future__ import annotations\nimport os\n',
    undefined,
  ],
  ['a byte order mark at byte 0', '\uFEFFimport os\n', undefined],
  // A docstring right after the mark is read as a string (it was read as the rest of the file, or not at all).
  [
    'a byte order mark, a docstring, an indented line',
    '\uFEFF"""Doc."""\nimport os\n  import sys\n',
    'unexpected indent',
  ],
  ['a byte order mark, a docstring over indented lines', '\uFEFF"""Doc.\n\n    More.\n"""\nimport os\n', undefined],
  ['a colon inside brackets at a line end', 'x = {1:\n  2}\ny = 3\n', undefined],
  // CPython's symbol table and statement placement (the language fuzz wrote each of these as ok before).
  ['a parameter named twice', 'def f(a, b, *, a=1):\n    pass\n', "duplicate argument 'a' in function definition"],
  ['a lambda parameter named twice', 'g = lambda x, **x: x\n', "duplicate argument 'x' in function definition"],
  ['return at module level', 'x = 1\nreturn x\n', "'return' outside function"],
  ['return in a class body', 'class A:\n    return 1\n', "'return' outside function"],
  ['yield in a class body', 'class A:\n    x = yield\n', "'yield' outside function"],
  ['await at module level', 'await go()\n', "'await' outside function"],
  ['await in a def that is not async', 'def f():\n    await go()\n', "'await' outside async function"],
  ['break in a loop else', 'for i in x:\n    pass\nelse:\n    break\n', "'break' outside loop"],
  ['continue in a function in a loop', 'while x:\n    def f():\n        continue\n', "'continue' not properly in loop"],
  ['nonlocal at module level', 'nonlocal x\n', 'nonlocal declaration not allowed at module level'],
  ['nonlocal in a top-level function', 'def f():\n    nonlocal x\n    x = 1\n', "no binding for nonlocal 'x' found"],
  [
    'nonlocal in a method of a top-level class',
    'class A:\n    def m(self):\n        nonlocal x\n',
    "no binding for nonlocal 'x' found",
  ],
  [
    'nonlocal of a name no enclosing function has',
    'def g():\n    y = 1\n    def f():\n        nonlocal x\n',
    "no binding for nonlocal 'x' found",
  ],
  [
    'a parameter declared nonlocal',
    'def g():\n    def f(x):\n        nonlocal x\n',
    "name 'x' is parameter and nonlocal",
  ],
  ['a parameter declared global', 'def f(x):\n    global x\n', "name 'x' is parameter and global"],
  ['nonlocal bound by an enclosing function', 'def g():\n    x = 1\n    def f():\n        nonlocal x\n', undefined],
  [
    'nonlocal in a class in a function',
    'def g(x):\n    class A:\n        nonlocal x\n        def m(self):\n            nonlocal x\n',
    undefined,
  ],
  [
    'await in an async def and its generator',
    'async def f():\n    await go()\n    return (await y for y in z)\n',
    undefined,
  ],
  ['yield in a lambda and a def', 'g = lambda: (yield)\ndef f():\n    yield 1\n    return 2\n', undefined],
  [
    'break in a loop body, continue in finally',
    'while x:\n    try:\n        break\n    finally:\n        continue\n',
    undefined,
  ],
  ['global at module level', 'global x\nx = 1\n', undefined],
  // What CPython's parser refuses though tree-sitter's grammar accepts it (the language fuzz wrote each as ok).
  ['a try without except', 'try:\n    import a\n\nx = 1\n', "expected 'except' or 'finally' block"],
  [
    'a try with else, no except',
    'try:\n    pass\nelse:\n    pass\nfinally:\n    pass\n',
    "expected 'except' or 'finally' block",
  ],
  ['a keyword given twice', 'f(a=1, *x, b=2, a=3)\n', 'keyword argument repeated: a'],
  [
    'a class keyword given twice',
    'class A(metaclass=M, metaclass=N):\n    pass\n',
    'keyword argument repeated: metaclass',
  ],
  ['a positional argument after a keyword', 'f(a=1, (b))\n', 'positional argument follows keyword argument'],
  ['a base after a keyword', 'class A(x=1, B):\n    pass\n', 'positional argument follows keyword argument'],
  ['a positional argument after **', 'f(**k, b)\n', 'positional argument follows keyword argument unpacking'],
  ['*x after **k', 'f(a=1, **k, *b)\n', 'iterable argument unpacking follows keyword argument unpacking'],
  ['a mistyped else run on to the next line', 'if x:\n    y = 1\nelseFz:\n    y = 2\n', 'invalid syntax'],
  ['an assignment run on to the next line', 'x = 1 +\n2\n', 'invalid syntax'],
  ['a header run on to the next line', 'if x ==\ny:\n    pass\n', 'invalid syntax'],
  [
    'try with finally, try with except and else',
    'try:\n    pass\nfinally:\n    pass\ntry:\n    pass\nexcept* E:\n    pass\nelse:\n    pass\n',
    undefined,
  ],
  ['arguments in every allowed order', 'f(1, *a, b=2, *c, **d, e=3)\nf(x for x in y)\n', undefined],
  [
    'lines joined by brackets and backslashes, a decorator, a comment after a colon',
    '@d(a,\n  b=1)\ndef f(x=(1,\n    2)):  # note\n    y = x + \\\n2\n    return (y\n)\n',
    undefined,
  ],
];

function python3(): boolean {
  return spawnSync('python3', ['--version']).status === 0;
}

/** CPython's verdict on a snippet: its error message, or undefined when it compiles. */
function cpython(source: string): string | undefined {
  const run = spawnSync(
    'python3',
    [
      '-c',
      'import sys\ntry:\n compile(sys.stdin.buffer.read(), "m.py", "exec")\nexcept SyntaxError as e:\n print(e.msg)',
    ],
    { input: Buffer.from(source, 'utf8') },
  );
  const out = run.stdout.toString().trim();
  return out === '' ? undefined : out;
}

void describe('Python: what CPython refuses is a syntax error', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  for (const [name, source, expected] of SNIPPETS) {
    void test(`${name}: ${expected ?? 'compiles'}`, () => {
      const errors = outlineSource(FILE, source).syntaxErrors.map((e) => e.message);
      if (expected === undefined) assert.deepEqual(errors, []);
      else assert.ok(errors.includes(expected), JSON.stringify(errors));
    });
  }

  void test('CPython agrees with every verdict above (skipped without python3)', (t) => {
    if (!python3()) {
      t.skip('python3 is not on PATH');
      return;
    }
    for (const [name, source, expected] of SNIPPETS) {
      const verdict = cpython(source);
      assert.equal(verdict === undefined, expected === undefined, `${name}: CPython says ${verdict ?? 'it compiles'}`);
      if (expected !== undefined && verdict !== undefined)
        assert.ok(verdict.startsWith(expected.split(' ')[0] ?? ''), `${name}: ${verdict}`);
    }
  });
});

function apply(text: string, operations: readonly Operation[]): ReturnType<typeof applyOperations> {
  return applyOperations({ read: (path) => (path === FILE ? text : undefined) }, operations);
}

function appliedOrThrow(text: string, operations: readonly Operation[]): string {
  const result = apply(text, operations);
  assert.ok(result.ok, JSON.stringify(result.results.map((r) => r.message)));
  const after = result.changes[0]?.after;
  assert.ok(after !== undefined);
  assert.deepEqual(outlineSource(FILE, after).syntaxErrors, [], after);
  return after;
}

const TABBED = 'class A:\n\tdef f(self, x):\n\t\tif x:\n\t\t\treturn 1\n\t\treturn 2\n';

void describe('Python: indentation written in the file own character, never mixed', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('a PATCH whose new lines use spaces in a tab-indented file is written with tabs', () => {
    const after = appliedOrThrow(TABBED, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/class[A]/method[f]`,
        patches: [{ search: 'return 1', replace: 'y = x + 1\n            return y' }],
      },
    ]);
    assert.equal(after, 'class A:\n\tdef f(self, x):\n\t\tif x:\n\t\t\ty = x + 1\n\t\t\treturn y\n\t\treturn 2\n');
  });

  void test('a REPLACE_ELEMENT written with spaces in a tab-indented class is written with tabs', () => {
    const after = appliedOrThrow(TABBED, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/class[A]/method[f]`,
        content: 'def f(self, x):\n        if x:\n            return 3\n        return 4',
      },
    ]);
    assert.equal(after, 'class A:\n\tdef f(self, x):\n\t\tif x:\n\t\t\treturn 3\n\t\treturn 4\n');
  });

  void test('a PATCH that leaves a dedent matching no outer level is refused with CPython message', () => {
    const text = 'def f(x):\n    if x:\n        return 1\n    return 2\n';
    const result = apply(text, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/function[f]`,
        patches: [{ search: '        return 1', replace: '        y = 1\n      return y' }],
      },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results[0]?.message ?? '', /unindent does not match any outer indentation level/);
    assert.deepEqual(result.changes, []);
  });

  void test('a PATCH that indents an import of a file with a byte order mark and a docstring is refused', () => {
    const text = '\uFEFF"""Doc."""\n\nimport os\nimport sys\n\n\ndef f():\n    return os.sep\n';
    const result = apply(text, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/import[sys]`,
        patches: [{ search: 'import sys', replace: '  import sys' }],
      },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results.map((r) => r.message).join('\n'), /unexpected indent/);
    assert.deepEqual(result.changes, []);
  });

  void test('a string literal line keeps its spaces in a tab-indented file', () => {
    const after = appliedOrThrow(TABBED, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/class[A]/method[f]`,
        patches: [{ search: 'return 1', replace: 'return """a\n            b"""' }],
      },
    ]);
    assert.ok(after.includes('return """a\n            b"""'), after);
  });
});

void describe('Python: from __future__ imports go first', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  const future: Operation = { type: 'ADD_IMPORT', path: FILE, content: 'from __future__ import annotations' };

  void test('before the other imports, after the docstring', () => {
    const after = appliedOrThrow('"""Doc."""\nimport os\nimport sys\n\nX = 1\n', [future]);
    assert.equal(after, '"""Doc."""\nfrom __future__ import annotations\n\nimport os\nimport sys\n\nX = 1\n');
  });

  void test('after a shebang and an encoding line, which stay the first lines', () => {
    const after = appliedOrThrow('#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nimport os\n', [future]);
    assert.equal(
      after,
      '#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nfrom __future__ import annotations\n\nimport os\n',
    );
  });

  void test('into the file future import when there is one', () => {
    const after = appliedOrThrow('from __future__ import division\n\nimport os\n', [future]);
    assert.equal(after, 'from __future__ import division, annotations\n\nimport os\n');
  });

  void test('before another import added by the same batch to a file without imports', () => {
    const after = appliedOrThrow('def f():\n    return 1\n', [
      { type: 'ADD_IMPORT', path: FILE, content: 'import os' },
      future,
    ]);
    assert.ok(after.startsWith('from __future__ import annotations\nimport os\n'), after);
  });

  void test('from the head of CREATE_ELEMENT content too', () => {
    const after = appliedOrThrow('import os\n\n\ndef f():\n    return 1\n', [
      {
        type: 'CREATE_ELEMENT',
        path: FILE,
        position: { kind: 'LAST_CHILD' },
        content: 'from __future__ import annotations\n\ndef g() -> int:\n    return 2',
      },
    ]);
    assert.ok(after.startsWith('from __future__ import annotations\n\nimport os\n'), after);
  });

  void test('a shebang above a function is not part of it: a new import goes below the shebang', () => {
    const after = appliedOrThrow('#!/usr/bin/env python\ndef f():\n    return 1\n', [
      { type: 'ADD_IMPORT', path: FILE, content: 'import os' },
    ]);
    assert.ok(after.startsWith('#!/usr/bin/env python\nimport os\n'), after);
  });
});

void describe('Python: where statements may stand, checked in the file they land in', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('a module-level CREATE_ELEMENT holding a return is refused with CPython message, nothing written', () => {
    const result = apply('import os\n\n\ndef f():\n    return os.sep\n', [
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'LAST_CHILD' }, content: 'if os.sep:\n    return 1' },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results.map((r) => r.message).join('\n'), /'return' outside function/);
    assert.deepEqual(result.changes, []);
  });

  void test('a nested function declaring nonlocal is replaced: its binding is in the enclosing function', () => {
    const text = 'def g():\n    x = 1\n\n    def f():\n        nonlocal x\n        x = 2\n\n    return f\n';
    // The content is checked alone first (inside a stand-in function that binds nothing): the rule must not refuse it.
    const operation: Operation = {
      type: 'REPLACE_ELEMENT',
      path: `${FILE}/function[g]/function[f]`,
      content: 'def f():\n    nonlocal x\n    x = 3',
    };
    const after = appliedOrThrow(text, [operation]);
    assert.ok(after.includes('        x = 3\n'), after);
  });

  void test('a file of lone CRs (line ends to CPython, not to the grammar) is checked as CPython reads it', () => {
    const text =
      'import os\r\r\rclass A:\r    def m(self):\r        # note\r        return os.sep\r\r    def g(self):\r        yield 1\r';
    assert.equal(cpython(text), undefined);
    const misread = outlineSource(FILE, text).syntaxErrors.filter((e) => /outside|nonlocal|argument/.test(e.message));
    assert.deepEqual(misread, []);
    const result = apply(text, [
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'LAST_CHILD' }, content: 'def f():\n    return 1' },
    ]);
    assert.ok(result.ok, JSON.stringify(result.results));
    const refused = apply(text, [
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'LAST_CHILD' }, content: 'x = 1\nreturn x' },
    ]);
    assert.equal(refused.ok, false);
    assert.match(refused.results.map((r) => r.message).join('\n'), /'return' outside function/);
  });

  void test('an async method whose body awaits is replaced in its class', () => {
    const text = 'class A:\n    async def m(self):\n        await self.go()\n';
    const after = appliedOrThrow(text, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/class[A]/method[m]`,
        content:
          'async def m(self):\n    for i in range(2):\n        await self.go()\n        if i:\n            break\n    return 1',
      },
    ]);
    assert.ok(after.includes('            break\n'), after);
  });
});

void describe('Python: what CPython parser refuses, checked in the file it lands in', () => {
  before(async () => {
    await loadLanguagesFor([FILE]);
  });

  void test('a PATCH that drops the except line of a try is refused with CPython message, nothing written', () => {
    const text = 'try:\n    import chardet\nexcept ImportError:\n    chardet = None\n\n\ndef f():\n    return 1\n';
    const result = apply(text, [
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/statement[try]`,
        patches: [{ search: 'except ImportError:', replace: '' }],
      },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results.map((r) => r.message).join('\n'), /expected 'except' or 'finally' block/);
    assert.deepEqual(result.changes, []);
  });

  void test('a PATCH that gives a call the same keyword twice is refused with CPython message', () => {
    const text = 'def f(a, b):\n    return g(a=a, b=b)\n';
    const result = apply(text, [
      { type: 'PATCH_ELEMENT', path: `${FILE}/function[f]`, patches: [{ search: 'b=b', replace: 'a=b' }] },
    ]);
    assert.equal(result.ok, false);
    assert.match(result.results.map((r) => r.message).join('\n'), /keyword argument repeated: a/);
  });
});
