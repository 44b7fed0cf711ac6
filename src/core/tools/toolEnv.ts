import type { TokenCounter } from '../context/tokens';
import { EditConversation } from '../edit/conversation';
import type { Logger } from '../logger';
import type { CodeGraph } from './graph/codeGraph';
import { WorkspaceGraph } from './graph/workspaceGraph';
import { OutlineCache } from './outlineCache';
import type { BatchWriter, ToolEnv, ToolWorkspace } from './types';

/** The services every tool call of one workspace shares: outlines and the code graph stay warm between calls. */
export function createToolEnv(
  workspace: ToolWorkspace,
  writer: BatchWriter,
  counter: TokenCounter,
  logger: Logger,
  conversation: EditConversation = new EditConversation('tools'),
): ToolEnv {
  const outlines = new OutlineCache(workspace);
  let graph: CodeGraph | undefined;
  return {
    workspace,
    outlines,
    graph: () => (graph ??= new WorkspaceGraph(workspace, outlines)),
    graphReady: () => graph !== undefined,
    writer,
    counter,
    logger,
    conversation,
    history: {},
  };
}
