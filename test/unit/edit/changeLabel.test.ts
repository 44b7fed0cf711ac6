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

  void test('a path the model misspelled is named as it was read (the Review row, issue 29)', () => {
    const op = patch(`${FILE}/class[userservice]/method[Validate]`);
    assert.equal(
      describeOperation(op, { file: FILE, readAs: `${FILE}/class[UserService]/method[validate]` }),
      'edit class[UserService]/method[validate]',
    );
  });

  void test('no rename note when the path stayed the same', () => {
    const op = patch(`${FILE}/function[parse]`);
    assert.equal(describeOperation(op, { file: FILE, renamedTo: `${FILE}/function[parse]` }), 'edit function[parse]');
  });
});

void describe('describeOperation of a created element', () => {
  function create(content: string, elementKind?: string): Operation {
    return {
      type: 'CREATE_ELEMENT',
      path: `${FILE}/class[UserService]`,
      position: { kind: 'LAST_CHILD' },
      content,
      ...(elementKind === undefined ? {} : { elementKind }),
    };
  }

  void test('names what it creates, after JSDoc, decorators and modifiers (issue 14)', () => {
    assert.equal(
      describeOperation(create('/** Resets it. */\n@logged()\npublic async reset(): Promise<void> {\n}', 'method'), {
        file: FILE,
      }),
      'add method[reset] to class[UserService]',
    );
    assert.equal(
      describeOperation(create('export function slugify(text: string) {}'), { file: FILE }),
      'add slugify to class[UserService]',
    );
    assert.equal(
      describeOperation(create('private readonly cache = new Map();', 'property'), { file: FILE }),
      'add property[cache] to class[UserService]',
    );
  });

  void test('a content it cannot read keeps the old label', () => {
    assert.equal(
      describeOperation(create('constructor() {}', 'constructor'), { file: FILE }),
      'add constructor to class[UserService]',
    );
    assert.equal(describeOperation(create('', 'method'), { file: FILE }), 'add method to class[UserService]');
  });
});
