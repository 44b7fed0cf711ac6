/**
 * Whether the caller of the compiler work under way has given up on it, asked wherever a language's semantics ask a
 * cancellation token (TypeScript: a reference search between files, a type check between statements). The code
 * graph's worker sets it (src/core/tools/graph/graphWorker.ts): a cancelled call stops the compiler instead of
 * leaving the next call to wait for it. TypeScript then throws its OperationCanceledException.
 */
let cancelled: () => boolean = () => false;

export function setCancellationCheck(check: () => boolean): void {
  cancelled = check;
}

export function cancellationRequested(): boolean {
  return cancelled();
}
