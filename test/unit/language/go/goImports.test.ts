import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import { diffElementsInDetail } from '../../../../src/core/ops/diff';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFixture, elementAt, readFixture } from '../specCases';

/** ADD_IMPORT and REMOVE_IMPORT over Go import declarations, and a file's first element after its package clause. */

const FILE = 'shapes/hard_cases.go';
const TEXT = readFixture('go/fixtures/hard_cases.go');
const add = (content: string, file = FILE): Operation => ({ type: 'ADD_IMPORT', path: file, content });
const remove = (content: string, path = FILE): Operation => ({ type: 'REMOVE_IMPORT', path, content });

function refused(text: string, operations: Operation[], file = FILE): string[] {
  const result = applyOperations({ read: (path) => (path === file ? text : undefined) }, operations);
  assert.equal(result.ok, false);
  assert.deepEqual(result.changes, [], 'nothing is written');
  return result.results.map((r) => r.message ?? '');
}

void describe('Go import operations', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('a path goes into the block, in its sorted place; one of another kind opens a group after it', () => {
    const after = applyToFixture(FILE, TEXT, [add('"io"'), add('import "github.com/acme/geo"'), add('m "math"')]);
    assert.equal(
      elementAt(FILE, after, 'import[errors,io,math,strings,github.com/acme/geo]').text,
      'import (\n\t"errors"\n\t"io"\n\tm "math"\n\tstr "strings"\n\n\t"github.com/acme/geo"\n)',
    );
    // The lone `import "fmt"` beside the block stays as it was.
    assert.equal(after.replace('\t"io"\n\tm "math"\n', '').replace('\n\t"github.com/acme/geo"\n', ''), TEXT);
  });

  void test('the group whose paths share the longest prefix takes the path; an unsorted group takes it last', () => {
    const text = [
      'package x',
      '',
      'import (',
      '\t"os"',
      '\t"fmt"',
      '',
      '\t"github.com/acme/a"',
      '\t"github.com/acme/c"',
      '',
      '\t"golang.org/x/sync" // errgroup',
      ')',
      '',
    ].join('\n');
    const after = applyToFixture('x/x.go', text, [
      add('"github.com/acme/b"', 'x/x.go'),
      add('"golang.org/x/text"', 'x/x.go'),
      add('"io"', 'x/x.go'),
    ]);
    assert.equal(
      after,
      [
        'package x',
        '',
        'import (',
        '\t"os"',
        '\t"fmt"',
        '\t"io"',
        '',
        '\t"github.com/acme/a"',
        '\t"github.com/acme/b"',
        '\t"github.com/acme/c"',
        '',
        '\t"golang.org/x/sync" // errgroup',
        '\t"golang.org/x/text"',
        ')',
        '',
      ].join('\n'),
    );
  });

  void test('a file with one lone import gets a block, the standard library first; `import "C"` stays alone', () => {
    const text = 'package x\n\nimport "os"\n\nfunc A() {}\n';
    const after = applyToFixture('x/x.go', text, [add('"golang.org/x/sync"', 'x/x.go'), add('fmt', 'x/x.go')]);
    assert.equal(after, 'package x\n\nimport (\n\t"fmt"\n\t"os"\n\n\t"golang.org/x/sync"\n)\n\nfunc A() {}\n');
    const cgo = '// #include <stdio.h>\nimport "C"\n';
    const withC = applyToFixture('x/c.go', `package x\n\n${cgo}`, [add('"fmt"', 'x/c.go')]);
    assert.equal(withC, `package x\n\n${cgo}import "fmt"\n`);
  });

  void test('a file without imports gets them after its package clause, a blank line between', () => {
    const text = '// Package x does things.\npackage x\n\n// A is a.\nfunc A() {}\n';
    const after = applyToFixture('x/x.go', text, [add('"fmt"\n"os"', 'x/x.go')]);
    assert.equal(
      after,
      '// Package x does things.\npackage x\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n// A is a.\nfunc A() {}\n',
    );
    assert.equal(
      applyToFixture('x/x.go', 'package x\n', [add('import "fmt"', 'x/x.go')]),
      'package x\n\nimport "fmt"\n',
    );
  });

  void test('an import the file has is a note, not an error, and changes nothing', () => {
    const result = applyOperations({ read: (path) => (path === FILE ? TEXT : undefined) }, [
      add('"fmt"'),
      add('str "strings"'),
      add('"io"'),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(
      result.results.map((r) => `${r.status} ${r.message ?? ''}`),
      ['ok "fmt" is already imported', 'ok "strings" is already imported', 'ok '],
    );
  });

  void test('REMOVE_IMPORT takes a path out with its line; the last path of a block takes the block', () => {
    const after = applyToFixture(FILE, TEXT, [remove('"errors"'), remove('import "fmt"')]);
    assert.equal(after, TEXT.replace('\t"errors"\n', '').replace('import "fmt"\n\n', ''));
    const gone = applyToFixture(FILE, TEXT, [remove('errors'), remove('str "strings"')]);
    assert.equal(gone, TEXT.replace('import (\n\t"errors"\n\tstr "strings"\n)\n\n', ''));
    const byPath = applyToFixture(FILE, TEXT, [remove('', `${FILE}/import[errors,strings]`)]);
    assert.equal(byPath, gone);
  });

  void test('removing a path of a group leaves no blank line doubled or at the edge of the block', () => {
    const text = 'package x\n\nimport (\n\t"fmt"\n\n\t"github.com/acme/a"\n\n\t"golang.org/x/sync"\n)\n';
    assert.equal(
      applyToFixture('x/x.go', text, [remove('"github.com/acme/a"', 'x/x.go')]),
      'package x\n\nimport (\n\t"fmt"\n\n\t"golang.org/x/sync"\n)\n',
    );
    assert.equal(
      applyToFixture('x/x.go', text, [remove('"fmt"', 'x/x.go')]),
      'package x\n\nimport (\n\t"github.com/acme/a"\n\n\t"golang.org/x/sync"\n)\n',
    );
  });

  void test('malformed content and a path the file lacks are clear errors that write nothing', () => {
    assert.match(refused(TEXT, [add('import "fmt')])[0] ?? '', /ADD_IMPORT shapes\/hard_cases\.go: /);
    assert.match(refused(TEXT, [add('import fmt')])[0] ?? '', /ADD_IMPORT/);
    assert.match(refused(TEXT, [add('func A() {}')])[0] ?? '', /not an import declaration/);
    const missing = refused(TEXT, [add('"io"'), remove('"net/http"')]);
    assert.match(missing[1] ?? '', /nothing is imported from net\/http/);
  });

  void test('a CRLF file keeps its line ends', () => {
    const text = 'package x\r\n\r\nimport (\r\n\t"os"\r\n)\r\n';
    assert.equal(
      applyToFixture('x/x.go', text, [add('"fmt"', 'x/x.go')]),
      'package x\r\n\r\nimport (\r\n\t"fmt"\r\n\t"os"\r\n)\r\n',
    );
  });

  void test('the element diff says imports added and removed as import operations that reproduce the new text', () => {
    const after = TEXT.replace('\t"errors"\n', '\t"errors"\n\t"io"\n').replace('import "fmt"\n\n', '');
    const diff = diffElementsInDetail(FILE, TEXT, after);
    assert.ok(diff.verified);
    assert.deepEqual([...new Set(diff.operations.map((o) => o.type))].sort(), ['ADD_IMPORT', 'REMOVE_IMPORT']);
    assert.ok(diff.operations.some((o) => o.type === 'REMOVE_IMPORT' && o.content === 'import "fmt"'));
    assert.equal(applyToFixture(FILE, TEXT, diff.operations), after);
  });

  void test('a first element of a file that has only its package clause goes after the clause', () => {
    const text = '// Package x.\npackage x\n';
    for (const kind of ['FIRST_CHILD', 'LAST_CHILD'] as const) {
      const after = applyToFixture('x/x.go', text, [
        { type: 'CREATE_ELEMENT', path: 'x/x.go', position: { kind }, content: 'func A() {}' },
      ]);
      assert.equal(after, '// Package x.\npackage x\n\nfunc A() {}\n', kind);
    }
    const first = applyToFixture(FILE, TEXT, [
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'FIRST_CHILD' }, content: 'const Zero = 0' },
    ]);
    assert.match(first, /^import "fmt"\n\nconst Zero = 0\n\n\/\/ ErrEmpty/m);
  });
});
