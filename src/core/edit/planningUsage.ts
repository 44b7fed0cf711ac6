import { wordsOfTask } from '../context/taskWords';
import type { ElementNode, FileOutline } from '../elements/element';

/**
 * What the planning outline says beside a signature so the model finds the place to change (issue 18): which
 * elements of the file use it (`used by render, onKeyDown`), and which words of the task its code holds (`mentions
 * escape, close`). Names and signatures alone hid the fix of a real commit in `private onKeyDown = …`. Read from the
 * file's text only (no type checker): an identifier index over the leaf elements, built once per outline, so a
 * 14,000-line file costs a few milliseconds.
 */

/** Kinds whose uses are worth naming: what code calls or reads. */
const USED_KINDS: ReadonlySet<string> = new Set(['function', 'method', 'property', 'getter', 'setter', 'variable']);
/** At most this many users are named; the rest are counted. */
const MAX_USERS = 3;
/** At most this many elements get a `mentions` note: the ones holding the most words of the task. */
const MAX_MENTIONING = 8;
/** A task word found in more than this share of the file's elements tells nothing about where to look. */
const COMMON_SHARE = 0.2;

export interface UsageNotes {
  /** Note per element path. */
  readonly notes: ReadonlyMap<string, string>;
  /** Elements whose code holds words of the task: the outline keeps them listed in full. */
  readonly relevant: ReadonlySet<string>;
}

interface Leaf {
  readonly element: ElementNode;
  /** Identifiers of its code. */
  readonly identifiers: ReadonlySet<string>;
  /** Names read as members (`x.name`, `this.name`, `this.#name`). */
  readonly members: ReadonlySet<string>;
  /** Lowercased words of its code, identifiers split at camelCase and underscores, string contents included. */
  readonly words: ReadonlySet<string>;
}

export function usageNotes(outline: FileOutline, instruction: string): UsageNotes {
  const leaves = leavesOf(outline.elements).map((element) => leafOf(outline.text, element));
  const notes = new Map<string, string>();
  const add = (path: string, note: string): void => {
    const previous = notes.get(path);
    notes.set(path, previous === undefined ? note : `${previous}; ${note}`);
  };

  const byIdentifier = indexBy(leaves, (leaf) => leaf.identifiers);
  const byMember = indexBy(leaves, (leaf) => leaf.members);
  for (const element of named(outline.elements)) {
    const isMember = element.path.split('/').length > 2;
    const users = (isMember ? byMember : byIdentifier)
      .get(element.name)
      ?.filter((leaf) => leaf.element !== element && !leaf.element.path.startsWith(`${element.path}/`));
    if (users === undefined || users.length === 0) continue;
    const names = [...new Set(users.map((leaf) => displayName(leaf.element)))];
    const shown = names.slice(0, MAX_USERS).join(', ');
    add(element.path, `used by ${shown}${names.length > MAX_USERS ? ` +${names.length - MAX_USERS}` : ''}`);
  }

  const relevant = new Set<string>();
  const taskWords = wordsOfTask(instruction);
  if (taskWords.length > 0 && leaves.length > 0) {
    const limit = Math.max(2, Math.floor(leaves.length * COMMON_SHARE));
    const telling = taskWords.filter((word) => leaves.filter((leaf) => leaf.words.has(word)).length <= limit);
    const mentioning = leaves
      .map((leaf) => ({ leaf, words: telling.filter((word) => leaf.words.has(word)) }))
      .filter((m) => m.words.length > 0)
      .sort((a, b) => b.words.length - a.words.length || a.leaf.element.startLine - b.leaf.element.startLine)
      .slice(0, MAX_MENTIONING);
    for (const { leaf, words } of mentioning) {
      relevant.add(leaf.element.path);
      add(leaf.element.path, `mentions ${words.join(', ')}`);
    }
  }
  return { notes, relevant };
}

/** Elements without members (and containers' own code is their members'): where code that uses things lives. */
function leavesOf(elements: readonly ElementNode[]): ElementNode[] {
  return elements.flatMap((element) =>
    element.kind === 'import' || element.kind === 'export'
      ? []
      : element.children.length === 0
        ? [element]
        : leavesOf(element.children),
  );
}

function named(elements: readonly ElementNode[]): ElementNode[] {
  return elements.flatMap((element) => [
    ...(USED_KINDS.has(element.kind) && /^[A-Za-z_$#][\w$]*$/.test(element.name) ? [element] : []),
    ...named(element.children),
  ]);
}

function leafOf(text: string, element: ElementNode): Leaf {
  // The declaration's own name is not a use of it: the code after the head is.
  const code = text.slice(element.bodyRange?.start ?? element.declarationRange.start, element.range.end);
  const identifiers = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const members = new Set([...code.matchAll(/\.\s*(#?[A-Za-z_$][\w$]*)/g)].map((m) => m[1] ?? ''));
  const words = new Set(
    (code.match(/[A-Za-z][a-z]*|[A-Z]+(?![a-z])/g) ?? []).map((w) => w.toLowerCase()).filter((w) => w.length >= 3),
  );
  return { element, identifiers, members, words };
}

function indexBy(leaves: readonly Leaf[], keys: (leaf: Leaf) => ReadonlySet<string>): Map<string, Leaf[]> {
  const index = new Map<string, Leaf[]>();
  for (const leaf of leaves) {
    for (const key of keys(leaf)) {
      const list = index.get(key);
      if (list === undefined) index.set(key, [leaf]);
      else list.push(leaf);
    }
  }
  return index;
}

function displayName(element: ElementNode): string {
  return element.name.length > 0 ? element.name : element.kind;
}
