import type { ElementNode, FileOutline } from '../../../src/core/elements/element';
import { walkElements } from '../../../src/core/elements/resolve';
import type { CreatePosition, Operation, SearchReplacePair } from '../../../src/core/ops/operation';

/**
 * The cases of the language fuzz (languages.fuzz.test.ts): answers a model could send about a real file of the
 * language corpus, drawn from a seeded random source. Material is real code: an element is replaced by itself or by
 * another element of its kind (from any file of the language), laid out the ways models lay code out (as cut from the
 * file, dedented, indented, with the other indentation character, with CRLF) or mutated the ways models get code
 * wrong (a line dropped or doubled, indentation off by a few columns, a bracket lost, a BOM or trailing spaces).
 * Elements are created at every position, patched line by line, deleted; imports added from the corpus's own import
 * declarations and removed. Nothing here knows a language's syntax but its import examples.
 */

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}

/** A real file of the corpus in one of its layouts (as shipped, with a BOM, CRLF, lone CR, tab-indented). */
export interface FuzzFile {
  readonly path: string;
  readonly variant: string;
  readonly text: string;
  readonly outline: FileOutline;
}

/** An element's code as a model would copy it: from its first token (comments above included) to its end. */
export interface Snippet {
  readonly kind: string;
  /** Cut form: the first line without its indentation, the others as in the file. */
  readonly code: string;
  /** The indentation of its first line in its file. */
  readonly indent: string;
}

/** The code of every element of some files, by kind; long ones left out to keep cases quick. */
export function snippetsOf(files: readonly FuzzFile[], maxLength = 3_000): Map<string, Snippet[]> {
  const byKind = new Map<string, Snippet[]>();
  for (const file of files) {
    if (file.variant !== 'as shipped') continue;
    for (const element of walkElements(file.outline.elements)) {
      const code = file.text.slice(element.range.start, element.range.end);
      if (code.length > maxLength) continue;
      const list = byKind.get(element.kind) ?? [];
      list.push({ kind: element.kind, code, indent: indentOfLine(file.text, element.range.start) });
      byKind.set(element.kind, list);
    }
  }
  return byKind;
}

/** Import declarations of the corpus, and a few a model would write, for ADD_IMPORT. */
export function importsOf(files: readonly FuzzFile[], language: string): string[] {
  const found = new Set<string>(EXTRA_IMPORTS[language] ?? []);
  for (const file of files) {
    if (file.variant !== 'as shipped') continue;
    for (const element of file.outline.elements) {
      if (element.kind === 'import') found.add(file.text.slice(element.declarationRange.start, element.range.end));
    }
  }
  return [...found].sort();
}

const EXTRA_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  python: [
    'from __future__ import annotations',
    'from __future__ import division, print_function',
    'import os',
    'import os, sys',
    'from typing import Any, Optional',
    'from . import compat',
    'from .util import (\n    first,\n    second,\n)',
  ],
  go: ['"fmt"', 'import "strings"', 'import (\n\t"os"\n\t"sort"\n)', 'f "fmt"'],
  rust: ['use std::fmt;', 'use std::collections::{HashMap, HashSet};', 'std::io::Read', 'use crate::Error;'],
  java: ['import java.util.List;', 'import static java.lang.Math.max;', 'java.util.Map', 'import java.io.*;'],
  csharp: [
    'using System;',
    'using System.Linq;',
    'using static System.Math;',
    'System.Text',
    'using Env = System.Environment;',
  ],
};

export function indentOfLine(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text.charCodeAt(start - 1) !== 10 && text.charCodeAt(start - 1) !== 13) start -= 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

/** The other indentation character: tabs for runs of 4 spaces, 4 spaces for a tab. */
function otherIndentation(line: string): string {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  const swapped = indent.includes('\t') ? indent.replace(/\t/g, '    ') : indent.replace(/ {4}/g, '\t');
  return swapped + line.slice(indent.length);
}

const LAYOUTS = ['cut', 'cut', 'dedented', 'indented', 'other character', 'crlf', 'mutated', 'mutated'] as const;

const IDENTIFIER = /\b[A-Za-z_][A-Za-z0-9_]*\b/g;

/** A snippet as a model would send it, laid out or mutated one of the ways above. */
export function laidOut(random: Random, snippet: Snippet): { content: string; how: string } {
  const layout = pick(random, LAYOUTS) ?? 'cut';
  const lines = snippet.code.split(/\r?\n/);
  const inner = lines.slice(1);
  switch (layout) {
    case 'cut':
      return { content: lines.join('\n'), how: layout };
    case 'dedented': {
      const cut = snippet.indent.length;
      const dedented = inner.map((l) => (l.startsWith(snippet.indent) ? l.slice(cut) : l.trimStart()));
      return { content: [lines[0] ?? '', ...dedented].join('\n'), how: layout };
    }
    case 'indented':
      return { content: [snippet.indent + (lines[0] ?? ''), ...inner].join('\n'), how: layout };
    case 'other character':
      return { content: [lines[0] ?? '', ...inner.map(otherIndentation)].join('\n'), how: layout };
    case 'crlf':
      return { content: lines.join('\r\n'), how: layout };
    case 'mutated':
      return mutated(random, lines);
  }
}

