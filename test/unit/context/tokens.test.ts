import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as libraryCountCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createTokenCounter, MAX_PIECE_LENGTH } from '../../../src/core/context/tokens';
import { countTokens, estimateChatTokens } from '../../../src/core/llm/tokenEstimate';
import { HARD_CASES } from '../../support/tempWorkspace';

// Issue 25: Scalpel's counter is linear in its input (long pieces counted in slices) and, below the slice length,
// exactly gpt-tokenizer's count. Its speed is measured in bench/tokenCount.ts, as a ratio; here: what it counts.

const PLAIN = { disallowedSpecial: new Set<string>() };

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

void describe('the token counter', () => {
  void test('counts code and prose exactly as gpt-tokenizer does', () => {
    const counter = createTokenCounter();
    const typescript = readFileSync(join(require.resolve('typescript'), '..', 'typescript.js'), 'utf8').slice(
      0,
      400_000,
    );
    for (const text of [HARD_CASES, typescript, 'const a = 1;\n', 'Hello, world! <|endoftext|> is plain text here.']) {
      assert.equal(counter.count(text), libraryCount(text, PLAIN));
    }
    const cl100k = createTokenCounter('cl100k_base');
    assert.equal(cl100k.count(HARD_CASES), libraryCountCl100k(HARD_CASES, PLAIN));
  });

  void test('counts a text around a long run exactly except inside the run, which is off by at most a token a slice', () => {
    const counter = createTokenCounter();
    const seed = Number(process.env['SEED'] ?? Date.now() % 100_000);
    const random = seeded(seed);
    const letters = (n: number): string =>
      Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    for (const run of ['z'.repeat(3_000), letters(2_000), '='.repeat(2_500), ' '.repeat(1_200), '/\n'.repeat(900)]) {
      const text = `export const before = 1;\n// ${run}\nexport function after(): number {\n  return 2;\n}\n`;
      const exact = libraryCount(text, PLAIN);
      const counted = counter.count(text);
      const slices = Math.ceil(run.length / MAX_PIECE_LENGTH);
      assert.ok(
        Math.abs(counted - exact) <= slices + 1,
        `seed ${seed}: ${JSON.stringify(run.slice(0, 12))}… counted ${counted}, exactly ${exact}, ${slices} slices`,
      );
    }
  });

  void test('counts a model stuck repeating one letter for megabytes, and every run length the same way', () => {
    const counter = createTokenCounter();
    // 4 MB of one letter: gpt-tokenizer alone would take hours (quadratic in one piece).
    const stuck = 'z'.repeat(4_000_000);
    const tokens = counter.count(stuck);
    assert.ok(tokens > 4_000_000 / 16 && tokens < 4_000_000, `${tokens} tokens`);
    // Linear: twice the run, twice the tokens (to the slice), since every slice counts alike.
    assert.equal(
      counter.count('z'.repeat(2 * MAX_PIECE_LENGTH * 100)),
      2 * counter.count('z'.repeat(MAX_PIECE_LENGTH * 100)),
    );
  });

  void test('the usage estimate for servers that report none counts with the same counter', async () => {
    const stuck = `${'a'.repeat(500_000)}\n`;
    assert.equal(await countTokens(stuck), createTokenCounter().count(stuck));
    assert.equal(await estimateChatTokens([{ role: 'user', content: stuck }]), createTokenCounter().count(stuck) + 4);
  });
});
