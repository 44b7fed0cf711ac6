import type * as vscode from 'vscode';
import type { EditOutcome } from '../../core/llm/pipeline';
import type { ChatProvider } from '../../core/llm/provider';
import type { Ctx } from '../ctx';
import { exclusionMessage, firstExclusion } from '../exclusions';
import { UserFacingError } from '../userError';
import { recordMetrics } from '../stats';
import { changedElements } from './changeSummary';
import { focusedRequestOf, focusOfRequestOrThrow, knownFocusOf, type ChatFocus } from './chatFocus';
import { providerForChatRequest } from './chatModel';
import { chatResult, focusFromHistory } from './chatResult';
import type { ChatDocuments } from './chatDocuments';
import { codeBlock, firstLines, formatCount, inlineCode, plural, savingOf } from './chatText';
import { adviceFor } from './failureAdvice';
import { abortSignalOf, actionLinks, describeFocus, linkElement } from './requestSupport';

/**
 * `/edit <instruction>` (and a prompt without a command): the edit pipeline on the focus, ending in a pending edit
 * the user previews and applies with the links under the answer. Nothing is written here.
 */
export async function handleEdit(
  ctx: Ctx,
  documents: ChatDocuments,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  instruction: string,
): Promise<vscode.ChatResult> {
  if (instruction === '') {
    stream.markdown(
      'Tell me what to change, e.g. `@scalpel /edit validate the email with a stricter pattern`. I edit the element at the cursor, or the files and symbols you reference with `#`.',
    );
    return chatResult({ command: 'edit', instruction, outcome: 'usage' });
  }
  stream.progress('Reading the code in focus');
  const focus = await focusOfRequestOrThrow(ctx, request, focusFromHistory(chatContext, 'edit', instruction));
  describeFocus(stream, focus);
  const config = ctx.config();
  const provider = await providerForChatRequest(ctx, request.model);
  const engine = ctx.engine();
  const shaped = focusedRequestOf(focus);
  let outcome: EditOutcome;
  try {
    outcome = await engine.runEdit({
      instruction,
      files: shaped.files,
      snapshot: focus.snapshot,
      provider,
      counter: engine.createTokenCounter(config.tokenEncoding),
      options: {
        budget: config.tokenBudget,
        smallFileLines: config.smallFileLines,
        strategy: config.strategy,
        repairRounds: config.repairRounds,
        planning: config.planning,
        maxOutputTokens: config.maxOutputTokens,
        ...(shaped.full ? { full: true } : {}),
      },
      signal: abortSignalOf(token),
      onProgress: (event) => stream.progress(`${event.message.charAt(0).toUpperCase()}${event.message.slice(1)}`),
      logger: ctx.log,
      command: 'chat.edit',
    });
  } catch (error) {
    if (error instanceof engine.ContextBudgetError) {
      throw new UserFacingError(
        `The context does not fit: ${error.message}. Raise \`scalpel.tokenBudget\`, or place the cursor in a smaller element.`,
      );
    }
    throw error;
  }

  recordMetrics(ctx, outcome.requests);
  if (token.isCancellationRequested || outcome.error?.code === 'cancelled') {
    stream.markdown('Cancelled: nothing was changed.');
    return chatResult({ command: 'edit', instruction, outcome: 'cancelled', focus: knownFocusOf(focus) });
  }
  if (!outcome.ok) return reportFailure(ctx, documents, stream, outcome, provider, instruction, focus);
  if (outcome.apply.changes.length === 0) {
    stream.markdown(
      'The model answered with operations that change nothing. Rephrase the request if you expected a change.',
    );
    return chatResult({ command: 'edit', instruction, outcome: 'nothing', focus: knownFocusOf(focus) });
  }

  const exclusion = await firstExclusion(
    focus.root,
    outcome.apply.changes.map((c) => c.path),
    config.exclude,
  );
  if (exclusion !== undefined) {
    stream.markdown(`**The edit was refused:** ${exclusionMessage(exclusion, 'edit')}`);
    return chatResult({ command: 'edit', instruction, outcome: 'failed', focus: knownFocusOf(focus) });
  }
  const usage = totalUsage(outcome);
  const pending = ctx.pendingEdits.add({
    title: instruction,
    operations: outcome.operations,
    results: outcome.apply.results,
    changes: outcome.apply.changes,
    root: focus.root,
    usage,
  });
  ctx.log.info(
    `chat edit ${pending.id}: ${outcome.apply.changes.map((c) => c.path).join(', ')} (${usage.inputTokens} in, ${usage.outputTokens} out)`,
  );
  reportChanges(ctx, stream, outcome, focus);
  reportTokens(stream, outcome, usage);
  actionLinks(stream, [
    { command: 'scalpel.previewEdit', title: 'Preview', arguments: [pending.id] },
    { command: 'scalpel.acceptEdit', title: 'Apply', arguments: [pending.id] },
    { command: 'scalpel.rejectEdit', title: 'Discard', arguments: [pending.id] },
  ]);
  return chatResult({ command: 'edit', instruction, outcome: 'ok', editId: pending.id, focus: knownFocusOf(focus) });
}