const MUTATIONS = [
  'rename',
  'drop line',
  'double line',
  'shift line',
  'shift line by a tab',
  'lose last character',
  'bom',
  'trailing spaces',
  'blank lines',
] as const;

function mutated(random: Random, original: readonly string[]): { content: string; how: string } {
  const lines = [...original];
  const kind = pick(random, MUTATIONS) ?? 'rename';
  const at = Math.floor(random() * lines.length);
  const line = lines[at] ?? '';
  switch (kind) {
    case 'rename': {
      const names = [...line.matchAll(IDENTIFIER)];
      const name = pick(random, names);
      if (name !== undefined)
        lines[at] = `${line.slice(0, name.index)}${name[0]}Fz${line.slice(name.index + name[0].length)}`;
      break;
    }
    case 'drop line':
      if (lines.length > 1) lines.splice(at, 1);
      break;
    case 'double line':
      lines.splice(at, 0, line);
      break;
    case 'shift line':
      lines[at] = ' '.repeat(1 + Math.floor(random() * 4)) + line;
      break;
    case 'shift line by a tab':
      lines[at] = `\t${line}`;
      break;
    case 'lose last character': {
      const last = lines.length - 1;
      lines[last] = (lines[last] ?? '').slice(0, -1);
      break;
    }
    case 'bom':
      lines[at] = `\uFEFF${line}`;
      break;
    case 'trailing spaces':
      lines[at] = `${line}   `;
      break;
    case 'blank lines':
      lines.splice(at, 0, '', '');
      break;
  }
  return { content: lines.join('\n'), how: `mutated: ${kind}` };
}

/** The last segment of a child's path, relative to its container's: what BEFORE/AFTER name. */
function siblingName(container: string, child: ElementNode): string {
  return child.path.slice(container.length + 1);
}

const CONTAINER_KINDS = new Set(['class', 'interface', 'enum', 'namespace', 'struct', 'trait', 'impl', 'record']);

/** One drawn operation and what it was, for a failure's report. */
export interface DrawnOperation {
  readonly operation: Operation;
  readonly how: string;
}

export interface CaseMaterial {
  readonly snippets: ReadonlyMap<string, readonly Snippet[]>;
  readonly imports: readonly string[];
}

/** A snippet of the kind wanted, or of any kind when the corpus has none. */
function snippetOf(random: Random, material: CaseMaterial, kind: string | undefined): Snippet | undefined {
  const ofKind = kind === undefined ? undefined : material.snippets.get(kind);
  if (ofKind !== undefined && ofKind.length > 0 && random() < 0.8) return pick(random, ofKind);
  const kinds = [...material.snippets.keys()].filter((k) => k !== 'import');
  const any = material.snippets.get(pick(random, kinds) ?? '');
  return any === undefined ? undefined : pick(random, any);
}

