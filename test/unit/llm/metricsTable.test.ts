import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatMetricsSummary, summarizeMetrics, type RequestMetrics } from '../../../src/core/llm/metrics';

function request(command: string, inputTokens: number, wholeFileInputTokens: number): RequestMetrics {
  return {
    time: '2026-11-26T00:00:00.000Z',
    command,
    phase: 'code',
    provider: 'openai',
    model: 'gpt-4o-mini',
    inputTokens,
    outputTokens: 120,
    usageSource: 'provider',
    wholeFileInputTokens,
    instructionTokens: 900,
    operations: { REPLACE_ELEMENT: 1 },
    ok: true,
    durationMs: 1_000,
  };
}

void describe('Token Statistics table', () => {
  // Issue 29: in an editor column of ordinary width the share saved was off-screen, after four wide columns.
  void test('the share saved comes right after the group and its count, before the token distributions', () => {
    const table = formatMetricsSummary(
      summarizeMetrics([request('vscode.editElement', 2_000, 8_000), request('cli.edit', 3_000, 4_000)]),
    );
    const lines = table.split('\n');
    const header = lines[0] ?? '';
    assert.ok(header.indexOf('saved') < header.indexOf('input mean/p95/max'), header);
    assert.ok(header.indexOf('saved') < 40, header);
    // 5,000 of 12,000 tokens: 58% saved overall; each command's own share on its row, within the first 40 columns.
    const row = (key: string): string => lines.find((l) => l.startsWith(`${key} `)) ?? '';
    assert.match(row('all').slice(0, 40), /^all\s+2\s+58%/);
    assert.match(row('vscode.editElement').slice(0, 40), /^vscode\.editElement\s+1\s+75%/);
    assert.match(row('cli.edit').slice(0, 40), /^cli\.edit\s+1\s+25%/);
  });
});
