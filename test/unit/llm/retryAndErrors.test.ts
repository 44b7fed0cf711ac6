// The pure parts of retrying and error reporting: reading the servers' wait requests and context-length messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseContextOverflow, scrub } from '../../../src/core/llm/errors';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryAfterMs } from '../../../src/core/llm/retry';

void describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  void test('reads seconds, milliseconds and HTTP dates', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' }), now), 3000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }), now), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:07 GMT' }), now), 7000);
  });

  void test('ignores what it cannot read', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(retryAfterMs(new Headers(), now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });
});

void describe('backoffDelayMs', () => {
  void test('doubles per retry up to the cap, with at most a quarter taken off', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100, maxDelayMs: 350 };
    assert.equal(
      backoffDelayMs(1, policy, () => 0),
      100,
    );
    assert.equal(
      backoffDelayMs(2, policy, () => 0),
      200,
    );
    assert.equal(
      backoffDelayMs(3, policy, () => 0),
      350,
    );
    assert.equal(
      backoffDelayMs(2, policy, () => 1),
      150,
    );
  });
});

void describe('parseContextOverflow', () => {
  void test("reads the numbers from each server's message", () => {
    const cases: Array<[string, number, number]> = [
      [
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
        2532,
        128_000,
      ],
      ["This model's maximum context length is 8192 tokens. However, your request has 9000 input tokens.", 808, 8192],
      ['prompt is too long: 208310 tokens > 200000 maximum', 8310, 200_000],
      [
        'input length and `max_tokens` exceed context limit: 197022 + 8192 > 200000, decrease input length or `max_tokens` and try again',
        5214,
        200_000,
      ],
    ];
    for (const [message, excessTokens, contextLimit] of cases) {
      assert.deepEqual(parseContextOverflow(message), { excessTokens, contextLimit }, message);
    }
  });

  void test('gives no numbers when the message has none', () => {
    assert.deepEqual(parseContextOverflow('Your input exceeds the context window of this model.'), {});
  });
});

void describe('scrub', () => {
  void test('removes the key and key-shaped strings from server text', () => {
    const text =
      'Incorrect API key provided: sk-pro************************wxyz; raw sk-proj-abcdefghijklmnop, own SECRET-KEY-1234';
    const cleaned = scrub(text, { apiKey: 'SECRET-KEY-1234' });
    assert.ok(!cleaned.includes('SECRET-KEY-1234'));
    assert.ok(!cleaned.includes('abcdefghijklmnop'));
    assert.ok(!cleaned.includes('wxyz'));
  });
});
