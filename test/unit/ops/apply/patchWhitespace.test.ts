import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import type { SearchReplacePair } from '../../../../src/core/ops/operation';
import { corpusFileText, installHint } from '../../../support/languageCorpus';
import { applyFails, applyOk, failure } from './applyHarness';

// Issue 26.8: when a PATCH_ELEMENT SEARCH may differ from the file by whitespace, and when it is refused, the same in
// every language (docs/operations.md, "How SEARCH matches"). As written first (line breaks read as the file's), then
// line by line with indentation, trailing whitespace and inner runs of spaces and tabs ignored, only when that finds
// one place; Python's nesting must agree. The result says when the tolerant reading was used.

function patch(path: string, ...patches: SearchReplacePair[]) {
  return { type: 'PATCH_ELEMENT' as const, path, patches };
}

const TOLERANT_NOTE = /SEARCH block 1 matched only with whitespace ignored \(indentation, tabs or spaces, spacing\)/;

const GO = 'server.go';
const GO_TEXT = [
  'package server',
  '',
  'type Server struct {',
  '\tAddr    string',
  '\tTimeout int',
  '}',
  '',
  'func (s *Server) Start() error {',
  '\tif s.Addr == "" {',
  '\t\treturn errEmpty',
  '\t}',
  '\treturn s.listen()',
  '}',
  '',
  'func (s *Server) Stop() error {',
  '\tif s.Addr == "" {',
  '\t\treturn errEmpty',
  '\t}',
  '\treturn nil',
  '}',
  '',
].join('\n');
const START = `${GO}/method[(*Server).Start]`;