/** The operations of one case: one to three, on the file's own elements. */
export function drawOperations(random: Random, file: FuzzFile, material: CaseMaterial): DrawnOperation[] {
  const elements = [...walkElements(file.outline.elements)];
  const imports = file.outline.elements.filter((e) => e.kind === 'import');
  const containers = elements.filter((e) => e.children.length > 0 || CONTAINER_KINDS.has(e.kind));
  const drawn: DrawnOperation[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const roll = random();
    const element = pick(random, elements);
    if (roll < 0.22 && element !== undefined) {
      const source = random() < 0.5 ? ownSnippet(file, element) : snippetOf(random, material, element.kind);
      if (source === undefined) continue;
      const { content, how } = laidOut(random, source);
      drawn.push({ operation: { type: 'REPLACE_ELEMENT', path: element.path, content }, how: `replace, ${how}` });
    } else if (roll < 0.47) {
      const container = random() < 0.45 ? undefined : pick(random, containers);
      const children = container === undefined ? file.outline.elements : container.children;
      const containerPath = container?.path ?? file.path;
      const sibling = pick(random, children);
      const positionRoll = random();
      const position: CreatePosition =
        sibling === undefined || positionRoll < 0.25
          ? { kind: 'LAST_CHILD' }
          : positionRoll < 0.45
            ? { kind: 'FIRST_CHILD' }
            : positionRoll < 0.7
              ? { kind: 'AFTER', sibling: siblingName(containerPath, sibling) }
              : { kind: 'BEFORE', sibling: siblingName(containerPath, sibling) };
      const source = snippetOf(random, material, pick(random, children)?.kind);
      if (source === undefined) continue;
      const { content, how } = laidOut(random, source);
      const blankLines =
        random() < 0.1 ? { above: Math.floor(random() * 4), below: Math.floor(random() * 4) } : undefined;
      drawn.push({
        operation: {
          type: 'CREATE_ELEMENT',
          path: containerPath,
          position,
          content,
          ...(blankLines === undefined ? {} : { blankLines }),
        },
        how: `create ${position.kind}, ${how}`,
      });
    } else if (roll < 0.67 && element !== undefined) {
      const patch = drawPatch(random, file, element);
      if (patch === undefined) continue;
      drawn.push({ operation: { type: 'PATCH_ELEMENT', path: element.path, patches: [patch.pair] }, how: patch.how });
    } else if (roll < 0.77 && element !== undefined) {
      drawn.push({ operation: { type: 'DELETE_ELEMENT', path: element.path }, how: 'delete' });
    } else if (roll < 0.9) {
      const content = pick(random, material.imports);
      if (content === undefined) continue;
      drawn.push({ operation: { type: 'ADD_IMPORT', path: file.path, content }, how: 'add import' });
    } else if (roll < 0.95) {
      const existing = pick(random, imports);
      if (existing === undefined) continue;
      const content = file.text.slice(existing.declarationRange.start, existing.range.end);
      drawn.push({ operation: { type: 'REMOVE_IMPORT', path: file.path, content }, how: 'remove import' });
    } else if (element !== undefined) {
      // The whole file back with one element laid out as a model would: the fallback operation.
      const source = ownSnippet(file, element);
      const { content, how } = laidOut(random, source);
      const text = file.text.replace(/^\uFEFF/, '');
      const start = element.range.start - (file.text.startsWith('\uFEFF') ? 1 : 0);
      const end = element.range.end - (file.text.startsWith('\uFEFF') ? 1 : 0);
      drawn.push({
        operation: { type: 'REPLACE_FILE', path: file.path, content: text.slice(0, start) + content + text.slice(end) },
        how: `replace file, ${how}`,
      });
    }
  }
  return drawn;
}

function ownSnippet(file: FuzzFile, element: ElementNode): Snippet {
  return {
    kind: element.kind,
    code: file.text.slice(element.range.start, element.range.end),
    indent: indentOfLine(file.text, element.range.start),
  };
}

const PATCH_KINDS = [
  'rename',
  'add a line below',
  'add a line below in the other character',
  'add a line below, dedented',
  'delete the line',
  'reindent the line',
  'two lines',
] as const;

/** A SEARCH/REPLACE pair on one line of an element (written exactly, or trimmed for the tolerant match). */
function drawPatch(
  random: Random,
  file: FuzzFile,
  element: ElementNode,
): { pair: SearchReplacePair; how: string } | undefined {
  const code = file.text.slice(element.range.start, element.range.end);
  const lines = code.split(/\r?\n|\r/);
  const candidates = lines.map((line, i) => ({ line, i })).filter(({ line }) => line.trim().length > 2);
  const chosen = pick(random, candidates);
  if (chosen === undefined) return undefined;
  const kind = pick(random, PATCH_KINDS) ?? 'rename';
  const trimmed = random() < 0.3;
  const search = trimmed ? chosen.line.trim() : chosen.line;
  const indent = /^[ \t]*/.exec(chosen.line)?.[0] ?? '';
  const body = chosen.line.slice(indent.length);
  let replace: string;
  switch (kind) {
    case 'rename': {
      const name = pick(random, [...search.matchAll(IDENTIFIER)]);
      replace =
        name === undefined
          ? search
          : `${search.slice(0, name.index)}${name[0]}Fz${search.slice(name.index + name[0].length)}`;
      break;
    }
    case 'add a line below':
      replace = `${search}\n${indent}${body}`;
      break;
    case 'add a line below in the other character':
      replace = `${search}\n${otherIndentation(indent + body)}`;
      break;
    case 'add a line below, dedented':
      replace = `${search}\n${indent.slice(0, Math.max(0, indent.length - 2))}${body}`;
      break;
    case 'delete the line':
      replace = '';
      break;
    case 'reindent the line':
      replace = trimmed ? `    ${search}` : `${indent}  ${body}`;
      break;
    case 'two lines': {
      const next = lines[chosen.i + 1];
      if (next === undefined) return undefined;
      return {
        pair: { search: `${chosen.line}\n${next}`, replace: `${next}\n${chosen.line}` },
        how: 'patch, two lines swapped',
      };
    }
  }
  return { pair: { search, replace }, how: `patch, ${kind}${trimmed ? ' (search trimmed)' : ''}` };
}
