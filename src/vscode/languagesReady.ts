import * as vscode from 'vscode';
import { extensionOf, LANGUAGE_CATALOG } from '../core/language/languageCatalog';
import type { Ctx } from './ctx';

/** Extensions of the languages whose parser loads on first use (a tree-sitter grammar). */
const LAZY_EXTENSIONS = new Set(LANGUAGE_CATALOG.filter((l) => l.grammar !== undefined).flatMap((l) => l.extensions));

/**
 * Loads the parsers of the languages of the open documents (and of `paths`) before a command reads them: the core
 * parses synchronously, and a grammar loads asynchronously on the first file of its language. A no-op, the engine
 * left unloaded, when no such file is involved.
 */
export async function languagesReady(ctx: Ctx, paths: Iterable<string> = []): Promise<void> {
  const all = [...vscode.workspace.textDocuments.map((d) => d.uri.path), ...paths];
  if (!all.some((path) => LAZY_EXTENSIONS.has(extensionOf(path)))) return;
  await ctx.engine().loadLanguagesFor(all);
}

/** The paths a chat request references with `#` (files and locations). */
export function referencedPaths(request: vscode.ChatRequest): string[] {
  return request.references.flatMap((reference) => {
    const value = reference.value;
    if (value instanceof vscode.Uri) return [value.path];
    if (value instanceof vscode.Location) return [value.uri.path];
    return [];
  });
}
