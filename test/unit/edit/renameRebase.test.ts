import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diskSnapshot } from '../../../src/cli/writeChanges';
import { createEditService } from '../../../src/core/edit/editService';
import { renamesOf, resolveAgainstCurrent } from '../../../src/core/edit/rebase';
import { parseOperations } from '../../../src/core/ops/format';
import { tempWorkspace } from '../../support/tempWorkspace';

// Issue 27: a verified RENAME_ELEMENT resolved again against the text as it is now (a file changed while the model
// worked, VS Code's preview): the places found on the snapshot apply again only when none of the rename's files
// changed; else the rename is a stale conflict, never a rename of text it was not found in.

const LIB = `export function total(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0);
}
`;
const USE = `import { total } from './lib';

export const answer = total([40, 2]);
`;
const OTHER = `export const unrelated = 1;
`;

async function verifiedRename() {
  const root = tempWorkspace('scalpel-rename-rebase-', {
    'src/lib.ts': LIB,
    'src/use.ts': USE,
    'src/other.ts': OTHER,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
  });
  const { operations } = parseOperations('RENAME_ELEMENT src/lib.ts/function[total] sum');
  const verification = await createEditService({ workspaceRoot: root }).verify({
    snapshot: diskSnapshot(root),
    operations,
  });
  assert.equal(verification.ok, true, JSON.stringify(verification.apply.results));
  const baseline = new Map(verification.apply.changes.map((c) => [c.path, c.before] as const));
  return { operations, results: verification.apply.results, baseline };
}

function reader(files: Readonly<Record<string, string>>) {
  return { read: (path: string) => files[path] };
}

void describe('a verified rename resolved against the current text', () => {
  void test('applies again when only a file it does not change moved', async () => {
    const { operations, results, baseline } = await verifiedRename();
    const current = reader({ 'src/lib.ts': LIB, 'src/use.ts': USE, 'src/other.ts': 'export const unrelated = 2;\n' });
    const resolution = resolveAgainstCurrent(
      operations.map((operation, index) => ({ index, operation })),
      baseline,
      current,
      'hybrid',
      { renames: renamesOf(operations, results) },
    );
    assert.deepEqual(resolution.applied, [0]);
    assert.deepEqual(
      new Map(resolution.changes.map((c) => [c.path, c.after])),
      new Map([
        ['src/lib.ts', LIB.replace('function total', 'function sum')],
        ['src/use.ts', USE.replaceAll('total', 'sum')],
      ]),
    );
  });

  void test('is a stale conflict when a file it changes moved', async () => {
    const { operations, results, baseline } = await verifiedRename();
    const edited = USE.replace('[40, 2]', '[41, 1]');
    const current = reader({ 'src/lib.ts': LIB, 'src/use.ts': edited, 'src/other.ts': OTHER });
    const resolution = resolveAgainstCurrent(
      operations.map((operation, index) => ({ index, operation })),
      baseline,
      current,
      'hybrid',
      { renames: renamesOf(operations, results) },
    );
    assert.deepEqual(resolution.applied, []);
    assert.deepEqual(resolution.changes, []);
    assert.equal(resolution.conflicts[0]?.kind, 'stale');
    assert.match(
      resolution.conflicts[0]?.reason ?? '',
      /src\/use\.ts is not the text the rename's places were found in/,
    );
  });
});
