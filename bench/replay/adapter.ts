import { buildContext } from '../../src/core/context/buildContext';
import type { TokenCounter } from '../../src/core/context/tokens';
import { wholeOrPlanned } from '../../src/core/edit/costRule';
import { outlineSource } from '../../src/core/elements/outline';
import { CodeGraph } from '../../src/core/graph/codeGraph';
import { contextReferences } from '../../src/core/graph/contextReferences';
import { ReferenceFinder } from '../../src/core/graph/references';
import { nodeSourceFileSystem } from '../../src/core/graph/sourceFiles';
import type { EditRequest } from '../../src/core/llm/pipeline';
import type { ContextJob, ReplayJob } from './protocol';

/**
 * What the replay driver needs of the version it is bundled with: this file is the current tree's; for an older commit
 * bench/contextReplay.ts writes one for what that commit has (references in the context, the cost rule, NEED with
 * positions).
 */

const graphs = new Map<string, CodeGraph>();
const graphOf = (root: string): CodeGraph => {
  let graph = graphs.get(root);
  if (graph === undefined) {
    graph = new CodeGraph(nodeSourceFileSystem(root));
    graphs.set(root, graph);
  }
  return graph;
};

export const adapter = {
  name: 'now',
  needModifiers: true,
  sentWholeUnplanned(job: ReplayJob, counter: TokenCounter, budget: number, smallFileLines: number): boolean {
    const outline = outlineSource(job.file, job.before);
    if (outline.lineCount <= smallFileLines) return true;
    return wholeOrPlanned({ path: job.file, outline, outlinable: true }, job.instruction, counter, budget).whole;
  },
  references(root: string, counter: TokenCounter): EditRequest['references'] {
    return (requests, budget) =>
      contextReferences(new ReferenceFinder(graphOf(root)), requests, counter, {
        ...(budget === undefined ? {} : { contextBudget: budget }),
      }).appendices;
  },
  contextTokens(job: ContextJob, counter: TokenCounter): number {
    const outline = outlineSource(job.file, job.text);
    return buildContext([{ outline, focus: job.focus }], counter).tokens;
  },
  dispose(): void {
    for (const graph of graphs.values()) graph.dispose();
  },
};
