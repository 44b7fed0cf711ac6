import * as vscode from 'vscode';
import type { ChatProvider } from '../../core/llm/provider';
import type { Ctx } from '../ctx';
import { recordMetrics } from '../stats';
import { focusOfRequestOrThrow, type KnownFocus } from './chatFocus';
import { providerForChatRequest } from './chatModel';
import { chatResult, focusFromHistory } from './chatResult';
import { formatCount, inlineCode, plural, savingOf } from './chatText';
import { adviceFor } from './failureAdvice';
import { abortSignalOf, actionLinks, describeFocus, linkElement } from './requestSupport';
import { runPlan } from './runPlan';

/**
 * `/plan <instruction>`: only the planning phase. The model sees the outline of the files in focus and names the
 * elements it needs; the answer links them, and a following `/edit` of the same instruction uses them as focus.
 */
export async function handlePlan(
  ctx: Ctx,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  instruction: string,
): Promise<vscode.ChatResult> {
  if (instruction === '') {
    stream.markdown(
      'Tell me what you want to change, e.g. `@scalpel /plan add a role check to every method that edits`; I show which elements the model would work on.',
    );
    return chatResult({ command: 'plan', instruction, outcome: 'usage' });
  }
  const focus = await focusOfRequestOrThrow(ctx, request, focusFromHistory(chatContext, 'plan', instruction));
  describeFocus(stream, focus);
  const config = ctx.config();
  let provider: ChatProvider | undefined;
  stream.progress('Asking the model which elements it needs');
  const engine = ctx.engine();
  let plan;
  try {
    provider = await providerForChatRequest(ctx, request.model);
    plan = await runPlan(engine, provider, focus.files, instruction, {
      signal: abortSignalOf(token),
      maxOutputTokens: config.maxOutputTokens,
      encoding: config.tokenEncoding,
    });
  } catch (error) {
    if (token.isCancellationRequested || engine.isLlmError(error, 'cancelled')) {
      stream.markdown('Cancelled.');
      return chatResult({ command: 'plan', instruction, outcome: 'cancelled' });
    }
    if (!engine.isLlmError(error)) throw error;
    const advice = await adviceFor(error, provider);
    stream.markdown(`**Planning failed:** ${error.message}\n\n${advice.nextStep}\n\n`);
    actionLinks(stream, advice.actions);
    return chatResult({ command: 'plan', instruction, outcome: 'failed' });
  }

  recordMetrics(ctx, [plan.metrics]);
  const count = plan.elements.length + plan.wholeFiles.length;
  if (count === 0) {
    stream.markdown(
      'The model named no element of these files. `/edit` would send their outline; reference the code to change with `#` to help it.\n\n',
    );
  } else {
    stream.markdown(`**The model would work on ${plural(count, 'element')}:**\n\n`);
    for (const { file, element } of plan.elements) {
      stream.markdown('- ');
      linkElement(
        stream,
        element.path,
        new vscode.Location(file.uri, file.lines.rangeOf(element.range.start, element.range.end)),
        file.path,
      );
      stream.markdown('\n');
    }
    for (const file of plan.wholeFiles) {
      stream.markdown('- the whole file ');
      linkElement(stream, file.path, file.uri);
      stream.markdown('\n');
    }
  }
  if (plan.unresolved.length > 0) {
    stream.markdown(`\nIgnored: ${plan.unresolved.map((u) => `${inlineCode(u.path)} (${u.reason})`).join('; ')}.\n`);
  }
  stream.markdown(
    `\nThe plan cost ${formatCount(plan.usage.inputTokens)} tokens in, ${formatCount(plan.usage.outputTokens)} out (${plan.model}): the model saw the outline, no bodies` +
      (savingOf(plan.usage.inputTokens, plan.wholeFileTokens) === undefined
        ? '.\n'
        : `, ${savingOf(plan.usage.inputTokens, plan.wholeFileTokens)} than the ${formatCount(plan.wholeFileTokens)} tokens of the whole file${focus.files.length === 1 ? '' : 's'}.\n`),
  );

  const known: KnownFocus = {
    root: focus.root.toString(),
    origin: 'the elements the plan named',
    files: focus.files
      .map((file) =>
        plan.wholeFiles.includes(file)
          ? { path: file.path, focus: [], whole: true }
          : { path: file.path, focus: plan.elements.filter((e) => e.file === file).map((e) => e.element.path) },
      )
      .filter((entry) => entry.focus.length > 0 || entry.whole === true),
  };
  return chatResult({
    command: 'plan',
    instruction,
    outcome: 'ok',
    ...(known.files.length === 0 ? {} : { focus: known }),
  });
}
