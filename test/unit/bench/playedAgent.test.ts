import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { runPlayedTask } from '../../../bench/playedAgent';
import {
  copyWorkspace,
  removeWorkspace,
  type Repository,
  sourceFiles,
  TypeCheckOracle,
} from '../../../bench/playedPlayers';
import { addParameterTask } from '../../../bench/playedTasks';
import { findRepoRootOrThrow } from '../../../bench/workspacePaths';

// One task of the played-agent bench (npm run bench:agent) on a three-file fixture, both agents end to end: the
// tools through runTool with the MCP server's writer, ripgrep, the reads, the edits and TypeScript's check. A change
// to a tool's answer that the scripts no longer read, or to the checks, fails here instead of in the next bench run.

const repo: Repository = {
  name: 'fixture',
  packageDir: join(findRepoRootOrThrow(), 'test', 'unit', 'bench', 'fixtures', 'played'),
  excluded: () => false,
};

const task = addParameterTask({
  id: 'fixture-param-roundAmount',
  goal: 'roundAmount takes the number of digits as a second parameter; every caller passes 2.',
  name: 'roundAmount',
  declaration: [
    {
      search: 'export function roundAmount(value: number): number {\n  return Math.round(value * 100) / 100;',
      replace:
        'export function roundAmount(value: number, digits: number): number {\n  const scale = 10 ** digits;\n  return Math.round(value * scale) / scale;',
    },
  ],
  argumentFor: () => '2',
  argumentCount: 2,
});

void describe('played-agent bench', () => {
  const pristine = copyWorkspace(repo);
  const oracle = new TypeCheckOracle(pristine, repo.excluded);
  after(() => removeWorkspace(pristine));

  void test('a parameter added with its callers: both agents correct, their calls and tokens counted', async () => {
    const counter = createTokenCounter();
    const result = await runPlayedTask(task, repo, pristine, oracle, counter);
    assert.deepEqual(result.scalpel.problems, []);
    assert.deepEqual(result.grep.problems, []);
    // Scalpel: find the function with its body, its references, read the caller whose call spans lines, one apply.
    assert.deepEqual(Object.fromEntries(Object.entries(result.scalpel.perTool).map(([tool, v]) => [tool, v.calls])), {
      find_symbols: 1,
      context: 1,
      references: 1,
      apply: 1,
    });
    // grep: one search, the declaration read, the multi-line call read, one edit per file.
    assert.deepEqual(Object.fromEntries(Object.entries(result.grep.perTool).map(([tool, v]) => [tool, v.calls])), {
      grep: 1,
      read: 2,
      edit: 3,
    });
    for (const arm of [result.scalpel, result.grep]) {
      const tools = Object.values(arm.perTool);
      assert.equal(
        arm.read,
        tools.reduce((s, v) => s + v.read, 0),
      );
      assert.equal(
        arm.written,
        tools.reduce((s, v) => s + v.written, 0),
      );
      assert.ok(arm.read > 50 && arm.written > 20, `tokens counted: ${arm.read} read, ${arm.written} written`);
    }
    // The whole-file column: the grep answer and the three files the grep agent read or edited, whole.
    assert.equal(result.wholeFile.files, 3);
    const files = sourceFiles(pristine).reduce((s, f) => s + counter.count(readFileSync(join(pristine, f), 'utf8')), 0);
    const grepAnswer = result.grep.perTool['grep']?.read ?? 0;
    assert.equal(result.wholeFile.read, grepAnswer + files);
  });

  void test("the task's checks catch what is left undone", () => {
    // The untouched copy: every call still has one argument.
    const untouched = task.check(pristine, pristine, []);
    assert.equal(untouched.filter((p) => /a call of roundAmount with 1 arguments/.test(p)).length, 4);
    // A declaration changed without its callers: TypeScript's check reports the callers' errors.
    const broken = copyWorkspace(repo);
    try {
      const money = join(broken, 'src', 'money.ts');
      writeFileSync(money, readFileSync(money, 'utf8').replace('(value: number)', '(value: number, digits: number)'));
      const errors = oracle.newErrors(broken, ['src/money.ts']);
      assert.equal(errors.length, 4, errors.join('\n'));
      assert.ok(errors.every((e) => /TS2554/.test(e)));
    } finally {
      removeWorkspace(broken);
    }
  });
});
