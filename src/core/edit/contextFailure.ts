import { ContextBudgetError } from '../context/buildContext';
import { ElementNotFoundError } from '../elements/resolve';
import { adviceFor, type Advice, type FailureKind } from './advice';

/**
 * Why a context could not be built, in the one wording every surface uses (`scalpel context`, `scalpel edit`, the
 * palette, the chat), or undefined for an error that is not about the context.
 */
export function contextFailureOf(
  error: unknown,
): { readonly failure: string; readonly kind: FailureKind; readonly advice: Advice } | undefined {
  const kind: FailureKind | undefined =
    error instanceof ContextBudgetError
      ? { kind: 'budget' }
      : error instanceof ElementNotFoundError
        ? { kind: 'focus' }
        : undefined;
  if (kind === undefined || !(error instanceof Error)) return undefined;
  return { failure: error.message, kind, advice: adviceFor(kind) };
}
