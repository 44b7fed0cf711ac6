export { answerBudget, DEFAULT_ANSWER_BUDGET, type AnswerBudget } from './budget';
export { diskWorkspace } from './diskWorkspace';
export { runTool, type ToolRun, type RunToolOptions } from './runTool';
export { createToolEnv, type RemoteCodeGraph } from './toolEnv';
export { listedTools, TOOLS, toolByName, VSCODE_TOOL_PREFIX, type ListedTool } from './toolTable';
export type {
  BatchWriter,
  JsonSchema,
  ToolCallRecord,
  ToolEnv,
  Tool,
  ToolSpec,
  ToolWorkspace,
  VerifiedBatch,
  WriteOutcome,
} from './types';
