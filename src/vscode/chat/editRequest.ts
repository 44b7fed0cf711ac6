import * as vscode from 'vscode';
import type { ServiceEditResult } from '../../core/edit/editService';
import type { Ctx } from '../ctx';
import { adviceCommands } from '../edit/advicePresentation';
import { changedElements } from './changeSummary';
import { CHAT_CONVERSATION } from './chatConversation';
import { focusedRequestOf, focusOfRequestOrThrow, knownFocusOf, type ChatFocus } from './chatFocus';
import { chatResult, focusFromHistory, type ScalpelChatMetadata } from './chatResult';
import type { ChatDocuments } from './chatDocuments';
import { codeBlock, firstLines, formatCount, inlineCode, plural, tokensAgainstWhole } from './chatText';
import { abortSignalOf, actionLinks, type ChatTurn, describeFocus, linkElement, progressOf } from './requestSupport';

/**
 * `/edit <instruction>` (and a prompt without a command): a shell over the edit service. It gathers the focus from
 * the request, and presents the service's result: the changed elements as links with Preview / Apply, or the failure
 * with its advice. Nothing is written here.
 */
export async function handleEdit(turn: ChatTurn): Promise<vscode.ChatResult> {
  const { ctx, services, documents, request, chatContext, stream, token, instruction } = turn;
  if (instruction === '') {
    stream.markdown(
      'Tell me what to change, e.g. `@scalpel /edit validate the email with a stricter pattern`. I edit the element at the cursor, or the files and symbols you reference with `#`.',
    );
    return chatResult({ command: 'edit', instruction, outcome: 'usage' });
  }
  stream.progress('Reading the code in focus');
  const focus = await focusOfRequestOrThrow(ctx, request, focusFromHistory(chatContext, 'edit', instruction));
  describeFocus(stream, focus);
  const shaped = focusedRequestOf(focus);
  const result = await services.edits.run({
    root: focus.root,
    instruction,
    files: shaped.files,
    snapshot: focus.snapshot,
    ...(shaped.full ? { full: true } : {}),
    command: 'chat.edit',
    model: request.model,
    signal: abortSignalOf(token),
    onProgress: progressOf(stream),
    conversation: services.edits.conversation(CHAT_CONVERSATION),
  });
  const metadata = {
    command: 'edit',
    instruction,
    focus: knownFocusOf(focus),
    undoLabel: result.undoLabel,
    operations: ctx.engine().serializeOperations(result.outcome.operations),
    ...(result.advice === undefined ? {} : { advice: result.advice }),
  } as const satisfies Omit<ScalpelChatMetadata, 'outcome'>;

  switch (result.status) {
    case 'cancelled':
      stream.markdown('Cancelled: nothing was changed.');
      return chatResult({ ...metadata, outcome: 'cancelled' });
    case 'nothing':
      stream.markdown(`${sentence(result.failure ?? 'nothing changes')} ${result.advice?.nextStep ?? ''}\n\n`);
      reportNotes(stream, result.outcome.notes);
      return chatResult({ ...metadata, outcome: 'nothing' });
    case 'declined':
      stream.markdown(`**The model declined:** ${sentence(result.declined ?? '')}\n\nNothing was changed.\n\n`);
      reportNotes(stream, result.outcome.notes);
      return chatResult({ ...metadata, outcome: 'declined' });
    case 'refused':
      stream.markdown(`**The edit was refused:** ${result.failure ?? ''}\n\n${result.advice?.nextStep ?? ''}\n\n`);
      actionLinks(stream, adviceCommands(result.advice));
      return chatResult({ ...metadata, outcome: 'failed' });
    case 'conflict':
    case 'failed':
      reportFailure(ctx, documents, stream, result);
      if (result.error !== undefined || result.outcome.lastAnswer === '') reportNotes(stream, result.outcome.notes);
      return chatResult({ ...metadata, outcome: 'failed' });
    case 'ready':
      break;
  }
  // Retry asks again from the palette, which edits one file: a request over several files has no retry.
  const [only] = shaped.files;
  const retry =
    shaped.files.length === 1 && only !== undefined && !shaped.full
      ? { uri: vscode.Uri.joinPath(focus.root, ...only.path.split('/')), instruction, focus: only.focus }
      : undefined;
  // The files attached with # are the user's own choice: Apply writes a protected one among them without asking.
  const pending = services.edits.addPending(focus.root, result, retry, focus.userNamed);
  ctx.log.info(
    `chat edit ${pending.id}: ${result.outcome.apply.changes.map((c) => c.path).join(', ')} (${result.usage.inputTokens} in, ${result.usage.outputTokens} out)`,
  );
  reportChanges(ctx, stream, result, focus);
  reportTypeErrors(ctx, stream, result);
  reportNotes(stream, result.outcome.notes);
  reportTokens(stream, result);
  actionLinks(stream, [
    { command: 'scalpel.previewEdit', title: 'Preview', arguments: [pending.id] },
    { command: 'scalpel.acceptEdit', title: 'Apply', arguments: [pending.id] },
    { command: 'scalpel.rejectEdit', title: 'Discard', arguments: [pending.id] },
  ]);
  return chatResult({ ...metadata, outcome: 'ok', editId: pending.id });
}

