import type { ContextFileRequest } from '../context/buildContext';
import type { TokenCounter } from '../context/tokens';
import type { ElementNode } from '../elements/element';
import { resolveElementPath } from '../elements/resolve';
import type { Logger } from '../logger';
import {
  clip,
  describeReferences,
  type ElementReferences,
  moreSitesLine,
  type ReferenceFinder,
  referencesHeading,
  type ReferenceSite,
  searchGapLines,
  SYNTAX_SEARCH,
} from './references';
import type { OverlayText } from './semantics';

/**
 * Where the focused elements are used, as the per-file appendix of the focused context (issue 18): a model that
 * adds a parameter to a function sees its callers, each as the enclosing element's path and the line itself. Only
 * the elements whose signature an edit may change are looked up (functions, methods, properties, accessors,
 * variables); uses inside an element the model already sees in full are left out. The appendices share one token
 * budget, split evenly between the elements; an element over its share lists fewer sites and ends with
 * "… and N more in <files>". Sites are grouped by file, the path written once: the element's own file first, then
 * the other files, tests last (issue 28). The edit pipeline asks for them only when they pay ({@link referencesPay}).
 */

/**
 * Words of a task that say a signature or an export is about to change, so the callers are worth their tokens: a
 * parameter or argument, a return type, a rename, the export itself, async, visibility, deprecation.
 */
const SIGNATURE_WORDS =
  /\b(?:signatures?|param(?:eter)?s?|arg(?:ument)?s?|options? (?:object|bag)|callers?|call ?sites?|usages?|return(?:s|ing)? (?:type|a |an |the )|rename[ds]?|renaming|un-?export(?:ed|s)?|export(?:ed|s)?|async|await(?:able)?|overloads?|deprecat\w*|public|private|protected|static|breaking|api|interface of)\b/i;

/** Whether the task's words say a focused element's signature or export is likely to change. */
export function referencesPay(instruction: string): boolean {
  return SIGNATURE_WORDS.test(instruction);
}

/** A test file, whose uses are listed last. */
function isTestFile(file: string): boolean {
  return /(?:^|\/)(?:__tests__|tests?|spec)\/|[._-](?:test|spec)s?\.[^/]+$/.test(file);
}

/** Kinds whose signature an edit may change and whose users then break. */
const SIGNATURE_KINDS: ReadonlySet<string> = new Set([
  'function',
  'method',
  'property',
  'getter',
  'setter',
  'variable',
]);

/** Budget of all appendices when the context has none: about what twelve call sites of three elements cost. */
export const DEFAULT_REFERENCES_BUDGET = 1_200;
/** Share of the context budget the appendices may take. */
const BUDGET_SHARE = 0.1;
/** The most sites listed per element, whatever the budget. */
const MAX_SITES = 12;
/**
 * Files searched per element besides its own, direct importers first: the compiler checks each one it searches, and
 * on the corpus a search of hundreds of files took tens of seconds. The type check still sees every caller.
 */
export const CONTEXT_MAX_FILES = 20;
/**
 * Time the search of one element may take, in ms, once the compiler's program is ready. On a large project (zod) a
 * method's search type-checks every file that mentions its name and took up to 19 s; past the limit its appendix
 * says it was not searched in time.
 */
export const CONTEXT_REFERENCES_MS = 2_000;

export interface ContextReferencesOptions {
  /** The context's token budget; the appendices take at most a tenth of it. */
  readonly contextBudget?: number;
  readonly logger?: Logger;
  /** Time each element's search may take, in ms; default {@link CONTEXT_REFERENCES_MS}. */
  readonly timeLimitMs?: number;
}

export interface ContextReferences {
  /** Appendix per file (workspace path) of the request. */
  readonly appendices: ReadonlyMap<string, string>;
  /** Tokens of all appendices. */
  readonly tokens: number;
  /** Elements looked up. */
  readonly elements: number;
  /** Sites found (before the budget cut). */
  readonly sites: number;
  /** Elements whose search the time limit cut short. */
  readonly cutShort: number;
}

export function referencesBudgetOf(contextBudget: number | undefined): number {
  return contextBudget === undefined
    ? DEFAULT_REFERENCES_BUDGET
    : Math.min(DEFAULT_REFERENCES_BUDGET, Math.floor(contextBudget * BUDGET_SHARE));
}

/** The focused elements of a request whose uses matter to an edit of them. */
function lookedUp(request: ContextFileRequest): ElementNode[] {
  const found: ElementNode[] = [];
  for (const path of request.focus) {
    const resolved = resolveElementPath(request.outline, path);
    if (!resolved.ok || !SIGNATURE_KINDS.has(resolved.element.kind) || resolved.element.name.length === 0) continue;
    if (!found.includes(resolved.element)) found.push(resolved.element);
  }
  return found;
}

