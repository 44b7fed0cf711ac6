import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { answerNotes } from '../../../src/core/edit/answerNotes';
import { createEditService } from '../../../src/core/edit/editService';
import { seenCodeStep } from '../../../src/core/edit/seenCodeStep';
import { runEdit, type EditRequest } from '../../../src/core/llm/pipeline';
import { CODING_SYSTEM_PROMPT, PLANNING_SYSTEM_PROMPT } from '../../../src/core/llm/prompts';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';

// Issue 18, the model's side of the dialogue: NEED answered in edit rounds, FIND, the model's notes kept. Everything
// runs against the scripted model over real HTTP through the real OpenAI client.

const FILE = 'src/store.ts';
/** Enough methods that a focused view of one is cheaper than the whole file (else the file goes whole). */
const REPORTS = [1, 2, 3, 4, 5, 6]
  .map(
    (i) => `
  report${i}(prefix: string): string {
    const lines: string[] = [];
    for (const [key, value] of this.entries()) {
      if (key.startsWith(prefix)) lines.push(\`\${key}=\${value} (${i})\`);
    }
    lines.sort();
    return lines.join('\\n');
  }
`,
  )
  .join('');
const STORE = `export class Store {
  private items = new Map<string, number>();

  get(key: string): number | undefined {
    return this.items.get(key);
  }

  put(key: string, value: number): void {
    this.items.set(key, value);
  }
${REPORTS}
  entries(): IterableIterator<[string, number]> {
    return this.items.entries();
  }
}

export function total(store: Store): number {
  return 0;
}
`;
const GET = `${FILE}/class[Store]/method[get]`;
const PUT = `${FILE}/class[Store]/method[put]`;
const snapshot = { read: (path: string): string | undefined => (path === FILE ? STORE : undefined) };

const NEW_PUT = [
  `REPLACE_ELEMENT ${PUT}`,
  '```ts',
  'put(key: string, value: number): void {',
  '  if (value < 0) throw new Error(`negative value for ${key}`);',
  '  this.items.set(key, value);',
  '}',
  '```',
].join('\n');
const NEW_GET = [
  `PATCH_ELEMENT ${GET}`,
  '```ts',
  '<<<<<<< SEARCH',
  '    return this.items.get(key);',
  '=======',
  '    return this.items.get(key.trim());',
  '>>>>>>> REPLACE',
  '```',
].join('\n');

