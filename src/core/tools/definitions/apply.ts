import { createTwoFilesPatch } from 'diff';
import { applyOperations, type FileChange } from '../../ops/apply';
import { parseOperations } from '../../ops/format';
import type { OperationResult } from '../../ops/operation';
import { compactTable, count, type TableSpec } from '../table';
import { ToolInputError, type ToolSpec } from '../types';
import { stringArg } from '../validateInput';

interface ApplyInput {
  readonly operations: string;
  readonly dryRun: boolean;
  readonly partial: boolean;
}

export const resultTable: TableSpec<OperationResult> = {
  columns: ['#', 'status', 'operation', 'path', 'note'],
  cells: (r) => [
    String(r.index + 1),
    r.status,
    r.operation.type,
    r.operation.path,
    [
      r.message,
      r.hint === undefined ? undefined : `hint: ${r.hint}`,
      r.suggestions?.length ? `nearest: ${r.suggestions.join(', ')}` : undefined,
    ]
      .filter((x) => x !== undefined)
      .join('; '),
  ],
  json: (r) => ({
    index: r.index,
    status: r.status,
    type: r.operation.type,
    path: r.operation.path,
    ...(r.message === undefined ? {} : { message: r.message }),
    ...(r.hint === undefined ? {} : { hint: r.hint }),
    ...(r.suggestions === undefined ? {} : { suggestions: r.suggestions }),
  }),
};

function diffOf(changes: readonly FileChange[]): string {
  return changes
    .map((c) =>
      createTwoFilesPatch(
        c.before === undefined ? '/dev/null' : `a/${c.path}`,
        `b/${c.path}`,
        c.before ?? '',
        c.after,
        undefined,
        undefined,
        {
          context: 2,
        },
      ),
    )
    .join('')
    .replace(/^=+\n/gm, '');
}

export const applyTool: ToolSpec<ApplyInput> = {
  name: 'apply',
  title: 'Apply element operations',
  description:
    'Apply edits as Scalpel element operations (REPLACE_ELEMENT, CREATE_ELEMENT, DELETE_ELEMENT, PATCH_ELEMENT, ' +
    'ADD_IMPORT, REMOVE_IMPORT, CREATE_FILE, REPLACE_FILE; header line with an element path, then a fenced code ' +
    'body). The batch is verified as a whole (it parses, only targeted elements change) and written all or nothing; ' +
    'every operation gets a result with the nearest valid paths when one does not resolve. dryRun verifies and shows ' +
    'the diff without writing. In VS Code the change opens as a preview the user accepts.',
  inputSchema: {
    type: 'object',
    properties: {
      operations: {
        type: 'string',
        description:
          'The operations in the text format, e.g. "REPLACE_ELEMENT src/a.ts/function[f]\\n```ts\\nfunction f() {}\\n```" (JSON [{type, path, content}] also accepted).',
      },
      dryRun: { type: 'boolean', description: 'Verify and show the diff; write nothing (default false).' },
      partial: {
        type: 'boolean',
        description: 'Write the operations that verified even if others failed (default false: all or nothing).',
      },
    },
    required: ['operations'],
    additionalProperties: false,
  },
  writes: true,
  parse: (input) => {
    const operations = stringArg(input, 'operations') ?? '';
    if (operations.trim() === '') throw new ToolInputError('"operations" is empty');
    return { operations, dryRun: input['dryRun'] === true, partial: input['partial'] === true };
  },
  describe: (input) => {
    const parsed = parseOperations(input.operations);
    const targets = parsed.operations.map((o) => `${o.type} ${o.path}`);
    return `${input.dryRun ? 'check' : 'apply'} ${targets.length} operation${targets.length === 1 ? '' : 's'}: ${targets.slice(0, 5).join(', ')}${targets.length > 5 ? ', …' : ''}`;
  },
  async handle(input, env, budget) {
    const parsed = parseOperations(input.operations);
    if (parsed.operations.length === 0) {
      const reasons = parsed.errors.map(
        (e) => `line ${e.line}: ${e.message}${e.expected === undefined ? '' : ` (expected ${e.expected})`}`,
      );
      return { text: ['no operations could be read; nothing was written', ...reasons].join('\n'), isError: true };
    }
    const result = applyOperations(env.writer.snapshot(), parsed.operations, input.partial ? { partial: true } : {});
    const lines: string[] = [];
    const unreadable = parsed.errors.map(
      (e) => `unreadable line ${e.line}: ${e.message}${e.expected === undefined ? '' : ` (expected ${e.expected})`}`,
    );
    const verified = result.ok && parsed.errors.length === 0;
    const writable = verified || (input.partial && result.changes.length > 0);
    const failed = result.results.filter((r) => r.status !== 'ok').length;
    const files = result.changes.map((c) => c.path);
    lines.push(
      verified
        ? `verified: ${count(parsed.operations.length)} operations; ${files.length === 0 ? 'no file changes' : `changes ${files.join(', ')}`}`
        : `not verified: ${count(failed)} of ${count(parsed.operations.length)} operations failed${unreadable.length > 0 ? `, ${unreadable.length} unreadable` : ''}`,
    );
    lines.push(...unreadable);
    lines.push(compactTable(resultTable, result.results));
    if (!writable) {
      lines.push('nothing was written; fix the failed operations and send the whole batch again');
      return { text: lines.join('\n'), isError: true };
    }
    if (input.dryRun) {
      const diff = diffOf(result.changes).split('\n');
      const head = `dry run, nothing written; the diff:`;
      let used = env.counter.count([...lines, head].join('\n')) + 80;
      const shown: string[] = [];
      for (const line of diff) {
        const cost = env.counter.count(line) + 1;
        if (used + cost > budget.maxTokens) break;
        used += cost;
        shown.push(line);
      }
      lines.push(head, ...shown);
      if (shown.length < diff.length)
        lines.push(`diff cut after ${count(shown.length)} of ${count(diff.length)} lines to fit the answer budget`);
      return { text: lines.join('\n') };
    }
    const outcome = await env.writer.write({
      title: `agent edit: ${count(parsed.operations.length)} operations`,
      operations: parsed.operations,
      results: result.results,
      changes: result.changes,
    });
    lines.push(`${outcome.status}: ${outcome.message}`);
    if (outcome.status === 'written' || outcome.status === 'applied')
      lines.push('check types with the diagnostics tool on the changed files');
    return { text: lines.join('\n'), isError: !['written', 'applied', 'preview'].includes(outcome.status) };
  },
};
