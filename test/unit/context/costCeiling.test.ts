import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildContext, ContextBudgetError, WHOLE_FILE_ALLOWANCE } from '../../../src/core/context/buildContext';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { outlineSource } from '../../../src/core/elements/outline';

// Issue 28, never above whole + 10%: no file's view, its appendix (the references) included, costs more than the file
// sent whole plus a tenth; and a focus over the budget is shown in part before the budget is said to be too small.

const counter = createTokenCounter();

const helper = (i: number): string => `export function helper${i}(x: number): number {\n  return x + ${i};\n}\n`;
const SMALL = `${Array.from({ length: 20 }, (_, i) => helper(i)).join('\n')}`;
const CALLERS = [
  'References to src/small.ts/function[helper3] (40 in 8 files):',
  ...Array.from({ length: 8 }, (_, f) => [
    `src/users/user${f}.ts:`,
    ...Array.from({ length: 5 }, (_, i) => `- function[use${i}]: const value${i} = helper3(${f * 10 + i}) + offset;`),
  ]).flat(),
].join('\n');

void describe('never above whole + 10%', () => {
  const outline = outlineSource('src/small.ts', SMALL);

  void test('a small file with a long appendix: the appendix is cut where the view reaches whole + 10%', () => {
    const context = buildContext([{ outline, focus: ['src/small.ts/function[helper3]'], appendix: CALLERS }], counter, {
      smallFileLines: 10,
    });
    assert.ok(
      context.tokens <= Math.floor(context.wholeFileTokens * (1 + WHOLE_FILE_ALLOWANCE)) + 20,
      `${context.tokens} tokens against ${context.wholeFileTokens} whole`,
    );
    assert.match(
      context.text,
      /References to src\/small\.ts\/function\[helper3\] \(40 in 8 files\):\nsrc\/users\/user0\.ts:\n- /,
    );
    assert.match(
      context.text,
      /\(… \d+ more lines left out to keep this file's view within its whole size: FIND lists them\)/,
    );
    assert.ok(!/:\n\(…/.test(context.text), 'a file heading always has a line under it');
  });

  void test('a file sent whole keeps at most a tenth of its size of appendix', () => {
    const whole = buildContext([{ outline, focus: [], whole: true, appendix: CALLERS }], counter);
    assert.equal(whole.files[0]?.mode, 'whole');
    assert.ok(whole.tokens <= Math.floor(whole.wholeFileTokens * (1 + WHOLE_FILE_ALLOWANCE)) + 20, `${whole.tokens}`);
  });

  void test('a view that would cost as much as the file sends the file whole', () => {
    const context = buildContext(
      [{ outline, focus: Array.from({ length: 20 }, (_, i) => `src/small.ts/function[helper${i}]`) }],
      counter,
      { smallFileLines: 10 },
    );
    assert.equal(context.files[0]?.mode, 'whole');
  });
});

void describe('a focus over the budget', () => {
  const method = (name: string): string =>
    `  ${name}(): number {\n${Array.from({ length: 30 }, (_, i) => `    this.total += ${i} * this.${name}Rate;`).join('\n')}\n    return this.total;\n  }`;
  const BIG = `export class Ledger {\n  total = 0;\n\n${['open', 'post', 'close', 'audit', 'print', 'export'].map(method).join('\n\n')}\n}\n\nexport function make(): Ledger {\n  return new Ledger();\n}\n`;
  const outline = outlineSource('src/ledger.ts', BIG);

  void test('a focused container over the budget shows its members by signature, not an error', () => {
    const context = buildContext([{ outline, focus: ['src/ledger.ts/class[Ledger]'] }], counter, { budget: 300 });
    assert.ok(context.tokens <= 300, `${context.tokens}`);
    assert.deepEqual(context.shownInPart, ['src/ledger.ts/class[Ledger]']);
    assert.ok(context.text.includes('export class Ledger {'));
    assert.ok(context.text.includes('post(): number { … } // @ method[post]'), context.text);
    assert.ok(!context.text.includes('this.postRate'));
  });

  void test('a long focused member over the budget shows its head and last line, marked', () => {
    const context = buildContext([{ outline, focus: ['src/ledger.ts/class[Ledger]/method[audit]'] }], counter, {
      budget: 200,
    });
    assert.ok(context.tokens <= 200, `${context.tokens}`);
    assert.ok(context.text.includes('  audit(): number {\n'), context.text);
    assert.match(context.text, /\/\/ … lines \d+-\d+ not shown\n/);
    assert.equal(context.elements.find((e) => e.path === 'src/ledger.ts/class[Ledger]/method[audit]')?.level, 'window');
  });

  void test('only a budget too small for even that is an error, and it says what was tried', () => {
    assert.throws(
      () => buildContext([{ outline, focus: ['src/ledger.ts/class[Ledger]/method[audit]'] }], counter, { budget: 20 }),
      (error: unknown) => error instanceof ContextBudgetError && /long elements shown as windows/.test(error.message),
    );
  });
});