void describe('the model asks: NEED and FIND in every round, its notes kept', () => {
  const llm = useScriptedModel();

  function request(overrides: Partial<EditRequest> = {}): EditRequest {
    return {
      instruction: 'reject negative values in put',
      files: [{ path: FILE, focus: [GET] }],
      snapshot,
      provider: llm.provider(),
      counter: createTokenCounter(),
      // The file is small: without this it would go whole and there would be nothing to ask for.
      options: { smallFileLines: 1 },
      verificationSteps: [seenCodeStep()],
      ...overrides,
    };
  }

  void test('NEED in an edit round brings the element in full; the replace written from it is then allowed', async () => {
    const before = llm.server.requests.length;
    // The focused view shows put only by its signature; the model asks for it and, meanwhile, writes an operation.
    llm.server.enqueue(scripted.answer(`NEED ${PUT}\n\n${NEW_GET}`), scripted.answer(NEW_PUT));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    const first = llm.messagesOf(before)[1]?.content ?? '';
    assert.ok(!first.includes('this.items.set(key, value);'), "put's body is not in the focused view");
    const followUp = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.ok(
      followUp.includes(`// @ ${PUT}\nput(key: string, value: number): void {\n    this.items.set(key, value);`),
    );
    assert.match(followUp, /The 1 operation of your last answer was not applied: write it again/);
    assert.deepEqual(outcome.rounds[0], {
      phase: 'code',
      needs: [PUT],
      finds: [],
      answered: { setAside: 1, sent: [PUT] },
    });
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['code', 'repair'],
      'the NEED answer is a round of its own',
    );
    // Only the second answer's operations apply: the set-aside PATCH of get is not written.
    assert.deepEqual(
      outcome.operations.map((o) => o.path),
      [PUT],
    );
    const after = outcome.apply.changes[0]?.after ?? '';
    assert.ok(after.includes('if (value < 0) throw new Error'));
    assert.ok(after.includes('return this.items.get(key);'));
    assert.ok(
      outcome.shown.at(-1)?.files.some((f) => f.full.includes(PUT)),
      'the NEED answer is recorded as shown in full',
    );
  });

  void test('without the NEED the same replace is refused by the seen-code rule (the record is what allows it)', async () => {
    llm.server.enqueue(scripted.answer(NEW_PUT), scripted.answer(NEW_PUT));
    const outcome = await runEdit(request({ options: { smallFileLines: 1, repairRounds: 1 } }));
    // The refusal shows put in full, so the second, identical answer is then accepted: the rule worked in round one.
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(
      outcome.requests.map((r) => r.phase),
      ['code', 'repair'],
    );
    assert.equal(outcome.rounds[0]?.answered, undefined);
  });

  void test('a malformed or unknown NEED path and a file outside the request get the nearest valid paths', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(
      scripted.answer(
        `NEED ${FILE}/class[Store/method[put]\nNEED ${FILE}/class[Store]/method[putt]\nNEED src/other.ts`,
      ),
      scripted.answer(NEW_GET),
    );
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    const followUp = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    const lines = followUp.split('\n');
    const after = (needle: string): string => lines[lines.findIndex((l) => l.includes(needle)) + 1] ?? '';
    assert.match(
      after(`NEED ${FILE}/class[Store/method[put]:`),
      /Existing paths nearby: .*class\[Store\]\/method\[put\]/,
    );
    assert.match(
      after(`NEED ${FILE}/class[Store]/method[putt]:`),
      /Existing paths nearby: src\/store\.ts\/class\[Store\]\/method\[put\]/,
    );
    assert.match(followUp, /NEED src\/other\.ts: not a file of this request/);
    assert.deepEqual(outcome.rounds[0]?.answered?.sent, []);
  });

  void test('a NEED over the budget is not sent, and says so with the members to ask for instead', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer(`NEED ${FILE}/class[Store]`), scripted.answer(NEW_GET));
    const outcome = await runEdit(request({ options: { smallFileLines: 1, budget: 250 } }));
    assert.equal(outcome.ok, true, outcome.failure);
    const followUp = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.match(
      followUp,
      /NEED src\/store\.ts\/class\[Store\]: too large to send in full \(\d+ tokens, \d+ left of the budget of 250\)/,
    );
    assert.match(followUp, /NEED the members you need instead: property\[items\] 2, method\[get\] 4-6, method\[put\] 8-10, /);
    assert.match(followUp, /method\[entries\] \d+-\d+$/m, 'every member, the last one too');
    assert.ok(!followUp.includes('this.items.set(key, value);'));
  });

  void test('NEED answers are bounded like repair rounds', async () => {
    llm.server.enqueue(scripted.answer(`NEED ${PUT}`), scripted.answer(`NEED ${PUT}`));
    const outcome = await runEdit(request({ options: { smallFileLines: 1, repairRounds: 1 } }));
    assert.equal(outcome.ok, false);
    assert.equal(outcome.requests.length, 2);
    assert.match(outcome.failure ?? '', /held no operations/);
  });

  void test('FIND in an edit round answers with definitions and uses, without line numbers', async () => {
    const before = llm.server.requests.length;
    llm.server.enqueue(scripted.answer('FIND items'), scripted.answer(NEW_GET));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    const followUp = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.match(followUp, /^FIND items: defined once, 3 lines mention it \(a text search of this request's files\)$/m);
    assert.ok(
      followUp.includes(`- defined: ${FILE}/class[Store]/property[items]  private items = new Map<string, number>()`),
      followUp,
    );
    assert.ok(followUp.includes(`- used in ${PUT}: this.items.set(key, value);`));
    assert.ok(followUp.includes(`- used in ${GET}: return this.items.get(key);`));
    assert.deepEqual(outcome.rounds[0]?.finds, ['items']);
  });

  void test('FIND lines past the limit of one answer are named as not answered', async () => {
    const before = llm.server.requests.length;
    const names = ['items', 'get', 'put', 'entries', 'total', 'report1', 'report2'];
    llm.server.enqueue(scripted.answer(names.map((n) => `FIND ${n}`).join('\n')), scripted.answer(NEW_GET));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    const followUp = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.equal(followUp.match(/^FIND \w+: /gm)?.length, 5);
    assert.match(followUp, /Not answered \(at most 5 FIND lines per answer\): FIND report1, FIND report2/);
  });

  void test("the model's notes are kept, lead-ins and questions left out", async () => {
    const note = 'The callers of put are in total, which is not shown: they may need the check too.';
    llm.server.enqueue(scripted.answer(`Here is the change:\n\n${NEW_GET}\n\n${note}\n`));
    const outcome = await runEdit(request());
    assert.equal(outcome.ok, true, outcome.failure);
    assert.deepEqual(outcome.notes, [note]);
    assert.deepEqual(answerNotes(`NEED ${PUT}\n\`\`\`\n<operations>\n</operations>`), []);
  });
});

