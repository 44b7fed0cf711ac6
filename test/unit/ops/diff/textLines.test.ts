import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blankLinesAround } from '../../../../src/core/ops/diff/textLines';

void describe('blankLinesAround: the blank lines the diff writes as BLANK_LINES', () => {
  void test('counts whole blank lines above and below, up to text or the edge of the file', () => {
    const around = (text: string, needle: string): [number, number] => {
      const start = text.indexOf(needle);
      const { above, below } = blankLinesAround(text, start, start + needle.length);
      return [above, below];
    };
    assert.deepEqual(around('a\n\nX\n\n\nb\n', 'X'), [1, 2]);
    assert.deepEqual(around('X\nb\n', 'X'), [0, 0]);
    assert.deepEqual(around('a\nX', 'X'), [0, 0]);
    // The file's own last line break is no blank line; blank lines at the very top are.
    assert.deepEqual(around('a\n\n\nX\n', 'X'), [2, 0]);
    assert.deepEqual(around('\n\nX\n\n', 'X'), [2, 1]);
    // CRLF, and lines of only spaces or tabs, count as blank.
    assert.deepEqual(around('a\r\n\r\nX\r\n\r\nb', 'X'), [1, 1]);
    assert.deepEqual(around('a\n  \n  X y\n\t\nb', 'X y'), [1, 1]);
  });
});
