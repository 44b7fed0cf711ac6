import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliBatchWriter } from '../../../src/cli/commands/mcp';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { nullLogger } from '../../../src/core/logger';
import { answerBudget, createToolEnv, diskWorkspace, runTool, toolByName, type ToolEnv } from '../../../src/core/tools';
import type { ToolRun } from '../../../src/core/tools/runTool';

export const repoRoot = join(__dirname, '..', '..', '..', '..');

/** A fresh copy of the shop fixture (three small files that call each other, one with a type error). */
export function shopWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-tools-'));
  cpSync(join(repoRoot, 'test', 'unit', 'tools', 'fixtures', 'shop'), root, { recursive: true });
  return root;
}

/**
 * A 20,000-line module: 2,000 exported functions of ten lines each, named fn0 ... fn1999, each calling the next, so
 * outlines, symbol searches and reference lists all run into the thousands.
 */
export function largeModule(root: string, path = 'big.ts', functions = 2_000): string {
  const parts: string[] = [`// ${functions} generated functions, each calling the next`];
  for (let i = 0; i < functions; i++) {
    const next = i + 1 < functions ? `fn${i + 1}(value + ${i})` : 'value';
    parts.push(
      `export function fn${i}(value: number): number {`,
      `  // step ${i} of the chain`,
      `  const doubled = value * 2;`,
      `  const halved = doubled / 2;`,
      `  if (halved !== value) {`,
      `    throw new Error('arithmetic broke at ${i}');`,
      `  }`,
      `  return ${next};`,
      `}`,
    );
    if (i + 1 < functions) parts.push('');
  }
  writeFileSync(join(root, path), `${parts.join('\n')}\n`);
  return path;
}

export function toolEnv(root: string): ToolEnv {
  return createToolEnv(diskWorkspace(root), cliBatchWriter(root), createTokenCounter(), nullLogger);
}

export async function call(env: ToolEnv, name: string, input: unknown, maxTokens?: number): Promise<ToolRun> {
  const tool = toolByName(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return runTool(tool, input, env, { budget: answerBudget(maxTokens), surface: 'test' });
}

/** The cursor an answer's note offers, if any. */
export function cursorOf(text: string): string | undefined {
  return /cursor "([^"]+)"/.exec(text)?.[1];
}

/** The data rows of a compact table answer (neither heading, column line, group line nor note). */
export function tableRows(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('columns: '));
  if (start < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) continue;
    if (/^\w+ [\d,]+-[\d,]+ of [\d,]+|^[\d,]+ \w+, all shown$/.test(line)) break;
    rows.push(line);
  }
  return rows;
}

/** A PATCH of the shop's Cart.add: what the apply tests write, cancel and merge. */
export const PATCH_CART_ADD = [
  'PATCH_ELEMENT src/price.ts/class[Cart]/method[add]',
  '<<<<<<< SEARCH',
  '    this.items.push(price);',
  '=======',
  '    this.items.push(Math.abs(price));',
  '>>>>>>> REPLACE',
].join('\n');
