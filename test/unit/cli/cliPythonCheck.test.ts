import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scripted, type RecordedRequest } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';

// Issue 26's "Done when" for Python, through `scalpel edit` in-process: the scripted model answers over real HTTP,
// the real pyright (the npm dependency `npm ci` installs) checks real files. A required parameter added to a function
// that a sibling module calls is refused with the caller named; once the caller is updated, the batch applies.

const HELPERS = 'def greet(name: str) -> str:\n    return "Hello, " + name\n';
const MAIN = 'from pkg.helpers import greet\n\n\ndef main() -> None:\n    print(greet("Ada"))\n';

const GREET_WITH_PUNCTUATION = [
  'REPLACE_ELEMENT pkg/helpers.py/function[greet]',
  '```python',
  'def greet(name: str, punctuation: str) -> str:',
  '    return "Hello, " + name + punctuation',
  '```',
].join('\n');

const MAIN_UPDATED = [
  'REPLACE_ELEMENT pkg/main.py/function[main]',
  '```python',
  'def main() -> None:',
  '    print(greet("Ada", "!"))',
  '```',
].join('\n');

function pythonWorkspace(): string {
  return tempWorkspace('scalpel-pyright-cli-', {
    'pkg/__init__.py': '',
    'pkg/helpers.py': HELPERS,
    'pkg/main.py': MAIN,
  });
}

/** The text of the user messages of one recorded request. */
function userText(request: RecordedRequest | undefined): string {
  return (request?.body?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

void describe('scalpel edit on Python: pyright checks the batch (issue 26)', () => {
  const llm = useScriptedModel();

  void test('a required parameter the caller lacks is refused naming the caller, then applies with the caller updated', async () => {
    const root = pythonWorkspace();
    llm.server.enqueue(scripted.answer(GREET_WITH_PUNCTUATION));
    llm.server.enqueue(scripted.answer(`${GREET_WITH_PUNCTUATION}\n${MAIN_UPDATED}`));
    const from = llm.server.requests.length;
    const run = await scalpel(
      root,
      ['edit', 'pkg/helpers.py', 'pkg/main.py', '-m', 'greet takes the punctuation to end with'],
      { env: llm.cliEnv },
    );

    assert.equal(run.code, 0, run.stderr);
    const requests = llm.server.requests.slice(from);
    assert.equal(requests.length, 2, 'one repair round');
    const repair = userText(requests[1]);
    assert.match(repair, /checked with pyright \d+\.\d+\.\d+/);
    assert.match(
      repair,
      /pkg\/main\.py\/function\[main\]: reportCallIssue Argument missing for parameter "punctuation"/,
    );
    assert.match(readFileSync(join(root, 'pkg', 'helpers.py'), 'utf8'), /def greet\(name: str, punctuation: str\)/);
    assert.match(readFileSync(join(root, 'pkg', 'main.py'), 'utf8'), /greet\("Ada", "!"\)/);
    assert.match(run.stderr, /types checked with pyright \d+\.\d+\.\d+ \(bundled with Scalpel\)/);
  });

  void test('without a repair round the batch is refused, the caller named, and nothing written', async () => {
    const root = pythonWorkspace();
    llm.server.enqueue(scripted.answer(GREET_WITH_PUNCTUATION));
    const run = await scalpel(
      root,
      ['edit', 'pkg/helpers.py', 'pkg/main.py', '-m', 'greet takes the punctuation', '--repair-rounds', '0', '--json'],
      { env: llm.cliEnv },
    );

    assert.equal(run.code, 1, run.stderr);
    const json = JSON.parse(run.stdout) as {
      newTypeErrors?: { file: string; code: string; elementPath?: string; checker?: string }[];
      typeCheck?: { checks?: { language: string; checker?: { name: string } }[] };
    };
    assert.deepEqual(
      (json.newTypeErrors ?? []).map((e) => `${e.elementPath ?? e.file} ${e.code} ${e.checker ?? ''}`),
      ['pkg/main.py/function[main] reportCallIssue pyright'],
    );
    assert.deepEqual(
      (json.typeCheck?.checks ?? []).map((c) => `${c.language}: ${c.checker?.name ?? 'none'}`),
      ['Python: pyright'],
    );
    assert.equal(readFileSync(join(root, 'pkg', 'helpers.py'), 'utf8'), HELPERS);
    assert.equal(readFileSync(join(root, 'pkg', 'main.py'), 'utf8'), MAIN);
  });

  void test('--checker python=off turns pyright off: the batch is verified by its parse, and the output says so', async () => {
    const root = pythonWorkspace();
    llm.server.enqueue(scripted.answer(GREET_WITH_PUNCTUATION));
    const from = llm.server.requests.length;
    const run = await scalpel(
      root,
      ['edit', 'pkg/helpers.py', '-m', 'greet takes the punctuation', '--checker', 'python=off', '--json'],
      { env: llm.cliEnv },
    );

    assert.equal(run.code, 0, run.stderr);
    assert.equal(llm.server.requests.length - from, 1, 'no repair round');
    const json = JSON.parse(run.stdout) as { typeCheck?: { checks?: { language: string; note?: string }[] } };
    assert.deepEqual(json.typeCheck?.checks, [
      { language: 'Python', files: 0, note: 'its checker is turned off (scalpel.checkers, --checker)' },
    ]);
    assert.match(run.stderr, /no type checker for pkg\/helpers\.py \(Python\): it is verified by the parse alone/);
    assert.match(readFileSync(join(root, 'pkg', 'helpers.py'), 'utf8'), /punctuation: str/);
  });

  void test('--checker with an unknown language is a usage error naming the languages', async () => {
    const root = pythonWorkspace();
    const run = await scalpel(root, ['edit', 'pkg/helpers.py', '-m', 'x', '--checker', 'cobol=off'], {
      env: llm.cliEnv,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--checker takes LANG=off, LANG=bundled or LANG=DIR with LANG one of .*python/);
  });
});
