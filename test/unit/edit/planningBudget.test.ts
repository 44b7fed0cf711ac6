import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { loadLanguagesFor } from '../../../src/core/language/languages';
import { runEdit, type EditRequest } from '../../../src/core/llm/pipeline';
import { csharpTestFile } from '../../support/csharpTestFile';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 26.6: planning never dies on budget. A NEED in the planning round whose code does not fit the context's budget
// is answered with the element's members to NEED instead, as in the edit rounds, instead of the run stopping on a
// context that cannot be built. Against the scripted model over real HTTP, on a C# test file of 73 tests in a block
// namespace (about 1,780 lines).

const FILE = 'tests/WidgetParserTests.cs';
const TEXT = csharpTestFile(73);
const CLASS = `${FILE}/namespace[Acme.Widgets.Tests]/class[WidgetParserTests]`;
const TEST_3 = `${CLASS}/method[Parse_Case3_ReturnsTheExpectedWidget]`;
const snapshot = { read: (path: string): string | undefined => (path === FILE ? TEXT : undefined) };

const PATCH_TEST_3 = [
  `PATCH_ELEMENT ${TEST_3}`,
  '```csharp',
  '<<<<<<< SEARCH',
  '            Assert.True(result.IsValid);',
  '=======',
  '            Assert.True(result.IsValid, "case 3 is valid");',
  '>>>>>>> REPLACE',
  '```',
].join('\n');

void describe('planning over the budget', () => {
  const llm = useScriptedModel();
  before(() => loadLanguagesFor([FILE]));

  function request(budget: number): EditRequest {
    return {
      instruction: 'give the validity assertion of case 3 a message',
      files: [{ path: FILE, focus: [] }],
      snapshot,
      provider: llm.provider(),
      counter: createTokenCounter(),
      options: { budget, planning: 'always' },
    };
  }

  void test('a NEED of a class larger than the budget gets its member list back, and the plan of one member goes on', async () => {
    const first = llm.server.requests.length;
    llm.server.enqueue(
      scripted.answer(`NEED ${CLASS}`),
      scripted.answer(`NEED ${TEST_3}`),
      scripted.answer(PATCH_TEST_3),
    );
    const outcome = await runEdit(request(6_000));
    assert.equal(outcome.ok, true, outcome.failure);
    const followUp = llm.messagesOf(first + 1).at(-1)?.content ?? '';
    assert.match(
      followUp,
      new RegExp(
        `Your NEED lines do not fit the token budget of 6000: the context they make needs \\d+ tokens\\. Not taken:\\n- NEED ${escape(CLASS)}: \\d+ tokens in full; NEED the members you need instead: property\\[_parser\\] 9, method\\[Parse_Case0_ReturnsTheExpectedWidget\\] 11-32, `,
      ),
    );
    assert.match(followUp, /method\[Parse_Case72_ReturnsTheExpectedWidget\] \d+-\d+\n/, 'all 73 members fit the list');
    assert.deepEqual(outcome.plan, [TEST_3], 'the plan is the member the model chose');
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['plan', 'plan', 'code'],
    );
    assert.match(outcome.apply.changes[0]?.after ?? '', /Assert\.True\(result\.IsValid, "case 3 is valid"\);/);
  });

  void test('a model that asks for the class again is not asked a third time: the context then shows it in part', async () => {
    const first = llm.server.requests.length;
    llm.server.enqueue(
      scripted.answer(`NEED ${CLASS}`),
      scripted.answer(`NEED ${CLASS}`),
      scripted.answer(`NEED ${CLASS}`),
      scripted.answer('DECLINE: the test only looks at the context'),
    );
    const outcome = await runEdit(request(6_000));
    assert.equal(outcome.failureKind?.kind === 'budget', false, outcome.failure);
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['plan', 'plan', 'plan', 'code'],
      'two answers sent back, the third taken as it is',
    );
    // Issue 28: a focus over the budget is shown in part (the class's members by signature), not refused.
    const coding = llm.messagesOf(first + 3).at(-1)?.content ?? '';
    assert.match(coding, /Parse_Case3_ReturnsTheExpectedWidget\(\)/);
    assert.ok(!coding.includes('Assert.True(result.IsValid);'), 'the members are not shown in full');
  });

  void test('a plan that fits is taken at once', async () => {
    llm.server.enqueue(scripted.answer(`NEED ${TEST_3}`), scripted.answer(PATCH_TEST_3));
    const outcome = await runEdit(request(6_000));
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['plan', 'code'],
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
