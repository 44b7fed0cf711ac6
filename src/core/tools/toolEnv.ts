import type { TokenCounter } from '../context/tokens';
import { EditConversation } from '../edit/conversation';
import type { Logger } from '../logger';
import type { CodeGraph } from './graph/codeGraph';
import { WorkspaceGraph } from './graph/workspaceGraph';
import { OutlineCache } from './outlineCache';
import type { BatchWriter, ToolEnv, ToolWorkspace } from './types';

/** A code graph served elsewhere (graphWorker.ts: in a worker thread), and whether it has read the workspace yet. */
export interface RemoteCodeGraph extends CodeGraph {
  readonly ready: boolean;
}

/**
 * The services every tool call of one workspace shares: outlines and the code graph stay warm between calls. The graph
 * is built in process on its first query, unless `remoteGraph` serves it.
 */
export function createToolEnv(
  workspace: ToolWorkspace,
  writer: BatchWriter,
  counter: TokenCounter,
  logger: Logger,
  conversation: EditConversation = new EditConversation('tools'),
  remoteGraph?: RemoteCodeGraph,
): ToolEnv {
  const outlines = new OutlineCache(workspace);
  let graph: CodeGraph | undefined;
  return {
    workspace,
    outlines,
    graph: () => remoteGraph ?? (graph ??= new WorkspaceGraph(workspace, outlines)),
    graphReady: () => (remoteGraph === undefined ? graph !== undefined : remoteGraph.ready),
    writer,
    counter,
    logger,
    conversation,
    history: {},
  };
}
