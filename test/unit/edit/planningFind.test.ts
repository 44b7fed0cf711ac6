import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { runEdit } from '../../../src/core/llm/pipeline';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 28: a planning FIND is answered without sending the outline again (a 164-token answer cost 3,661 tokens with
// it); the NEED lines given before the FIND are kept.

const FILE = 'src/orders.ts';
const TEXT = Array.from(
  { length: 40 },
  (_, i) =>
    `export function order${i}(id: string, quantity: number): string {\n  const line = \`\${id} x \${quantity}\`;\n  return line.padEnd(${20 + i});\n}\n`,
).join('\n');

void describe('planning FIND', () => {
  const llm = useScriptedModel();

  void test('the answer to a planning FIND comes without the outline again, and earlier NEED lines stand', async () => {
    llm.server.enqueue(
      scripted.answer(`NEED ${FILE}/function[order3]\nFIND padEnd`),
      scripted.answer(`NEED ${FILE}/function[order7]`),
      scripted.answer('No change is needed.'),
    );
    const before = llm.server.requests.length;
    const outcome = await runEdit({
      instruction: 'pad the order lines less',
      files: [{ path: FILE, focus: [] }],
      snapshot: { read: (path) => (path === FILE ? TEXT : undefined) },
      provider: llm.provider(),
      counter: createTokenCounter(),
      options: { planning: 'always', repairRounds: 0 },
    });
    const first = llm.userMessageOf(before);
    const second = llm.messagesOf(before + 1);
    assert.ok(
      first.includes(`${FILE}/function[order12]  export function order12(`),
      'the first request has the outline',
    );
    const resent = second.map((m) => m.content).join('\n');
    assert.ok(!resent.includes('function[order12]  export function order12('), resent);
    assert.match(resent, /The outlines of src\/orders\.ts \(\d+ lines\) were shown in your first request/);
    assert.match(resent, /^FIND padEnd: /m);
    assert.match(resent, /the NEED lines you gave are kept/);
    assert.deepEqual(outcome.plan, [`${FILE}/function[order3]`, `${FILE}/function[order7]`]);
  });
});
