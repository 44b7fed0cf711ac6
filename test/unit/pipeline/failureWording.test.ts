import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { runEdit } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, INSTRUCTION, snapshot, VALIDATE } from './validateEdit';

// Issue 14 item 7: a failure names its operation once, in what the user reads and in what goes back to the model.

const LAZY = [
  `REPLACE_ELEMENT ${VALIDATE}`,
  '```ts',
  'validate(input: string): boolean {',
  '  // ... existing code ...',
  '}',
  '```',
].join('\n');

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

void describe('failure wording', () => {
  const llm = useScriptedModel();

  void test('a placeholder refusal names the operation once in the repair prompt and in the failure', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(LAZY), scripted.answer(LAZY));
    const outcome = await runEdit({
      instruction: INSTRUCTION,
      files: [{ path: FILE, focus: [VALIDATE] }],
      snapshot,
      provider: llm.provider(),
      counter: createTokenCounter(),
      options: { repairRounds: 1 },
    });
    assert.equal(outcome.ok, false);
    const repair = (llm.server.requests[before + 1]?.body?.messages ?? []).at(-1);
    const line = String(repair?.content ?? '')
      .split('\n')
      .find((l) => l.startsWith('- FAILED'));
    assert.equal(line?.startsWith(`- FAILED REPLACE_ELEMENT ${VALIDATE}: the content holds a placeholder`), true, line);
    assert.equal(occurrences(line ?? '', 'REPLACE_ELEMENT'), 1, line);
    assert.match(outcome.failure ?? '', /placeholder instead of code/);
    assert.equal(occurrences(outcome.failure ?? '', 'REPLACE_ELEMENT'), 1, outcome.failure);
  });
});
