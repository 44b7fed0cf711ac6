import * as vscode from 'vscode';
import { focusedRequestOf, focusOfRequestOrThrow, knownFocusOf, settingsScopeOf } from './chatFocus';
import { chatResult, focusFromHistory } from './chatResult';
import { formatCount, inlineCode, markdownExcerpt, plural, tokensAgainstWhole } from './chatText';
import { actionLinks, type ChatTurn, describeFocus, linkElement } from './requestSupport';

/** Longer contexts show their beginning; the rest opens in an editor. */
const SHOWN_LINES = 40;

/**
 * `/context [instruction]`: what `/edit` would send for the same focus, and what it costs against the whole
 * file. No model is called.
 */
export async function handleContext(turn: ChatTurn): Promise<vscode.ChatResult> {
  const { ctx, services, documents, request, chatContext, stream, instruction } = turn;
  const focus = await focusOfRequestOrThrow(ctx, request, focusFromHistory(chatContext, 'context', instruction));
  describeFocus(stream, focus);
  const scope = settingsScopeOf(focus);
  const config = ctx.config(scope);
  const engine = ctx.engine();
  const shaped = focusedRequestOf(focus);
  // The files as /edit names them, so the context is exactly what /edit would send.
  const { context, counter } = services.edits.contextOrThrow(scope, {
    files: shaped.files,
    snapshot: focus.snapshot,
    full: shaped.full,
  });
  const wholeFiles = context.files.length === 1 ? 'the whole file' : 'the whole files';
  stream.markdown(
    `**Context for ${focus.origin}:** ${tokensAgainstWhole(context.tokens, context.wholeFileTokens, wholeFiles, `(${context.encoding})`)}.\n\n`,
  );
  for (const summary of context.files) {
    const file = focus.files.find((f) => f.path === summary.file);
    stream.markdown(`- ${inlineCode(summary.file)} (${plural(summary.lineCount, 'line')}): `);
    if (summary.mode === 'whole') {
      stream.markdown(
        summary.lineCount <= config.smallFileLines
          ? `sent whole (at most ${config.smallFileLines} lines)`
          : 'sent whole',
      );
    } else if (summary.focus.length === 0) {
      stream.markdown('signatures only, no element in focus');
    } else {
      stream.markdown('in full: ');
      summary.focus.forEach((path, index) => {
        if (index > 0) stream.markdown(', ');
        const element = file?.outline === undefined ? undefined : engine.resolveElementPath(file.outline, path);
        if (file !== undefined && element?.ok === true) {
          linkElement(
            stream,
            path,
            new vscode.Location(file.uri, file.lines.rangeOf(element.element.range.start, element.element.range.end)),
            summary.file,
          );
        } else {
          stream.markdown(inlineCode(path));
        }
      });
    }
    stream.markdown('\n');
  }

  const notes: string[] = [];
  if (context.dropped.length > 0)
    notes.push(
      `${plural(context.dropped.length, 'element')} left out to fit \`scalpel.tokenBudget\` (${formatCount(config.tokenBudget)}).`,
    );
  const unfocused = context.files.filter((f) => f.mode === 'focused' && f.focus.length === 0);
  if (unfocused.length > 0 && config.planning !== 'never') {
    notes.push(
      'No element is in focus: `/edit` first asks the model which elements it needs (`/plan` shows its choice).',
    );
  }
  if (instruction !== '') {
    const requestTokens =
      counter.count(engine.CODING_SYSTEM_PROMPT) + counter.count(engine.codingUserMessage(context.text, instruction));
    notes.push(`With the system prompt and your instruction the request is **${formatCount(requestTokens)} tokens**.`);
  }
  if (notes.length > 0) stream.markdown(`\n${notes.join('  \n')}\n`);
  stream.markdown('\n');
  const { shown, hidden } = markdownExcerpt(context.text, SHOWN_LINES);
  stream.markdown(`${shown}\n`);
  if (hidden > 0) {
    stream.markdown(`\n… ${plural(hidden, 'more line')}. `);
    const uri = documents.put(`${focus.files[0]?.path ?? 'context'}.context.md`, context.text);
    actionLinks(stream, [{ command: 'vscode.open', title: 'Open the whole context', arguments: [uri] }]);
  }
  return chatResult({ command: 'context', instruction, outcome: 'ok', focus: knownFocusOf(focus) });
}
