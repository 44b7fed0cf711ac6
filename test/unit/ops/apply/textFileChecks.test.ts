import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyOperations } from '../../../../src/core/ops/apply';
import { parseOperations } from '../../../../src/core/ops/format';
import type { Operation } from '../../../../src/core/ops/operation';

/** Files the element model does not read are still verified for what they are (issue 17, finding 5). */

type Files = Record<string, string>;

function apply(files: Files, operations: readonly Operation[]): ReturnType<typeof applyOperations> {
  return applyOperations({ read: (path) => files[path] }, operations);
}

function refusal(files: Files, operation: Operation): string {
  const result = apply(files, [operation]);
  assert.equal(result.ok, false, `expected ${operation.type} ${operation.path} to be refused`);
  assert.deepEqual(result.changes, []);
  return result.results[0]?.message ?? '';
}

function applied(files: Files, operation: Operation): string {
  const result = apply(files, [operation]);
  assert.equal(result.ok, true, result.results[0]?.message);
  return result.changes[0]?.after ?? '';
}

const create = (path: string, content: string): Operation => ({ type: 'CREATE_FILE', path, content });
const replace = (path: string, content: string): Operation => ({ type: 'REPLACE_FILE', path, content });

void describe('JSON', () => {
  void test('JSON must parse', () => {
    assert.match(refusal({}, create('config/app.json', '{ "port": 80,')), /not valid JSON/);
    assert.match(refusal({}, create('data.json', '{ "a": 1, }')), /not valid JSON/);
    assert.match(refusal({ 'package.json': '{}\n' }, replace('package.json', '{ // deps\n}')), /not valid JSON/);
    assert.equal(applied({}, create('data.json', '{ "a": [1, 2] }')), '{ "a": [1, 2] }\n');
  });

  void test('tsconfig and .vscode files are JSON with comments: comments and trailing commas pass', () => {
    const tsconfig = '{\n  // strict everywhere\n  "compilerOptions": { "strict": true, },\n  /* paths */\n}';
    assert.equal(applied({}, create('tsconfig.json', tsconfig)), `${tsconfig}\n`);
    assert.equal(applied({}, create('packages/a/tsconfig.build.json', tsconfig)), `${tsconfig}\n`);
    assert.equal(applied({}, create('.vscode/settings.json', '{ "a": 1, // on\n}')), '{ "a": 1, // on\n}\n');
    assert.match(refusal({}, create('tsconfig.json', '{ "compilerOptions": { "strict": true }')), /JSON with comments/);
    assert.match(refusal({}, create('.vscode/launch.json', '{ "a": "unclosed }')), /JSON with comments/);
  });

  void test('a file that was broken before may stay broken', () => {
    assert.equal(applied({ 'bad.json': '{ oops' }, replace('bad.json', '{ oops, still')), '{ oops, still');
  });

  void test('comment markers inside strings are text, and a comment cannot hide a broken value', () => {
    const text = '{ "url": "http://x//y", /* c */ "b": [1,], }';
    assert.equal(applied({}, create('tsconfig.json', text)), `${text}\n`);
    assert.match(refusal({}, create('tsconfig.json', '{ "a": /* 1 */ }')), /JSON with comments/);
  });
});

void describe('YAML', () => {
  void test('YAML must parse', () => {
    assert.match(
      refusal({}, create('.github/workflows/ci.yml', 'jobs:\n  test:\n runs-on: [ubuntu\n')),
      /not valid YAML/,
    );
    assert.match(refusal({}, create('config.yaml', 'name: "unclosed\nport: 80\n')), /not valid YAML/);
    assert.match(refusal({}, create('dup.yaml', 'a: 1\na: 2\n')), /not valid YAML/);
    const workflow = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
    assert.equal(applied({}, create('.github/workflows/ci.yml', workflow)), workflow);
    assert.equal(applied({}, create('multi.yaml', 'a: 1\n---\nb: 2\n')), 'a: 1\n---\nb: 2\n');
  });
});

void describe('Markdown', () => {
  void test('Markdown that ends inside a code block is refused', () => {
    const message = refusal({ 'README.md': '# T\n' }, replace('README.md', '# T\n\n```bash\nnpm install\n'));
    assert.match(message, /ends inside the code block opened at line 3/);
  });

  void test('balanced fences, longer fences and tildes pass; a file already unbalanced may stay so', () => {
    const text = '# T\n\n````md\n```\nx\n```\n````\n\n~~~\ny\n~~~';
    assert.equal(applied({ 'README.md': '# T\n' }, replace('README.md', text)), `${text}\n`);
    assert.equal(applied({ 'a.md': '```\nopen\n' }, replace('a.md', '```\nstill open\n')), '```\nstill open\n');
  });

  void test('a README answered with a four-backtick fence is written whole', () => {
    const answer = 'REPLACE_FILE README.md\n````md\n# Title\n\n```\nnpm i\n```\n\nMore.\n````\n';
    const parsed = parseOperations(answer);
    assert.deepEqual(parsed.errors, []);
    assert.equal(
      applied({ 'README.md': '# Old\n' }, parsed.operations[0] as Operation),
      '# Title\n\n```\nnpm i\n```\n\nMore.\n',
    );
  });
});