void describe('FIND across the workspace (the edit service with a root)', () => {
  const llm = useScriptedModel();
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'scalpel-find-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src', 'query.ts'),
      'export function getQueryParam(url: string, key: string): string | undefined {\n  return new URL(url).searchParams.get(key) ?? undefined;\n}\n',
    );
    writeFileSync(
      join(root, 'src', 'request.ts'),
      "import { getQueryParam } from './query';\n\nexport class HonoRequest {\n  constructor(private readonly url: string) {}\n\n  query(key: string): string | undefined {\n    return getQueryParam(this.url, key);\n  }\n}\n",
    );
    writeFileSync(
      join(root, 'src', 'secret.ts'),
      "import { getQueryParam } from './query';\nexport const token = getQueryParam('x', 'token');\n",
    );
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  void test('planning asks FIND, gets the uses in other files (excluded ones left out), then NEEDs', async () => {
    const before = llm.server.requests.length;
    const query = 'src/query.ts';
    const text = (path: string): string | undefined =>
      path === query
        ? 'export function getQueryParam(url: string, key: string): string | undefined {\n  return new URL(url).searchParams.get(key) ?? undefined;\n}\n'
        : undefined;
    llm.server.enqueue(scripted.answer('FIND getQueryParam'), scripted.answer(`NEED ${query}/function[getQueryParam]`));
    const result = await createEditService({ workspaceRoot: root }).plan({
      instruction: 'decode plus signs in query values',
      files: [{ path: query, focus: [] }],
      snapshot: { read: text },
      provider: llm.provider(),
      command: 'test.plan',
      exclusions: {
        firstExclusion: (paths) =>
          Promise.resolve(paths.includes('src/secret.ts') ? { path: 'src/secret.ts', rule: 'test' } : undefined),
      },
    });
    assert.equal(result.ok, true, result.failure);
    assert.deepEqual(result.plan?.accepted, [`${query}/function[getQueryParam]`]);
    const findAnswer = llm.messagesOf(before + 1).at(-1)?.content ?? '';
    assert.match(findAnswer, /^FIND getQueryParam: defined once, 1 use$/m);
    assert.ok(
      findAnswer.includes(
        '- used in src/request.ts/class[HonoRequest]/method[query]: return getQueryParam(this.url, key);',
      ),
      findAnswer,
    );
    assert.ok(!findAnswer.includes('secret'), 'an excluded file is never quoted');
    assert.match(findAnswer, /src\/request\.ts is not part of this request/);
    assert.deepEqual(
      result.requests.map((r) => r.phase),
      ['plan', 'plan'],
    );
  });
});

void describe('the fixed instructions', () => {
  void test('teach NEED and FIND in both phases and stay within their token budgets', () => {
    const counter = createTokenCounter();
    assert.match(CODING_SYSTEM_PROMPT, /NEED <element or file path>/);
    assert.match(CODING_SYSTEM_PROMPT, /FIND <identifier>/);
    assert.match(PLANNING_SYSTEM_PROMPT, /NEED <element path>/);
    assert.match(PLANNING_SYSTEM_PROMPT, /FIND <identifier>/);
    assert.match(CODING_SYSTEM_PROMPT, /answer only DECLINE: <reason>/, 'a model may decline (issue 24)');
    // Every request pays for these: 557 and 105 tokens before issue 18, which added NEED/FIND to the edit prompt.
    assert.ok(counter.count(CODING_SYSTEM_PROMPT) <= 520, `${counter.count(CODING_SYSTEM_PROMPT)} tokens`);
    assert.ok(counter.count(PLANNING_SYSTEM_PROMPT) <= 100, `${counter.count(PLANNING_SYSTEM_PROMPT)} tokens`);
  });
});
