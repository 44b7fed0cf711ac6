import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokensAgainstWhole } from '../../../src/vscode/chat/chatText';

// Token wording that does not contradict itself (issue 14, item 7: "360 tokens instead of 343").

void test('fewer tokens than the whole file: instead of, with the saving', () => {
  assert.equal(
    tokensAgainstWhole(312, 1204, 'the whole file'),
    '**312 tokens** instead of 1,204 for the whole file (74% fewer)',
  );
});

void test('more tokens than the whole file: never "instead of", and the difference is explained', () => {
  const text = tokensAgainstWhole(360, 343, 'the whole file');
  assert.equal(text, "**360 tokens**: the whole file (343) and 17 for Scalpel's element labels");
  assert.doesNotMatch(text, /instead of|fewer|-\d+%/);
});

void test('as many tokens as the whole file', () => {
  assert.equal(tokensAgainstWhole(343, 343, 'the whole file'), '**343 tokens**, as many as the whole file');
});

void test('a note goes right after the count', () => {
  assert.equal(
    tokensAgainstWhole(100, 400, 'the whole files', '(o200k_base)'),
    '**100 tokens** (o200k_base) instead of 400 for the whole files (75% fewer)',
  );
});
