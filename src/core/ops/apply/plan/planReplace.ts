import type { ElementNode } from '../../../elements/element';
import type { ContainerFlavor } from '../../../language/languageSupport';
import type { ReplaceElementOperation } from '../../operation';
import { describeElement } from '../contentChecks';
import { normalizeContent, reindentReplacing, withoutFirstIndent } from '../reindent';
import { indentOfLine, toLf, withEol } from '../textStyle';
import { parsedContent } from './parsedContent';
import { withoutLeadingImports } from './planImports';
import type { PlanState, Target } from './planState';

/** REPLACE_ELEMENT: the new text of an element, checked to declare the same element and laid out in its place. */

export function planReplace(state: PlanState, index: number, op: ReplaceElementOperation): void {
  const content = normalizeContent(op.content);
  if (content === '') {
    state.fail(index, {
      message: `REPLACE_ELEMENT ${op.path} has no content`,
      hint: 'to remove the element use DELETE_ELEMENT; to change it, write the whole new element',
    });
    return;
  }
  const resolved = state.resolve(index, op.path);
  if (resolved === undefined) return;
  const { element, node } = resolved;
  const label = `REPLACE_ELEMENT ${node.path}`;
  const oldText = state.text.slice(node.range.start, node.range.end);
  if (state.refusePlaceholder(index, content, oldText)) return;
  const key = state.keyOf(node.range);
  const existing = state.targets.get(key);
  if (existing !== undefined) {
    const first = (existing.ops[0] ?? 0) + 1;
    const reason =
      existing.state === 'deleted'
        ? `operation #${first} deletes ${describeElement(node)}`
        : existing.state === 'patched'
          ? `operation #${first} patches ${describeElement(node)}; replacing it afterwards would silently drop that patch`
          : `operation #${first} already replaces ${describeElement(node)}`;
    state.fail(index, {
      message: `${label} conflicts with the batch: ${reason}`,
      hint: 'send one REPLACE_ELEMENT with the final version of the element',
    });
    return;
  }
  const probe = state.newTarget(element, node, index, 'replaced', '');
  if (state.collides(index, probe.range, label)) return;
  const code =
    probe.flavor === 'file' && element.kind !== 'import'
      ? withoutLeadingImports(state, index, label, content)
      : content;
  if (code === undefined) return;
  if (probe.declarator !== undefined) {
    planDeclaratorReplace(state, index, probe, code, label);
    return;
  }
  const newText = replacementText(state, index, label, node, probe.flavor, code, oldText, element);
  if (newText === undefined) return;
  state.targets.set(key, { ...probe, text: newText });
}

/** The text that replaces `node.range`, checked to declare the same element; undefined after a failure. */
export function replacementText(
  state: PlanState,
  index: number,
  label: string,
  node: ElementNode,
  flavor: ContainerFlavor,
  content: string,
  oldText: string,
  element: ElementNode = node,
): string | undefined {
  const parsed = parsedContent(state, index, label, content, flavor);
  if (parsed === undefined) return undefined;
  const { shape, isComma } = parsed;
  let { body } = parsed;
  if (!state.checkDeclaresOrRename(index, label, shape.elements, element, node)) return undefined;
  if (!isComma && shape.statementLike && !shape.terminated) {
    const oldEnd = oldText.trimEnd();
    const terminator = oldEnd.endsWith(';') ? ';' : oldEnd.endsWith(',') ? ',' : '';
    if (terminator !== '') body = state.withTerminator(body, terminator);
  }
  if (flavor === 'file' || flavor === 'namespace') body = state.editor.keepModifiers(body, node);
  const keepsDoc =
    !startsWithComment(body) && endsWithDocComment(state.text.slice(node.range.start, node.declarationRange.start));
  const indent = indentOfLine(state.text, node.range.start);
  const lines = withoutFirstIndent(
    reindentReplacing(
      body,
      { indent, style: state.style.indent, scanCode: state.scanCode, indentBlocks: state.indentBlocks },
      toLf(oldText).replace(/\r/g, ''),
    ),
    indent,
  );
  const written = withEol(lines.join('\n'), state.style.eol);
  return keepsDoc ? state.text.slice(node.range.start, node.declarationRange.start) + written : written;
}

/** A replace of one declarator of `const a = 1, b = 2`; see DeclaratorEditing.readContent. */
export function planDeclaratorReplace(
  state: PlanState,
  index: number,
  probe: Target,
  content: string,
  label: string,
): void {
  const info = probe.declarator;
  const declarators = state.editor.declarators;
  if (info === undefined || declarators === undefined) return;
  const read = declarators.readContent(info, content, probe.element.name);
  if (read.kind === 'invalid') {
    state.fail(index, { message: `${label}: ${read.message}`, hint: read.hint });
    return;
  }
  const code =
    read.kind === 'statement' && state.semicolons && !/;\s*$/.test(read.code)
      ? state.withTerminator(read.code, ';')
      : read.code;
  const indent = indentOfLine(state.text, info.statementStart);
  const original = toLf(state.text.slice(probe.range.start, probe.range.end));
  const lines = withoutFirstIndent(
    reindentReplacing(code, { indent, style: state.style.indent, scanCode: state.scanCode, indentBlocks: state.indentBlocks }, original),
    indent,
  );
  const text = withEol(lines.join('\n'), state.style.eol);
  state.targets.set(state.keyOf(probe.range), { ...probe, text, split: read.kind === 'statement' });
}

/** Whether the comments above a declaration end with a doc comment (`/** ... *\/`), the one a replace keeps. */
function endsWithDocComment(leading: string): boolean {
  return /\/\*\*(?:[^*]|\*(?!\/))*\*\/\s*$/.test(leading);
}

function startsWithComment(code: string): boolean {
  return /^(?:\/\/|\/\*)/.test(code.trimStart());
}
