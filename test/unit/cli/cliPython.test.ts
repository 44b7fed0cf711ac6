import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scalpel, scalpelProcess } from './runScalpel';

/** The CLI on Python files: the grammar loads on the first .py file, in-process and from the built dist/cli.js. */

const repoRoot = join(__dirname, '..', '..', '..', '..');
const FIXTURE = join(repoRoot, 'test', 'unit', 'language', 'python', 'fixtures', 'hard_cases.py');

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-py-'));
  mkdirSync(join(root, 'pkg'));
  copyFileSync(FIXTURE, join(root, 'pkg', 'shapes.py'));
  return root;
}

void describe('scalpel CLI on Python', () => {
  void test('outline, then context focused on a method', async () => {
    const root = workspace();
    const outline = await scalpel(root, ['outline', 'pkg/shapes.py']);
    assert.equal(outline.code, 0, outline.stderr);
    assert.match(outline.stdout, /^ {2}pkg\/shapes\.py\/class\[Shape\]\/getter\[name\] {2}54-57 {2}getter$/m);
    const context = await scalpel(root, ['context', 'pkg/shapes.py', '--focus', 'class[Shape]/method[fetch]']);
    assert.equal(context.code, 0, context.stderr);
    assert.match(context.stdout, /# @ pkg\/shapes\.py\/class\[Shape\]\/method\[fetch\]\n {4}async def fetch/);
  });

  void test('apply writes a verified edit and refuses one that does not parse', async () => {
    const root = workspace();
    const ops = [
      'REPLACE_ELEMENT pkg/shapes.py/class[Square]/method[area]',
      '```python',
      'def area(self, side: float) -> float:',
      '    return side ** 2',
      '```',
      'ADD_IMPORT pkg/shapes.py',
      '```python',
      'import math',
      '```',
    ].join('\n');
    writeFileSync(join(root, 'ops.txt'), ops);
    const applied = await scalpel(root, ['apply', 'ops.txt']);
    assert.equal(applied.code, 0, applied.stderr);
    const after = readFileSync(join(root, 'pkg', 'shapes.py'), 'utf8');
    assert.match(after, /\n {4}def area\(self, side: float\) -> float:\n {8}return side \*\* 2\n/);
    assert.match(after, /\)\nimport math\n/);

    writeFileSync(join(root, 'bad.txt'), ops.replace('    return side ** 2', 'return side ** 2 +'));
    const refused = await scalpel(root, ['apply', 'bad.txt']);
    assert.equal(refused.code, 1);
    assert.equal(readFileSync(join(root, 'pkg', 'shapes.py'), 'utf8'), after);
  });

  void test('the built CLI finds its grammar beside the bundle', async () => {
    const root = workspace();
    const run = await scalpelProcess(root, ['outline', 'pkg/shapes.py', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout) as { elements: Array<{ path: string }> };
    assert.ok(json.elements.some((e) => e.path === 'pkg/shapes.py/class[Square]'));
  });
});