export function contextReferences(
  finder: ReferenceFinder,
  requests: readonly ContextFileRequest[],
  counter: TokenCounter,
  options: ContextReferencesOptions = {},
): ContextReferences {
  const budget = referencesBudgetOf(options.contextBudget);
  // The request's texts are what the model sees (unsaved editors included): references are found in them.
  const texts = new Map<string, OverlayText>(requests.map((r) => [r.outline.file, r.outline.text]));
  const shownInFull = requests.flatMap((r) => r.focus.map((path) => ({ file: r.outline.file, path })));
  const insideShown = (file: string, elementPath: string | undefined): boolean =>
    elementPath !== undefined &&
    shownInFull.some((s) => s.file === file && (elementPath === s.path || elementPath.startsWith(`${s.path}/`)));

  const found: Array<{ file: string; references: ElementReferences }> = [];
  for (const request of requests) {
    for (const element of lookedUp(request)) {
      try {
        const references = finder.referencesOf(request.outline.file, element.path, {
          texts,
          maxFiles: CONTEXT_MAX_FILES,
          timeLimitMs: options.timeLimitMs ?? CONTEXT_REFERENCES_MS,
        });
        const seenLines = new Set<string>();
        // One line per use: `f(a) && f(b)` is one place to change.
        const sites = references.sites.filter((s) => {
          const key = `${s.file}:${s.line}`;
          if (insideShown(s.file, s.elementPath) || seenLines.has(key)) return false;
          seenLines.add(key);
          return true;
        });
        found.push({ file: request.outline.file, references: { ...references, sites } });
      } catch (error) {
        // The references are an aid: a file the compiler cannot read costs the model the list, never the edit.
        options.logger?.warn(
          `references of ${element.path}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  const share = found.length === 0 ? 0 : Math.floor(budget / found.length);
  const parts = new Map<string, string[]>();
  let tokens = 0;
  for (const { file, references } of found) {
    const text = describeWithin(references, share, counter, file);
    if (text === undefined) continue;
    tokens += counter.count(text) + 1;
    const list = parts.get(file) ?? [];
    list.push(text);
    parts.set(file, list);
  }
  const appendices = new Map([...parts].map(([file, texts]) => [file, texts.join('\n')]));
  return {
    appendices,
    tokens,
    elements: found.length,
    sites: found.reduce((sum, f) => sum + f.references.sites.length, 0),
    cutShort: found.filter((f) => f.references.cutShort === true).length,
  };
}

/** The element's sites as the model reads them, as many as fit `budget` tokens; undefined when not even the header does. */
function describeWithin(
  references: ElementReferences,
  budget: number,
  counter: TokenCounter,
  ownFile: string,
): string | undefined {
  if (references.cutShort === true || references.notSearched !== undefined) {
    const text = describeReferences(references);
    return counter.count(text) <= budget ? text : undefined;
  }
  if (references.sites.length === 0 && references.unsearched === undefined && references.partial === undefined) {
    const how = references.resolution === 'syntax' ? ` (${SYNTAX_SEARCH})` : '';
    const text = `No uses of ${references.target} outside what is shown in full${how}.`;
    return counter.count(text) <= budget ? text : undefined;
  }
  if (references.sites.length === 0) {
    const text = describeReferences(references);
    return counter.count(text) <= budget ? text : undefined;
  }
  for (let limit = Math.min(MAX_SITES, references.sites.length); limit >= 0; limit--) {
    const text = describeGrouped(references, limit, ownFile);
    if (counter.count(text) <= budget) return text;
  }
  return undefined;
}

/**
 * The sites grouped by file, each file's path once and its sites by their element's path within it: the element's
 * own file first, then the others by path, test files last; `limit` sites at most, the rest counted with their files.
 */
export function describeGrouped(references: ElementReferences, limit: number, ownFile: string): string {
  const { target } = references;
  const rank = (site: ReferenceSite): number => (site.file === ownFile ? 0 : isTestFile(site.file) ? 2 : 1);
  const sites = [...references.sites].sort(
    (a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line,
  );
  const byName = sites.filter((s) => s.byName === true).length;
  const lines = [referencesHeading(target, sites)];
  let file: string | undefined;
  for (const site of sites.slice(0, limit)) {
    if (site.file !== file) {
      file = site.file;
      lines.push(`${file}${isTestFile(file) ? ' (test)' : ''}:`);
    }
    const where =
      site.elementPath === undefined
        ? '(top level)'
        : site.elementPath.startsWith(`${site.file}/`)
          ? site.elementPath.slice(site.file.length + 1)
          : site.elementPath;
    lines.push(
      `- ${where}: ${clip(site.lineText)}${site.byName === true && byName < sites.length ? '  (by name)' : ''}`,
    );
  }
  if (sites.length > limit) lines.push(moreSitesLine(sites.slice(limit)));
  lines.push(...searchGapLines(references));
  return lines.join('\n');
}
