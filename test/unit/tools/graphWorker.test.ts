import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Logger } from '../../../src/core/logger';
import { GraphWorker } from '../../../src/core/tools/graph/graphWorker';
import { CallCancelledError } from '../../../src/core/tools/turns';
import { ToolInputError } from '../../../src/core/tools/types';
import { loadCorpus } from '../../support/corpus';
import { repoRoot } from './toolSupport';

/**
 * The code graph's worker thread (src/core/tools/graph/graphWorker.ts) as `scalpel mcp` starts it: dist/cli.js run as
 * the worker, on a copy of rxjs. Answers cross the thread whole (a rename's places with their files' texts), the
 * agent's mistakes come back as the same errors, a file written meanwhile is read again, and a cancelled call stops
 * the compiler's work in the worker instead of leaving the next call to wait for it.
 */

const script = join(repoRoot, 'dist', 'cli.js');

function recordingLogger(lines: string[]): Logger {
  const line = (message: string | Error): void => void lines.push(message instanceof Error ? message.message : message);
  return { trace: () => undefined, debug: () => undefined, info: line, warn: line, error: line };
}

/** Resolves once `lines` holds a line matching `pattern`. */
async function loggedLine(lines: readonly string[], pattern: RegExp): Promise<string> {
  for (;;) {
    const found = lines.find((l) => pattern.test(l));
    if (found !== undefined) return found;
    await new Promise((resume) => setTimeout(resume, 20));
  }
}

void describe('the code graph worker, on a copy of rxjs', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'scalpel-graph-worker-')), 'rxjs');
  const workers: GraphWorker[] = [];

  before(() => {
    const rxjs = loadCorpus().packages.find((p) => p.name === 'rxjs');
    assert.ok(rxjs !== undefined, 'the corpus has rxjs');
    cpSync(join(rxjs.after.packageDir, 'src'), join(root, 'src'), { recursive: true });
  });

  after(async () => {
    for (const worker of workers) await worker.close();
  });

  void test('answers cross whole, errors keep their class, and a file written meanwhile is read again', async () => {
    const lines: string[] = [];
    const worker = new GraphWorker({ script, root, logger: recordingLogger(lines) });
    workers.push(worker);
    const graph = worker.graph();
    await graph.prepare();
    assert.equal(graph.ready, true);
    const noop = 'src/internal/util/noop.ts/function[noop]';
    const references = await graph.references(noop);
    assert.ok(references.sites.length > 5, `${references.sites.length} uses of noop`);
    assert.equal(references.resolution, 'compiler');
    const plan = await graph.rename(noop, 'doNothing');
    // Each place keeps its file's text, posted once and shared again on this side.
    const declaration = plan.locations.find((l) => l.file === 'src/internal/util/noop.ts');
    assert.ok(declaration !== undefined);
    assert.equal(declaration.text.slice(declaration.start, declaration.start + declaration.length), 'noop');
    await assert.rejects(graph.references('src/internal/util/noop.ts/function[nothingHere]'), ToolInputError);
    // A new use written to disk: the worker's next answer has it.
    writeFileSync(
      join(root, 'src/internal/util/newUse.ts'),
      "import { noop } from './noop';\nexport const calls = () => noop();\n",
    );
    const again = await graph.references(noop);
    assert.equal(again.sites.length, references.sites.length + 1);
    assert.ok(again.sites.some((site) => site.file === 'src/internal/util/newUse.ts' && site.call));
  });

  void test("a cancelled diagnostics fails at once and stops the worker's type check where it is", async () => {
    const lines: string[] = [];
    const worker = new GraphWorker({ script, root, logger: recordingLogger(lines) });
    workers.push(worker);
    await worker.graph().prepare();
    const files = (await import('node:fs'))
      .readdirSync(join(root, 'src/internal/operators'))
      .map((name) => `src/internal/operators/${name}`);
    const cancel = new AbortController();
    // A cold type check of a hundred files: seconds of compiler work, which the worker has begun when the
    // cancellation comes (it picks the call up at once: it is idle).
    const checked = worker.graph(cancel.signal).diagnostics(files);
    await new Promise((resume) => setTimeout(resume, 300));
    cancel.abort();
    await assert.rejects(checked, CallCancelledError);
    const line = await loggedLine(lines, /the code graph's worker (stopped|finished|skipped) diagnostics/);
    assert.match(line, /stopped diagnostics at its cancellation/);
    // The worker goes on serving.
    const uses = await worker.graph().references('src/internal/util/noop.ts/function[noop]');
    assert.ok(uses.sites.length > 0);
  });
});
