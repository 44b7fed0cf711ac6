import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diskSnapshot } from '../../../src/cli/writeChanges';
import { createEditService } from '../../../src/core/edit/editService';
import { remainingTypeErrors } from '../../../src/core/edit/typeCheckStep';
import { parseOperations } from '../../../src/core/ops/format';

// The type check on operations from elsewhere (VS Code's Apply from Clipboard): real files, the real checker. By
// default new errors fail the batch; with allowNewErrors (VS Code shows them in the preview) the batch verifies and
// the errors come back located, for the preview to mark.

const GREET = `export function greet(name: string): string {
  return name;
}
`;
const APP = `import { greet } from './greet';

export function main(): string {
  return greet('world');
}
`;
const OPERATIONS = [
  'REPLACE_ELEMENT src/greet.ts/function[greet]',
  '```ts',
  'export function greet(name: string, punctuation: string): string {',
  '  return name + punctuation;',
  '}',
  '```',
].join('\n');

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-verify-types-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'greet.ts'), GREET);
  writeFileSync(join(root, 'src', 'app.ts'), APP);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }));
  return root;
}

void describe('the edit service verifies pasted operations with the type check', () => {
  const { operations } = parseOperations(OPERATIONS);

  /** The pasted operations verified on a fresh workspace, as VS Code's Apply from Clipboard does. */
  function verifyOnDisk(verify: 'types' | 'syntax', allowNewErrors = false) {
    const root = workspace();
    return createEditService({ workspaceRoot: root }).verify({
      snapshot: diskSnapshot(root),
      operations,
      settings: { verify },
      ...(allowNewErrors ? { allowNewErrors: true } : {}),
    });
  }

  void test('a new error in an importer fails the batch, with the error located', async () => {
    const verification = await verifyOnDisk('types');
    assert.equal(verification.apply.ok, true);
    assert.equal(verification.ok, false);
    const [error] = remainingTypeErrors(verification.steps);
    assert.deepEqual(error && [error.file, error.line, error.code, error.elementPath, error.lineText], [
      'src/app.ts',
      4,
      2554,
      'src/app.ts/function[main]',
      "return greet('world');",
    ]);
  });

  void test('allowNewErrors lets it through and still reports the errors', async () => {
    const verification = await verifyOnDisk('types', true);
    assert.equal(verification.ok, true);
    assert.deepEqual(
      remainingTypeErrors(verification.steps).map((e) => e.code),
      [2554],
    );
  });

  void test('verify: syntax runs no type check', async () => {
    const verification = await verifyOnDisk('syntax');
    assert.equal(verification.ok, true);
    assert.deepEqual(remainingTypeErrors(verification.steps), []);
  });
});