function reportChanges(ctx: Ctx, stream: vscode.ChatResponseStream, outcome: EditOutcome, focus: ChatFocus): void {
  const files = outcome.apply.changes.map((c) => c.path);
  const items = changedElements(ctx.engine(), outcome.apply, focus);
  stream.markdown(
    `**Ready to apply:** ${plural(items.length, 'change')} in ${files.map(inlineCode).join(', ')}. Nothing is written until you apply it.\n\n`,
  );
  for (const item of items) {
    stream.markdown(`- ${item.verb} `);
    if (item.target === undefined) stream.markdown(inlineCode(item.label));
    else linkElement(stream, item.label, item.target, item.file);
    if (item.created !== undefined) stream.markdown(`: ${item.created.map(inlineCode).join(', ')}`);
    stream.markdown('\n');
  }
}

interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly wholeFileInputTokens: number;
}

function totalUsage(outcome: EditOutcome): Usage {
  return outcome.requests.reduce(
    (sum, r) => ({
      inputTokens: sum.inputTokens + r.inputTokens,
      outputTokens: sum.outputTokens + r.outputTokens,
      wholeFileInputTokens: sum.wholeFileInputTokens + r.wholeFileInputTokens,
    }),
    { inputTokens: 0, outputTokens: 0, wholeFileInputTokens: 0 },
  );
}

function reportTokens(stream: vscode.ChatResponseStream, outcome: EditOutcome, usage: Usage): void {
  const lines: string[] = [];
  if (outcome.context !== undefined) {
    const { tokens, wholeFileTokens } = outcome.context;
    lines.push(
      `Context sent: **${formatCount(tokens)} tokens** instead of ${formatCount(wholeFileTokens)} for the whole file${outcome.context.files.length === 1 ? '' : 's'}${saving(tokens, wholeFileTokens)}.`,
    );
  }
  const models = [...new Set(outcome.requests.map((r) => r.model))].join(', ');
  lines.push(
    `${plural(outcome.requests.length, 'model request')} to ${models}: ${formatCount(usage.inputTokens)} tokens in, ${formatCount(usage.outputTokens)} out` +
      (usage.wholeFileInputTokens > 0
        ? ` (whole files would have cost ${formatCount(usage.wholeFileInputTokens)} in).`
        : '.'),
  );
  stream.markdown(`\n${lines.join('  \n')}\n\n`);
}

async function reportFailure(
  ctx: Ctx,
  documents: ChatDocuments,
  stream: vscode.ChatResponseStream,
  outcome: EditOutcome,
  provider: ChatProvider,
  instruction: string,
  focus: ChatFocus,
): Promise<vscode.ChatResult> {
  const advice = await adviceFor(outcome.error, provider);
  const failure = outcome.failure ?? 'the edit failed';
  ctx.log.warn(`chat edit failed: ${failure}`);
  if (outcome.lastAnswer !== '') ctx.log.info(`the model's last answer:\n${outcome.lastAnswer}`);
  stream.markdown(`**The edit failed:** ${sentence(failure)}\n\n${advice.nextStep}\n\n`);
  const actions = [...advice.actions];
  if (outcome.error === undefined && outcome.lastAnswer !== '') {
    const { shown, hidden } = firstLines(outcome.lastAnswer, SHOWN_ANSWER_LINES);
    stream.markdown(
      `The model's last answer${hidden > 0 ? ` (the first ${plural(SHOWN_ANSWER_LINES, 'line')})` : ''}:\n\n${codeBlock(shown)}\n`,
    );
    if (hidden > 0) {
      const uri = documents.put('last-answer.md', outcome.lastAnswer);
      actions.unshift({ command: 'vscode.open', title: 'Open the whole answer', arguments: [uri] });
    }
  }
  actionLinks(stream, actions);
  return chatResult({ command: 'edit', instruction, outcome: 'failed', focus: knownFocusOf(focus) });
}

function sentence(text: string): string {
  const trimmed = text.trim();
  // A message that starts with an address or a path keeps its case.
  const start = /^[a-z]+:\/\/|^[\w.-]+\//.test(trimmed)
    ? trimmed
    : `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}`;
  return `${start}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
}

/** A failed answer shows its beginning; the rest opens in an editor. */
const SHOWN_ANSWER_LINES = 30;

function saving(tokens: number, wholeTokens: number): string {
  const saved = savingOf(tokens, wholeTokens);
  return saved === undefined ? ': the file went whole' : ` (${saved})`;
}
