import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeOperation } from '../../../src/core/edit/changeLabel';
import type { Operation } from '../../../src/core/ops/operation';

const FILE = 'src/userService.ts';

function patch(path: string): Operation {
  return { type: 'PATCH_ELEMENT', path, patches: [] };
}

void describe('describeOperation', () => {
  void test('names an element relative to the file it is shown in', () => {
    const op = patch(`${FILE}/class[UserService]/method[validate]`);
    assert.equal(describeOperation(op, { file: FILE }), 'edit class[UserService]/method[validate]');
    assert.equal(describeOperation(op), `edit ${FILE}/class[UserService]/method[validate]`);
  });

  void test('a rename shows the new name after the old path', () => {
    const op: Operation = {
      type: 'REPLACE_ELEMENT',
      path: `file:${FILE}/class[UserService]/method[validate]`,
      content: 'check(): boolean { return true; }',
    };
    const renamedTo = `${FILE}/class[UserService]/method[check]`;
    assert.equal(
      describeOperation(op, { file: FILE, renamedTo }),
      'replace class[UserService]/method[validate] → method[check] (renamed)',
    );
  });

  void test('a slash inside a bracketed name is not a separator', () => {
    const op = patch(`${FILE}/import[node:path/posix]`);
    assert.equal(
      describeOperation(op, { file: FILE, renamedTo: `${FILE}/import[node:path/win32]` }),
      'edit import[node:path/posix] → import[node:path/win32] (renamed)',
    );
  });

  void test('no rename note when the path stayed the same', () => {
    const op = patch(`${FILE}/function[parse]`);
    assert.equal(describeOperation(op, { file: FILE, renamedTo: `${FILE}/function[parse]` }), 'edit function[parse]');
  });
});
