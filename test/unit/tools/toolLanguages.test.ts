import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { call, repoRoot, tableRows, toolEnv } from './toolSupport';

/**
 * The agent tools (the same ones the MCP server and VS Code's language-model tools serve) on the tree-sitter
 * languages: outline, find_symbols, context and apply work as on TypeScript; references and callers come from the
 * name search resolved through the syntax (and say so); callees and call chains, which need TypeScript's language
 * service, say so; diagnostics check those files' syntax and say the type check was not run.
 */

function languagesWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-tool-langs-'));
  for (const language of ['python', 'go', 'rust', 'java', 'csharp']) {
    const dir = join(repoRoot, 'test', 'unit', 'language', language, 'fixtures');
    for (const file of readdirSync(dir)) cpSync(join(dir, file), join(root, 'src', file));
  }
  return root;
}

void describe('agent tools on Python, Go, Rust, Java and C# files', () => {
  const root = languagesWorkspace();
  const env = toolEnv(root);

  void test('a folder outline lists the files of every language', async () => {
    const run = await call(env, 'outline', { paths: ['src'], signatures: false });
    assert.equal(run.isError, false, run.text);
    assert.deepEqual(
      run.text.split('\n').filter((l) => l.startsWith('## ')),
      [
        '## src/HardCases.cs',
        '## src/HardCases.java',
        '## src/hard_cases.go',
        '## src/hard_cases.py',
        '## src/hard_cases.rs',
      ],
    );
    assert.match(run.text, /^44-47 method\[\(\*Square\)\.Scale\]$/m);
    assert.match(run.text, /^31-39 impl\[Point\]$/m);
  });

  void test('a Python outline shows decorators in front of signatures, and no comment after the colon', async () => {
    const run = await call(env, 'outline', { paths: ['src/hard_cases.py'] });
    assert.match(run.text, /^ 54-57 getter\[name\] @property def name\(self\) -> str$/m);
    assert.match(run.text, /^32-34 function\[parse\]#3 def parse\(value: Any\) -> Any$/m);
  });

  void test('find_symbols and context reach elements of every language', async () => {
    const byName = await call(env, 'find_symbols', { name: 'scale' });
    assert.deepEqual(tableRows(byName.text), [
      '11 namespace[Shapes]/class[Square]/property[side,scale]',
      '35 namespace[Shapes]/class[Square]/method[Scale]#1',
      '37 namespace[Shapes]/class[Square]/method[Scale]#2',
      '29-32 class[HardCases]/method[scale]#1',
      '34-36 class[HardCases]/method[scale]#2',
      '44-47 method[(*Square).Scale]',
    ]);
    const context = await call(env, 'context', { focus: ['src/hard_cases.go/method[(*Square).Scale]'] });
    assert.equal(context.isError, false, context.text);
    assert.match(
      context.text,
      /\/\/ @ src\/hard_cases\.go\/method\[\(\*Square\)\.Scale\]\n\/\/ Scale scales in place.*\nfunc \(s \*Square\) Scale/,
    );
  });

  void test('apply writes a verified Rust edit; a broken one changes nothing', async () => {
    const file = join(root, 'src', 'hard_cases.rs');
    const before = readFileSync(file, 'utf8');
    const operations = (body: string): string =>
      ['REPLACE_ELEMENT src/hard_cases.rs/impl[Point]/method[norm]', '```rust', body, '```'].join('\n');
    const bad = await call(env, 'apply', { operations: operations('pub fn norm(&self) -> f64 {\n    self.x +\n}') });
    assert.equal(bad.isError, true, bad.text);
    assert.equal(readFileSync(file, 'utf8'), before);
    const good = await call(env, 'apply', {
      operations: operations('pub fn norm(&self) -> f64 {\n    self.x.hypot(self.y)\n}'),
    });
    assert.equal(good.isError, false, good.text);
    assert.match(
      readFileSync(file, 'utf8'),
      /\n {4}pub fn norm\(&self\) -> f64 \{\n {8}self\.x\.hypot\(self\.y\)\n {4}\}\n/,
    );
  });

  void test('references answer in every language, said to be by name; call chains say they are TypeScript only', async () => {
    const unused = await call(env, 'references', { path: 'src/hard_cases.py/class[Square]/method[area]' });
    assert.equal(unused.isError, false, unused.text);
    assert.match(unused.text, /^references of src\/hard_cases\.py\/class\[Square\]\/method\[area\]: 0 in 0 files$/m);
    assert.match(unused.text, /^searched by name in code, outside comments and strings$/m);
    const used = await call(env, 'references', { path: 'src/hard_cases.py/function[parse]#3' });
    assert.match(used.text, /^\d+ statement\[if\] call print\(parse\(1\)\)$/m);
    const callers = await call(env, 'references', { path: 'src/hard_cases.go/function[New]', relation: 'callers' });
    assert.equal(callers.isError, false, callers.text);
    // `errors.New("empty")` is the errors package's New, not this one.
    assert.match(callers.text, /^callers of src\/hard_cases\.go\/function\[New\]: 0 elements, 0 calls in 0 files$/m);
    const callees = await call(env, 'references', { path: 'src/hard_cases.go/function[New]', relation: 'callees' });
    assert.match(callees.text, /callees are followed in .* src\/hard_cases\.go is Go/);
    const chain = await call(env, 'find_path', {
      from: 'src/HardCases.java/class[HardCases]/method[run]',
      to: 'src/HardCases.java/class[Base]',
    });
    assert.equal(chain.isError, true);
    assert.match(chain.text, /call chains are followed in .* is Java/);
  });

  void test('diagnostics check the syntax of other languages and say the type check is TypeScript only', async () => {
    const clean = await call(env, 'diagnostics', { paths: ['src/HardCases.cs', 'src/hard_cases.go'] });
    assert.equal(clean.isError, false, clean.text);
    assert.match(
      clean.text,
      /^diagnostics of 2 files: 0 errors, 0 others \(2 files of C#, Go checked for syntax only: the type check is TypeScript's\)$/m,
    );
    writeFileSync(join(root, 'src', 'broken.py'), 'def ok():\n    return 1\n\n\ndef bad(:\n    pass\n');
    const broken = await call(env, 'diagnostics', { paths: ['src/broken.py'] });
    assert.match(
      broken.text,
      /^diagnostics of 1 file: \d+ errors, 0 others \(1 file of Python checked for syntax only/m,
    );
    assert.match(broken.text, /^5:\d+ syntax /m);
  });
});
