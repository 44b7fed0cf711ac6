import type { ContainerFlavor, ContentShape } from '../../../language/languageSupport';
import { memberWords, parseHint } from '../contentChecks';
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
  const body = isComma ? state.withoutTrailingComma(content) : content;
  const shape = state.editor.shapeOf(body, flavor);
  const problem = shape.syntaxErrors[0];
  if (problem !== undefined) {
    state.fail(index, {
      message: `${label}: the content does not parse as ${memberWords(flavor)}: ${problem.message} (line ${problem.line} of the content)`,
      hint: parseHint(flavor),
    });
    return undefined;
  }
  return { body, shape, isComma };
}
