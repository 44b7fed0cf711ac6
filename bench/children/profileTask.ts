import { readFileSync } from 'node:fs';
import { buildContext } from '../../src/core/context/buildContext';
import { createTokenCounter } from '../../src/core/context/tokens';
import { outlineSource } from '../../src/core/elements/outline';
import { applyOperations } from '../../src/core/ops/apply';
import type { Operation } from '../../src/core/ops/operation';

/**
 * Run by the bench under `node --cpu-prof` when a speed target is missed: repeats one measured task so that the
 * profile shows where its time goes.
 *   node --cpu-prof out/bench/children/profileTask.js <task file (JSON)>
 */

export interface ProfileTask {
  readonly task: 'outlineContext' | 'apply';
  readonly file: string;
  readonly textPath: string;
  readonly focus: string;
  readonly operations: readonly Operation[];
  readonly runs: number;
}

function main(): void {
  const [taskPath] = process.argv.slice(2);
  if (taskPath === undefined) throw new Error('usage: profileTask.js <task file>');
  const task = JSON.parse(readFileSync(taskPath, 'utf8')) as ProfileTask;
  const text = readFileSync(task.textPath, 'utf8');
  const counter = createTokenCounter();
  for (let run = 0; run < task.runs; run++) {
    if (task.task === 'outlineContext') {
      const outline = outlineSource(task.file, text);
      buildContext([{ outline, focus: [task.focus] }], counter);
    } else {
      applyOperations({ read: (path) => (path === task.file ? text : undefined) }, task.operations);
    }
  }
}

main();