void describe('PATCH SEARCH and whitespace', () => {
  before(() => loadLanguagesFor(['a.go', 'a.py', 'a.rs', 'a.java', 'a.cs']));

  void test('Go: a SEARCH with spaces where the file has tabs applies once, written with tabs, and the result says so', () => {
    const operations = [
      patch(START, {
        search: '    if s.Addr == "" {\n        return errEmpty\n    }',
        replace: '    if s.Addr == "" {\n        return fmt.Errorf("start: %w", errEmpty)\n    }',
      }),
    ];
    const { after, result } = applyOk({ [GO]: GO_TEXT }, operations);
    assert.equal(
      after(GO),
      GO_TEXT.replace(
        'func (s *Server) Start() error {\n\tif s.Addr == "" {\n\t\treturn errEmpty',
        'func (s *Server) Start() error {\n\tif s.Addr == "" {\n\t\treturn fmt.Errorf("start: %w", errEmpty)',
      ),
    );
    assert.match(result.results[0]?.message ?? '', TOLERANT_NOTE);
  });

  void test('an exact match says nothing about whitespace', () => {
    const { result } = applyOk({ [GO]: GO_TEXT }, [
      patch(START, { search: '\treturn s.listen()', replace: '\treturn s.serve()' }),
    ]);
    assert.equal(result.results[0]?.message, undefined);
  });

  void test('trailing spaces and inner alignment (gofmt columns) are tolerated; the lines REPLACE keeps stay as the file has them', () => {
    const { after, result } = applyOk({ [GO]: GO_TEXT }, [
      patch(`${GO}/struct[Server]`, {
        search: 'type Server struct {   \n  Addr string\n  Timeout int\n}',
        replace: 'type Server struct {\n  Addr string\n  Timeout int\n  Retries int\n}',
      }),
    ]);
    assert.ok(
      after(GO).includes('type Server struct {\n\tAddr    string\n\tTimeout int\n\tRetries int\n}'),
      'the kept lines keep their tabs and alignment; the new one gets a tab',
    );
    assert.match(result.results[0]?.message ?? '', TOLERANT_NOTE);
  });

  void test('a SEARCH that matches two places once whitespace is ignored is refused, naming both, and nothing changes', () => {
    const body = '\tif s.Addr == "" {\n\t\treturn errEmpty\n\t}';
    const file = GO_TEXT.replace('\treturn s.listen()', `${body}\n\treturn s.listen()`);
    const result = applyFails({ [GO]: file }, [
      patch(START, {
        search: 'if s.Addr == "" {\n    return errEmpty\n}',
        replace: 'if s.Addr == "" {\n    return nil\n}',
      }),
    ]);
    const { message, hint } = failure(result, 0);
    assert.match(message ?? '', /matches 2 places in the element once whitespace is ignored \(lines 9, 12\)/);
    assert.match(hint ?? '', /add the lines around the change/);
    assert.deepEqual(result.changes, []);
  });

  void test('a SEARCH found twice as written is refused at once: the tolerant reading is not tried', () => {
    const body = '\tif s.Addr == "" {\n\t\treturn errEmpty\n\t}';
    const file = GO_TEXT.replace('\treturn s.listen()', `${body}\n\treturn s.listen()`);
    const result = applyFails({ [GO]: file }, [patch(START, { search: body, replace: '' })]);
    assert.match(failure(result, 0).message ?? '', /matches 2 places in the element \(lines 9, 12\)$/);
  });

  void test('other differences are not whitespace: a missing space between tokens, another quote, a missing line', () => {
    for (const search of ['if s.Addr=="" {', "if s.Addr == '' {", 'if s.Addr == "" {\n}']) {
      const result = applyFails({ [GO]: GO_TEXT }, [patch(START, { search, replace: 'x' })]);
      assert.match(failure(result, 0).message ?? '', /matches nothing in the element/, search);
    }
  });

  void test('CRLF: a SEARCH with \\n matches a CRLF file as written, and one with \\r\\n matches an LF file', () => {
    const crlf = GO_TEXT.replace(/\n/g, '\r\n');
    const inCrlf = applyOk({ [GO]: crlf }, [
      patch(START, { search: '\treturn s.listen()\n}', replace: '\treturn s.serve()\n}' }),
    ]);
    assert.ok(inCrlf.after(GO).includes('\treturn s.serve()\r\n}\r\n'));
    assert.equal(inCrlf.result.results[0]?.message, undefined, 'an exact match');
    const inLf = applyOk({ [GO]: GO_TEXT }, [
      patch(START, { search: '\treturn s.listen()\r\n}', replace: '\treturn s.serve()\r\n}' }),
    ]);
    assert.ok(inLf.after(GO).includes('\treturn s.serve()\n}\n'));
    const tolerant = applyOk({ [GO]: crlf }, [
      patch(START, { search: '  return s.listen()\n}', replace: '  return s.serve()\n}' }),
    ]);
    assert.ok(tolerant.after(GO).includes('\treturn s.serve()\r\n}\r\n'), 'CRLF kept on a tolerant match too');
    assert.ok(!/[^\r]\n/.test(tolerant.after(GO)), 'every line break is CRLF');
  });

  void test('Python: another indentation width is tolerated when the nesting is the same, and refused when it is not', () => {
    const file = 'shapes.py';
    const text = [
      'class Shape:',
      '    def area(self, scale):',
      '        if scale > 1:',
      '            grow(self)',
      '        return self.size * scale',
      '',
    ].join('\n');
    const path = `${file}/class[Shape]/method[area]`;
    const same = applyOk({ [file]: text }, [
      patch(path, {
        search: 'if scale > 1:\n  grow(self)\nreturn self.size * scale',
        replace: 'if scale > 1:\n  grow(self)\n  log(scale)\nreturn self.size * scale',
      }),
    ]);
    assert.ok(
      same
        .after(file)
        .includes('        if scale > 1:\n            grow(self)\n            log(scale)\n        return'),
    );
    assert.match(same.result.results[0]?.message ?? '', TOLERANT_NOTE);
    // The same lines, but `return` inside the `if`: a different program, not a whitespace difference.
    const moved = applyFails({ [file]: text }, [
      patch(path, {
        search: 'if scale > 1:\n    grow(self)\n    return self.size * scale',
        replace: 'if scale > 1:\n    grow(self)\n    return 0',
      }),
    ]);
    assert.match(failure(moved, 0).message ?? '', /matches nothing in the element/);
  });

  void test("the same rule in every language: a body indented with other whitespace than the file's applies in the file's", () => {
    const cases = [
      {
        file: 'a.ts',
        path: 'class[A]/method[run]',
        text: 'class A {\n\trun(): number {\n\t\treturn 1;\n\t}\n}\n',
        line: 'return 1;',
        to: 'return 2;',
        indent: '\t\t',
      },
      {
        file: 'A.java',
        path: 'class[A]/method[run]',
        text: 'class A {\n    int run() {\n        return 1;\n    }\n}\n',
        line: 'return 1;',
        to: 'return 2;',
        indent: '        ',
      },
      {
        file: 'A.cs',
        path: 'class[A]/method[Run]',
        text: 'class A\n{\n    int Run()\n    {\n        return 1;\n    }\n}\n',
        line: 'return 1;',
        to: 'return 2;',
        indent: '        ',
      },
      {
        file: 'a.rs',
        path: 'impl[A]/method[run]',
        text: 'impl A {\n    fn run(&self) -> i32 {\n        1\n    }\n}\n',
        line: '1',
        to: '2',
        indent: '        ',
      },
      {
        file: 'a.py',
        path: 'class[A]/method[run]',
        text: 'class A:\n    def run(self):\n        return 1\n',
        line: 'return 1',
        to: 'return 2',
        indent: '        ',
      },
      {
        file: 'a.go',
        path: 'function[run]',
        text: 'package a\n\nfunc run() int {\n\treturn 1\n}\n',
        line: 'return 1',
        to: 'return 2',
        indent: '\t',
      },
    ];
    for (const c of cases) {
      const { after, result } = applyOk({ [c.file]: c.text }, [
        patch(`${c.file}/${c.path}`, { search: ` ${c.line}  `, replace: ` ${c.to}` }),
      ]);
      assert.equal(after(c.file), c.text.replace(`${c.indent}${c.line}`, `${c.indent}${c.to}`), c.file);
      assert.match(result.results[0]?.message ?? '', TOLERANT_NOTE, c.file);
    }
  });

  void test("a patch of the file's own text (a section comment) is tolerant the same way", () => {
    const text = 'package a\n\n// DEPRECATED  \n\nfunc old() {}\n';
    const { after, result } = applyOk({ 'a.go': text }, [
      patch('a.go', { search: '//   DEPRECATED', replace: '// DEPRECATED: use New instead.' }),
    ]);
    assert.equal(after('a.go'), 'package a\n\n// DEPRECATED: use New instead.\n\nfunc old() {}\n');
    assert.match(result.results[0]?.message ?? '', TOLERANT_NOTE);
  });

  void test("real Go: a test of cobra patched with spaces for its tabs keeps the file's tabs", (t) => {
    const real = corpusFileText('go', 'spf13/cobra/args_test.go');
    if (real === undefined) return t.skip(installHint('go'));
    const { after, result } = applyOk({ [real.path]: real.text }, [
      patch(`${real.path}/function[TestExactValidArgs]`, {
        search: '    output, err := executeCommand(c, "three", "one", "two")\n    expectSuccess(output, err, t)',
        replace:
          '    output, err := executeCommand(c, "three", "one", "two")\n    if err != nil {\n        t.Fatal(err)\n    }\n    expectSuccess(output, err, t)',
      }),
    ]);
    assert.ok(
      after(real.path).includes(
        '\toutput, err := executeCommand(c, "three", "one", "two")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\texpectSuccess(output, err, t)\n}\n\nfunc TestExactValidArgs_WithInvalidCount(',
      ),
    );
    assert.match(result.results[0]?.message ?? '', TOLERANT_NOTE);
  });
});