function reportChanges(ctx: Ctx, stream: vscode.ChatResponseStream, result: ServiceEditResult, focus: ChatFocus): void {
  const files = result.outcome.apply.changes.map((c) => c.path);
  const items = changedElements(ctx.engine(), result.outcome.apply, focus);
  stream.markdown(
    `**Ready to apply:** ${plural(items.length, 'change')} in ${files.map(inlineCode).join(', ')}. Nothing is written until you apply it.\n\n`,
  );
  for (const item of items) {
    stream.markdown(`- ${item.verb} `);
    if (item.target === undefined) stream.markdown(inlineCode(item.label));
    else linkElement(stream, item.label, item.target, item.file);
    if (item.created !== undefined) stream.markdown(`: ${item.created.map(inlineCode).join(', ')}`);
    if (item.renamedTo !== undefined) stream.markdown(`, renamed to ${inlineCode(item.renamedTo)}`);
    stream.markdown('\n');
  }
}

/** New type errors the repair rounds left: listed before the user applies, never hidden behind the Apply link. */
function reportTypeErrors(ctx: Ctx, stream: vscode.ChatResponseStream, result: ServiceEditResult): void {
  const errors = ctx.engine().remainingTypeErrors(result.outcome.verification);
  if (errors.length === 0) return;
  stream.markdown(
    `\n**Type check:** this edit adds ${plural(errors.length, 'TypeScript error')} the model did not fix. Apply takes it anyway; the preview marks them.\n\n`,
  );
  stream.markdown(`${codeBlock(ctx.engine().describeTypeErrors(errors))}\n`);
}

/** What the model wrote beside its operations: a user who reads only "ready" would miss it. */
function reportNotes(stream: vscode.ChatResponseStream, notes: readonly string[]): void {
  if (notes.length === 0) return;
  const quoted = notes
    .map((note) =>
      note
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
    )
    .join('\n>\n');
  stream.markdown(`\n**The model notes:**\n\n${quoted}\n\n`);
}

function reportTokens(stream: vscode.ChatResponseStream, result: ServiceEditResult): void {
  const { outcome, usage } = result;
  const lines: string[] = [];
  if (outcome.context !== undefined) {
    const { tokens, wholeFileTokens } = outcome.context;
    lines.push(
      `Context sent: ${tokensAgainstWhole(tokens, wholeFileTokens, outcome.context.files.length === 1 ? 'the whole file' : 'the whole files')}.`,
    );
  }
  const models = [...new Set(outcome.requests.map((r) => r.model))].join(', ');
  lines.push(
    `${plural(usage.requests, 'model request')} to ${models}: ${formatCount(usage.inputTokens)} tokens in, ${formatCount(usage.outputTokens)} out` +
      (usage.wholeFileInputTokens > 0
        ? ` (whole files would have cost ${formatCount(usage.wholeFileInputTokens)} in).`
        : '.'),
  );
  stream.markdown(`\n${lines.join('  \n')}\n\n`);
}

function reportFailure(
  ctx: Ctx,
  documents: ChatDocuments,
  stream: vscode.ChatResponseStream,
  result: ServiceEditResult,
): void {
  const failure = result.failure ?? 'the edit failed';
  const { outcome } = result;
  ctx.log.warn(`chat edit failed: ${failure}`);
  if (outcome.lastAnswer !== '') ctx.log.info(`the model's last answer:\n${outcome.lastAnswer}`);
  stream.markdown(`**The edit failed:** ${sentence(failure)}\n\n${result.advice?.nextStep ?? ''}\n\n`);
  const actions = adviceCommands(result.advice);
  if (result.error === undefined && outcome.lastAnswer !== '') {
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
