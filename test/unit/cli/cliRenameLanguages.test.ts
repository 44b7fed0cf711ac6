import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import { scripted } from '../../support/llmServer';
import { PYTHON_PROJECT, RENAME_PROJECTS, type RenameProject } from '../../support/renameProjects';
import { useScriptedModel } from '../../support/scriptedModel';
import { tempWorkspace } from '../../support/tempWorkspace';
import { scalpel } from './runScalpel';

// Issue 27's RENAME_ELEMENT for the languages read with tree-sitter, through `scalpel edit` in-process: the scripted
// model answers over real HTTP with one RENAME_ELEMENT, the reference search finds the places in real files (the two
// calling files were never shown to the model), the language's checker checks the batch where it is installed.

interface RenameJson {
  readonly ok: boolean;
  readonly results: readonly {
    readonly type: string;
    readonly status: string;
    readonly message?: string;
    readonly rename?: {
      readonly renamedTo: string;
      readonly places: number;
      readonly files: readonly string[];
      readonly byName: readonly { file: string; line: number; code: string }[];
      readonly untouched: readonly { file: string; line: number; in: string; code: string }[];
    };
  }[];
  readonly typeCheck?: { readonly checks: readonly { language: string; checker?: { name: string }; note?: string }[] };
  readonly newTypeErrors?: unknown;
}

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

/** Why the project's checker cannot run here, or false when it can (pyright is bundled). */
function checkerMissing(project: RenameProject): string | false {
  if (project.checker === undefined || project.checker === 'pyright') return false;
  return findExecutable(project.checker) === undefined ? `${project.checker} is not on PATH` : false;
}

const declaringFile = (project: RenameProject): string => project.method.replace(/\/(class|impl|method)\[.*$/, '');

void describe('scalpel edit: RENAME_ELEMENT in Python, Go, Rust, Java and C#', () => {
  const llm = useScriptedModel();

  for (const project of RENAME_PROJECTS) {
    void test(`${project.language}: renames the method in three files, marks the by-name places, leaves the string`, async () => {
      const root = tempWorkspace(`scalpel-rename-op-${project.language}-`, project.files);
      const file = declaringFile(project);
      llm.server.enqueue(scripted.answer(`RENAME_ELEMENT ${project.method} ${project.newName}`));
      const from = llm.server.requests.length;
      const run = await scalpel(root, ['edit', file, '-m', 'rename the method', '--repair-rounds', '0', '--json'], {
        env: llm.cliEnv,
      });

      assert.equal(run.code, 0, `${run.stderr}\n${run.stdout}`);
      assert.equal(llm.server.requests.length - from, 1);
      for (const [path, text] of Object.entries(project.files))
        assert.equal(read(root, path), project.renamed[path] ?? text, path);
      const json = JSON.parse(run.stdout) as RenameJson;
      const [result] = json.results;
      assert.equal(result?.status, 'ok', result?.message);
      assert.equal(
        result?.message?.startsWith(
          `renamed in ${project.places} places in 3 files; ${project.places - project.byName} resolved, ${project.byName} tied by name only (check they mean it: ${project.byNamePlaces.join(', ')})`,
        ),
        true,
        result?.message,
      );
      assert.equal(result?.rename?.places, project.places);
      assert.deepEqual(
        result?.rename?.byName.map((p) => `${p.file}:${p.line}`),
        project.byNamePlaces,
      );
      // Listed as the written files read.
      for (const place of result?.rename?.byName ?? [])
        assert.equal(read(root, place.file).split('\n')[place.line - 1]?.trim(), place.code, place.file);
      assert.deepEqual(
        result?.rename?.untouched.map((u) => [`${u.file}:${u.line}`, u.in]),
        [[project.stringAt, 'string']],
      );
      assert.equal(json.newTypeErrors, undefined, 'no new type error');
      const checks = json.typeCheck?.checks ?? [];
      const missing = checkerMissing(project);
      if (project.checker !== undefined && missing === false) {
        assert.equal(checks.length, 1, JSON.stringify(json.typeCheck));
        assert.equal(checks[0]?.note, undefined, `the checker ran: ${JSON.stringify(checks[0])}`);
        assert.match(
          checks[0]?.checker?.name ?? '',
          new RegExp(project.checker === 'go' ? 'go' : project.checker, 'i'),
        );
      }
    });
  }

  void test('Python: a by-name place that means another class fails pyright, and no file is written', async () => {
    const files = {
      ...PYTHON_PROJECT.files,
      'shop/order.py':
        'class Order:\n    def total(self) -> int:\n        return 0\n\n\ndef billed(order: Order) -> int:\n    return order.total()\n',
    };
    const root = tempWorkspace('scalpel-rename-op-py-broken-', files);
    llm.server.enqueue(scripted.answer(`RENAME_ELEMENT ${PYTHON_PROJECT.method} grand_total`));
    const run = await scalpel(root, ['edit', 'shop/cart.py', '-m', 'rename total', '--repair-rounds', '0'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /shop\/order\.py/);
    for (const [path, text] of Object.entries(files)) assert.equal(read(root, path), text, path);
  });

  void test("Python: a method's override in a subclass in another file is renamed with it", async () => {
    const files = {
      ...PYTHON_PROJECT.files,
      'shop/gift.py':
        'from shop.cart import Cart\n\n\nclass GiftCart(Cart):\n    def total(self) -> int:\n        return 0\n',
    };
    const root = tempWorkspace('scalpel-rename-op-py-override-', files);
    llm.server.enqueue(scripted.answer(`RENAME_ELEMENT ${PYTHON_PROJECT.method} grand_total`));
    const run = await scalpel(root, ['edit', 'shop/cart.py', '-m', 'rename total', '--repair-rounds', '0', '--json'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 0, `${run.stderr}\n${run.stdout}`);
    assert.equal(read(root, 'shop/gift.py'), files['shop/gift.py'].replace('def total(', 'def grand_total('));
    const [result] = (JSON.parse(run.stdout) as RenameJson).results;
    assert.match(result?.message ?? '', /^renamed in 7 places in 4 files; 4 resolved, 3 tied by name only/);
    assert.deepEqual(result?.rename?.files, ['shop/audit.py', 'shop/cart.py', 'shop/checkout.py', 'shop/gift.py']);
  });

  void test('a name declared beside the method is refused, and no file is written', async () => {
    const root = tempWorkspace('scalpel-rename-op-py-taken-', PYTHON_PROJECT.files);
    llm.server.enqueue(scripted.answer(`RENAME_ELEMENT ${PYTHON_PROJECT.method} report`));
    const run = await scalpel(root, ['edit', 'shop/cart.py', '-m', 'rename total', '--repair-rounds', '0'], {
      env: llm.cliEnv,
    });

    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /report is already declared where .*method\[total\] is \(shop\/cart\.py:8: def report/);
    for (const [path, text] of Object.entries(PYTHON_PROJECT.files)) assert.equal(read(root, path), text, path);
  });
});
