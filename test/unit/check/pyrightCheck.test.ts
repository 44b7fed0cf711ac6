import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { describeTypeErrors, TypeCheckService, type ProposedFileChange } from '../../../src/core/check/typeCheck';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';

/** A real workspace on disk, checked by the real pyright (the npm dependency) through its language server. */
function workspace(files: Record<string, string>): { root: string; service: TypeCheckService; graph: CodeGraph } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-pyright-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root));
  return { root, service: new TypeCheckService(graph), graph };
}

/** Every file under a folder with its bytes: what a check must leave exactly as it was. */
function snapshotOf(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else found.set(`${prefix}${entry.name}`, readFileSync(join(dir, entry.name), 'latin1'));
    }
  };
  walk(root, '');
  return found;
}

const HELPERS = `def greet(name: str) -> str:
    return "Hello, " + name


def shout(name: str) -> str:
    return greet(name).upper()
`;

const APP = `import requests_that_are_not_installed
from pkg.helpers import greet


def main() -> None:
    print(greet("Ada"))
    broken: int = "already wrong"
`;

function change(root: string, file: string, edit: (text: string) => string | undefined): ProposedFileChange {
  const text = readFileSync(join(root, file), 'utf8');
  return { file, before: text, after: edit(text) };
}

void describe('the Python check with pyright', () => {
  const { root, service, graph } = workspace({
    'pkg/__init__.py': '',
    'pkg/helpers.py': HELPERS,
    'app/__init__.py': '',
    'app/main.py': APP,
    'app/unrelated.py': 'def alone() -> int:\n    return 1\n',
  });
  before(async () => loadAllLanguages());
  after(() => {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test('a required parameter added to a function called from a sibling module: the caller is named', async () => {
    const disk = snapshotOf(root);
    const result = await service.check([
      change(root, 'pkg/helpers.py', (t) =>
        t.replace('def greet(name: str) -> str:', 'def greet(name: str, punctuation: str) -> str:'),
      ),
    ]);
    const described = describeTypeErrors(result.newErrors);
    // Both callers break: shout in the changed file, main in its importer.
    assert.deepEqual(result.newErrors.map((e) => `${e.file} ${e.code}`).sort(), [
      'app/main.py reportCallIssue',
      'pkg/helpers.py reportCallIssue',
    ]);
    assert.match(
      described,
      /app\/main\.py\/function\[main\]: reportCallIssue Argument missing for parameter "punctuation"/,
    );
    assert.equal(result.newErrors[0]?.checker, 'pyright');
    assert.equal(result.checker?.name, 'pyright');
    assert.equal(result.checks[0]?.language, 'Python');
    assert.ok(result.checkedFiles.includes('app/main.py'), 'the importer was checked');
    assert.ok(!result.checkedFiles.includes('app/unrelated.py'), 'a file that does not import it was not');
    // The old error of app/main.py and its import of a package that is not installed are not the batch's.
    assert.equal(result.environmentErrors.length, 0);
    assert.deepEqual(snapshotOf(root), disk, 'the check wrote nothing in the workspace');
  });

  void test('the same change with its callers updated passes', async () => {
    const helpers = change(root, 'pkg/helpers.py', (t) =>
      t
        .replace('def greet(name: str) -> str:', 'def greet(name: str, punctuation: str) -> str:')
        .replace('return greet(name).upper()', 'return greet(name, "!").upper()'),
    );
    const main = change(root, 'app/main.py', (t) => t.replace('greet("Ada")', 'greet("Ada", "!")'));
    const result = await service.check([helpers, main]);
    assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
  });

  void test('an import of a package that is not installed is the environment, not the edit', async () => {
    const result = await service.check([
      change(root, 'app/unrelated.py', (t) => `import yaml_is_not_installed_here\n\n${t}`),
    ]);
    assert.deepEqual(result.newErrors, []);
    assert.equal(result.environmentErrors.length, 1);
    assert.match(result.environmentErrors[0]?.reason ?? '', /yaml_is_not_installed_here is not installed/);
    // A workspace module that does not exist is the edit's.
    const broken = await service.check([change(root, 'app/unrelated.py', (t) => `from pkg import nothing_here\n${t}`)]);
    assert.equal(broken.newErrors.length, 1, describeTypeErrors(broken.newErrors));
  });

  void test('a module the batch creates is seen by the files that import it', async () => {
    const disk = snapshotOf(root);
    const created: ProposedFileChange = {
      file: 'pkg/fresh.py',
      before: undefined,
      after: 'def fresh(count: int) -> int:\n    return count\n',
    };
    const ok = await service.check([
      created,
      change(root, 'app/unrelated.py', (t) => `from pkg.fresh import fresh\n\n${t}\n\nVALUE = fresh(1)\n`),
    ]);
    assert.deepEqual(ok.newErrors, [], describeTypeErrors(ok.newErrors));
    const wrong = await service.check([
      created,
      change(root, 'app/unrelated.py', (t) => `from pkg.fresh import fresh\n\n${t}\n\nVALUE = fresh("one")\n`),
    ]);
    assert.deepEqual(
      wrong.newErrors.map((e) => e.code),
      ['reportArgumentType'],
      describeTypeErrors(wrong.newErrors),
    );
    assert.deepEqual(snapshotOf(root), disk);
  });

  void test('a module the batch deletes breaks the files that import it, and a later check sees it again', async () => {
    const disk = snapshotOf(root);
    const helpers = readFileSync(join(root, 'pkg/helpers.py'), 'utf8');
    const deleted = await service.check([{ file: 'pkg/helpers.py', before: helpers, after: undefined }]);
    assert.deepEqual(
      deleted.newErrors.map((e) => `${e.file} ${e.code}`),
      ['app/main.py reportMissingImports'],
      describeTypeErrors(deleted.newErrors),
    );
    assert.deepEqual(snapshotOf(root), disk);
    // The shadow shows the module again: a change that needs it passes.
    const after = await service.check([
      change(root, 'app/unrelated.py', (t) => `from pkg.helpers import shout\n\n${t}`),
    ]);
    assert.deepEqual(after.newErrors, [], describeTypeErrors(after.newErrors));
  });

  void test('more copies of an error the file already had are not new', async () => {
    const result = await service.check([
      change(root, 'app/main.py', (t) => `${t}    also_broken: int = "already wrong"\n`),
    ]);
    // Same rule, same message as the line already there.
    assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
  });

  void test('a file changed on disk between checks is read again', async () => {
    writeFileSync(join(root, 'pkg/helpers.py'), `${HELPERS}\n\ndef extra(n: int) -> int:\n    return n\n`);
    const result = await service.check([
      change(root, 'app/unrelated.py', (t) => `from pkg.helpers import extra\n\n${t}\n\nX = extra("no")\n`),
    ]);
    assert.deepEqual(
      result.newErrors.map((e) => e.code),
      ['reportArgumentType'],
      describeTypeErrors(result.newErrors),
    );
    writeFileSync(join(root, 'pkg/helpers.py'), HELPERS);
  });
});

void describe("the project's pyright configuration", () => {
  const { root, service, graph } = workspace({
    'pyrightconfig.json': JSON.stringify({ reportCallIssue: 'none' }),
    'lib/__init__.py': '',
    'lib/core.py': 'def run(task: str) -> str:\n    return task\n',
    'lib/use.py': 'from lib.core import run\n\nRESULT = run("x")\n',
  });
  before(async () => loadAllLanguages());
  after(() => {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test('a rule the project turns off is not reported', async () => {
    const result = await service.check([
      change(root, 'lib/core.py', (t) => t.replace('def run(task: str)', 'def run(task: str, retries: int)')),
    ]);
    assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
    assert.deepEqual(result.checkedFiles, ['lib/core.py', 'lib/use.py']);
  });
});
