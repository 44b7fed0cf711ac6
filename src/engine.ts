/**
 * The heavy half of Scalpel (ts-morph, the tokenizer and everything built on them), bundled on its own as
 * dist/engine.js so that the extension requires it on first use instead of during activation. The extension
 * imports only its types; `loadEngine()` in src/vscode/engineLoader.ts does the require.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isGraphWorkerData, serveGraphWorker } from './core/tools/graph/graphWorker';

export { buildContext, ContextBudgetError, CONTEXT_LEGEND } from './core/context/buildContext';
export { createTokenCounter, isTokenEncoding } from './core/context/tokens';
export { isOutlinable, outlineSource } from './core/elements/outline';
export { loadLanguagesFor } from './core/language/languages';
export {
  elementsAtOffset,
  elementsInRange,
  ElementNotFoundError,
  resolveElementPath,
  walkElements,
} from './core/elements/resolve';
export { createProvider, DEFAULT_BASE_URLS, DEFAULT_MODELS } from './core/llm/createProvider';
export { isLlmError, LlmError } from './core/llm/errors';
export { appendMetrics, appendToolCall, formatMetricsSummary, readMetrics, summarizeMetrics } from './core/llm/metrics';
export { focusNote } from './core/llm/focusNote';
export { runEdit } from './core/llm/pipeline';
export {
  CODING_SYSTEM_PROMPT,
  codingUserMessage,
  parsePlan,
  PLANNING_SYSTEM_PROMPT,
  planningOutline,
  planningUserMessage,
} from './core/llm/prompts';
export { applyOperations } from './core/ops/apply';
export { parseOperations, serializeOperations, OPERATION_FORMAT_PROMPT } from './core/ops/format';
export { gitignoreRuleOnDisk } from './core/workspace/gitignore';
export { ripgrepUnderAppRoot, useRipgrep } from './core/search/ripgrep';
export { checkWriteTargets, writePolicyGate } from './core/write';
export { gateFailureMessage } from './core/edit/preWriteGate';
export { answerBudget, createToolEnv, diskWorkspace, runTool, toolByName, TOOLS } from './core/tools';
export { GraphWorker } from './core/tools/graph/graphWorker';
export { createEditService } from './core/edit/editService';
export { EditConversation } from './core/edit/conversation';
export { answerDecline } from './core/edit/answerNotes';
export { editTitleOf, undoLabelOf } from './core/edit/editTitle';
export { exclusionMessage } from './core/edit/exclusion';
export {
  describeConflicts,
  fileOfOperation,
  operationPath,
  renamesOf,
  resolveAgainstCurrent,
} from './core/edit/rebase';
export { usageTotals } from './core/edit/usage';
export { remainingTypeErrors, typeCheckLines } from './core/edit/typeCheckStep';
export { describeTypeErrors, errorCountPhrase } from './core/check/typeCheck';
export { errorCodeLabel } from './core/graph/semantics';
export { changesSinceBaseline } from './core/sync/sync';
export { renderChanges } from './core/sync/renderChanges';

// Run as a worker thread (the agent tools' code graph, src/core/tools/graph/graphWorker.ts), this bundle serves it.
if (!isMainThread && parentPort !== null && isGraphWorkerData(workerData)) serveGraphWorker(parentPort, workerData);
