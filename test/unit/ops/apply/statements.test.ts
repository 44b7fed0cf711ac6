import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyOk } from './applyHarness';

const SPEC = 'src/user.test.ts';
const spec = "import { test } from 'node:test';\n\ntest('creates a user', () => {\n  new User('a');\n});\n";

void describe('top-level statements', () => {
  void test('a second test(...) call can be created: a label is not a name that clashes', () => {
    const added = "test('rejects an empty name', () => {\n  assert.throws(() => new User(''));\n});";
    const { after } = applyOk({ [SPEC]: spec }, [
      { type: 'CREATE_ELEMENT', path: SPEC, position: { kind: 'AFTER', sibling: 'statement[test]' }, content: added },
    ]);
    assert.equal(after(SPEC), `${spec}\n${added}\n`);
  });
});
