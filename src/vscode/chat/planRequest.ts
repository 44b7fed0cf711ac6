import * as vscode from 'vscode';
import { adviceCommands } from '../edit/advicePresentation';
import { focusOfRequestOrThrow, settingsScopeOf, type KnownFocus } from './chatFocus';
import { chatResult, focusFromHistory } from './chatResult';
import { formatCount, inlineCode, plural, savingOf } from './chatText';
import { abortSignalOf, actionLinks, type ChatTurn, describeFocus, linkElement, progressOf } from './requestSupport';

/**
 * `/plan <instruction>`: only the planning phase. The model sees the outline of the files in focus and names the
 * elements it needs; the answer links them, and a following `/edit` of the same instruction uses them as focus.
 */
export async function handlePlan(turn: ChatTurn): Promise<vscode.ChatResult> {
  const { ctx, services, request, chatContext, stream, token, instruction } = turn;
  if (instruction === '') {
    stream.markdown(
      'Tell me what you want to change, e.g. `@scalpel /plan add a role check to every method that edits`; I show which elements the model would work on.',
    );
    return chatResult({ command: 'plan', instruction, outcome: 'usage' });
  }
  const focus = await focusOfRequestOrThrow(ctx, request, focusFromHistory(chatContext, 'plan', instruction));
  describeFocus(stream, focus);
  const result = await services.edits.plan({
    root: focus.root,
    instruction,
    files: focus.files.map((f) => ({ path: f.path, focus: f.focus })),
    snapshot: focus.snapshot,
    command: 'chat.plan',
    model: request.model,
    signal: abortSignalOf(token),
    ...progressOf(stream, ctx.config(settingsScopeOf(focus)).verify === 'types'),
  });
  if (result.cancelled || token.isCancellationRequested) {
    stream.markdown('Cancelled.');
    return chatResult({ command: 'plan', instruction, outcome: 'cancelled' });
  }
  const plan = result.plan;
  if (!result.ok || plan === undefined) {
    stream.markdown(`**Planning failed:** ${result.failure ?? 'no plan'}\n\n${result.advice?.nextStep ?? ''}\n\n`);
    actionLinks(stream, adviceCommands(result.advice));
    return chatResult({
      command: 'plan',
      instruction,
      outcome: 'failed',
      ...(result.advice === undefined ? {} : { advice: result.advice }),
    });
  }
  const fileOf = (path: string) => focus.files.find((f) => f.path === path);
  const count = plan.elements.length + plan.wholeFiles.length;
  if (count === 0) {
    stream.markdown(
      'The model named no element of these files. `/edit` would send their outline; reference the code to change with `#` to help it.\n\n',
    );
  } else {
    stream.markdown(`**The model would work on ${plural(count, 'element')}:**\n\n`);
    for (const { file: path, element } of plan.elements) {
      const file = fileOf(path);
      if (file === undefined) continue;
      stream.markdown('- ');
      linkElement(
        stream,
        element.path,
        new vscode.Location(file.uri, file.lines.rangeOf(element.range.start, element.range.end)),
        file.path,
      );
      stream.markdown('\n');
    }
    for (const path of plan.wholeFiles) {
      const file = fileOf(path);
      if (file === undefined) continue;
      stream.markdown('- the whole file ');
      linkElement(stream, file.path, file.uri);
      stream.markdown('\n');
    }
  }
  if (plan.unresolved.length > 0) {
    stream.markdown(`\nIgnored: ${plan.unresolved.map((u) => `${inlineCode(u.path)} (${u.reason})`).join('; ')}.\n`);
  }
  const outside = [
    ...new Set([
      ...plan.unresolved.flatMap((u) => (u.outsideRequest === undefined ? [] : [u.outsideRequest])),
      ...(await filesNamedIn(instruction, focus.root)),
    ]),
  ].filter((path) => !focus.files.some((f) => f.path === path));
  if (outside.length > 0) {
    const them = outside.length === 1 ? 'it' : 'them';
    stream.markdown(
      `\n${outside.map(inlineCode).join(', ')} ${outside.length === 1 ? 'is' : 'are'} not part of this request, so the model planned without ${them}: add ${them} with ${outside.map((p) => inlineCode(`#file:${p}`)).join(' ')} and ask again.\n`,
    );
  }
  stream.markdown(
    `\nThe plan cost ${formatCount(result.usage.inputTokens)} tokens in, ${formatCount(result.usage.outputTokens)} out (${result.model}): the model saw the outline, no bodies` +
      (savingOf(result.usage.inputTokens, result.wholeFileTokens) === undefined
        ? '.\n'
        : `, ${savingOf(result.usage.inputTokens, result.wholeFileTokens)} than the ${formatCount(result.wholeFileTokens)} tokens of the whole file${focus.files.length === 1 ? '' : 's'}.\n`),
  );

  const known: KnownFocus = {
    root: focus.root.toString(),
    origin: 'the elements the plan named',
    files: focus.files
      .map((file) =>
        plan.wholeFiles.includes(file.path)
          ? { path: file.path, focus: [], whole: true }
          : { path: file.path, focus: plan.elements.filter((e) => e.file === file.path).map((e) => e.element.path) },
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

/** How many paths of an instruction are looked up: a pasted log must not cost a lookup per word. */
const MAX_NAMED_PATHS = 10;

/**
 * The workspace files an instruction names by their relative path (`src/persist.ts`), those that exist: a file named
 * in words is not part of the request, and the answer says how to add it (issue 29). `#file:` references are
 * attached already and skipped.
 */
async function filesNamedIn(instruction: string, root: vscode.Uri): Promise<string[]> {
  const named = [...new Set(instruction.match(/(?<![\w#:/.-])[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z]\w*\b/g) ?? [])];
  const found: string[] = [];
  for (const path of named.slice(0, MAX_NAMED_PATHS)) {
    if (path.split('/').includes('..')) continue;
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(root, path));
      if (stat.type === vscode.FileType.File) found.push(path);
    } catch {
      // Not a file of the workspace: a word with a dot in it.
    }
  }
  return found;
}
