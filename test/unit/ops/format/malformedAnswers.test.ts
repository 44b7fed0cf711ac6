import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseOperations } from '../../../../src/core/ops/format';

/**
 * A corpus of broken answers, one per file, with what the parser must say about each: which operations survive and
 * which errors, at which line, are reported. Messages are matched by a telling substring so wording can improve.
 */
const fixtures = join(__dirname, '..', '..', '..', '..', '..', 'test', 'unit', 'ops', 'format', 'fixtures');

interface ExpectedError {
  readonly line: number;
  readonly message: string;
  readonly expected?: string;
}

interface Expectation {
  readonly operations: readonly string[];
  readonly errors: readonly ExpectedError[];
}

const expectations = JSON.parse(readFileSync(join(fixtures, 'malformed.expected.json'), 'utf8')) as Record<
  string,
  Expectation
>;
const answers = readdirSync(join(fixtures, 'malformed')).sort();

void describe('malformed answers', () => {
  void test('every fixture has an expectation and every expectation a fixture', () => {
    assert.deepEqual(answers, Object.keys(expectations).sort());
  });

  for (const name of answers) {
    void test(name, () => {
      const text = readFileSync(join(fixtures, 'malformed', name), 'utf8');
      const expectation = expectations[name];
      assert.ok(expectation !== undefined, `no expectation for ${name}`);
      const result = parseOperations(text);
      assert.deepEqual(
        result.operations.map((operation) => operation.type),
        expectation.operations,
      );
      assert.deepEqual(
        result.errors.map((error) => error.line),
        expectation.errors.map((error) => error.line),
        `error lines: ${JSON.stringify(result.errors)}`,
      );
      expectation.errors.forEach((expected, index) => {
        const actual = result.errors[index];
        assert.ok(
          actual?.message.includes(expected.message),
          `error ${index}: "${actual?.message}" lacks "${expected.message}"`,
        );
        if (expected.expected !== undefined) {
          assert.ok(
            actual?.expected?.includes(expected.expected),
            `error ${index}: expected-text "${actual?.expected}"`,
          );
        }
      });
    });
  }

  void test('the same answers with CRLF line ends give the same operations and errors', () => {
    for (const name of answers) {
      const text = readFileSync(join(fixtures, 'malformed', name), 'utf8');
      const lf = parseOperations(text);
      const crlf = parseOperations(text.replace(/\n/g, '\r\n'));
      assert.deepEqual(crlf, lf, name);
    }
  });
});
