import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outlineSource } from '../../../src/core/elements/outline';
import { focusNote } from '../../../src/core/llm/focusNote';
import { runEdit, type EditRequest } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, HARD, NEW_VALIDATE, VALIDATE, validateRequest } from './validateEdit';

// Issue 14: a file small enough to go whole still says which element the user pointed at.

function linesOf(path: string): string {
  const outline = outlineSource(FILE, HARD);
  const stack = [...outline.elements];
  for (let element = stack.shift(); element !== undefined; element = stack.shift()) {
    if (element.path === path) return `lines ${element.startLine}-${element.endLine}`;
    stack.push(...element.children);
  }
  throw new Error(`${path} is not in the fixture`);
}

void describe('the focus line of the coding prompt', () => {
  const llm = useScriptedModel();

  const request = (overrides: Partial<EditRequest> = {}): EditRequest => validateRequest(llm.provider(), overrides);

  void test('a file sent whole still names the element at the cursor, with its lines, before the task', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const outcome = await runEdit(request({ options: { smallFileLines: 100_000 } }));
    assert.equal(outcome.ok, true, outcome.failure);
    const user = llm.userMessageOf(before);
    assert.match(user, /\(whole file, \d+ lines\)/, 'the file went whole');
    assert.ok(
      user.includes(`\nFocus: ${VALIDATE} (${linesOf(VALIDATE)}), where the user's cursor, selection or reference is`),
      user.slice(-400),
    );
    assert.ok(user.indexOf('Focus: ') < user.indexOf('\nTask: '), 'the focus comes before the task');
  });

  void test('the focused view names it too', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    assert.ok(llm.userMessageOf(before).includes(`Focus: ${VALIDATE} (${linesOf(VALIDATE)})`));
  });

  void test('without a focus (Edit File) there is no focus line, and the plan does not make one', async () => {
    // planning: 'always', since under 'auto' the cost rule sends this small file whole with no planning round.
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(`NEED ${VALIDATE}\n`), scripted.answer(NEW_VALIDATE));
    const outcome = await runEdit(
      request({ files: [{ path: FILE, focus: [] }], options: { smallFileLines: 10, planning: 'always' } }),
    );
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(outcome.plan, [VALIDATE]);
    assert.ok(!llm.userMessageOf(before + 1).includes('Focus: '));
  });

  void test('several elements are listed; a single-line element says "line"; an unknown path is named as given', () => {
    const outline = outlineSource('src/a.ts', 'export const a = 1;\n\nexport function b(): number {\n  return 2;\n}\n');
    assert.equal(
      focusNote([{ outline, focus: ['src/a.ts/const[a]', 'src/a.ts/function[b]', 'src/a.ts/function[zz]'] }]),
      "Focus: src/a.ts/variable[a] (line 1), src/a.ts/function[b] (lines 3-5), src/a.ts/function[zz], where the user's cursor, selection or reference is; the task is about these elements.\n",
    );
    assert.equal(focusNote([{ outline, focus: [] }]), '');
  });
});
