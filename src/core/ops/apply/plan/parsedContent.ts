import type { ContainerFlavor, ContentShape } from '../../../language/languageSupport';
import { memberWords, parseHint } from '../contentChecks';
import { dedentAfterFirst } from '../reindent';
import { COMMA_FLAVORS, type PlanState } from './planState';

/**
 * The content of a CREATE or REPLACE as it will stand in its container: without the trailing comma a comma-separated
 * container adds itself, parsed as that container's members. Fails the operation (and returns undefined) when it does
 * not parse there.
 */
export function parsedContent(
  state: PlanState,
  index: number,
  label: string,
  content: string,
  flavor: ContainerFlavor,
): { body: string; shape: ContentShape; isComma: boolean } | undefined {
  const isComma = COMMA_FLAVORS.has(flavor);
  let body = isComma ? state.withoutTrailingComma(content) : content;
  let shape = state.editor.shapeOf(body, flavor);
  const problem = shape.syntaxErrors[0];
  if (problem !== undefined && state.indentBlocks) {
    // Where indentation is syntax, text cut from the file at the element's first token (`@property` at column 0, the
    // `def` below it still at the class's indentation) parses only once its other lines are taken back to column 0.
    const dedented = dedentAfterFirst(body, { style: state.style.indent, scanCode: state.scanCode });
    const dedentedShape = dedented === undefined ? undefined : state.editor.shapeOf(dedented, flavor);
    if (dedented !== undefined && dedentedShape !== undefined && dedentedShape.syntaxErrors.length === 0) {
      body = dedented;
      shape = dedentedShape;
    }
  }
  if (problem !== undefined && shape.syntaxErrors.length > 0) {
    state.fail(index, {
      message: `${label}: the content does not parse as ${memberWords(flavor)}: ${problem.message} (line ${problem.line} of the content)`,
      hint: parseHint(flavor),
    });
    return undefined;
  }
  return { body, shape, isComma };
}
