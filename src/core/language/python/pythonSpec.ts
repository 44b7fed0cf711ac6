import type { Node } from 'web-tree-sitter';
import type { ElementKind } from '../../elements/element';
import { PYTHON_INFO } from '../languageCatalog';
import { hasLoneCr } from '../treeSitter/compilerRules';
import type { ContainerFlavor } from '../languageSupport';
import {
  type Declaration,
  type ParentInfo,
  STAND_IN_NAME,
  type TreeSitterLanguageSpec,
} from '../treeSitter/languageSpec';
import { pythonImports } from './pythonImports';
import { pythonParserProblems } from './pythonParserRules';
import { futureImportProblems, pythonLines } from './pythonRules';
import { pythonScopeProblems } from './pythonScopeRules';
import { scanPython } from './pythonScan';

/**
 * Python: classes, functions, methods (`@property` ones as getter and setter), nested functions and classes,
 * module-level variables and class attributes, imports, and the other top-level statements. Decorators and the
 * comments directly above a definition are in its range; a docstring is inside the body, so in the range too.
 */

const FUNCTION_KINDS = new Set<ElementKind | undefined>(['function', 'method', 'getter', 'setter']);

function decoratorsOf(node: Node): string[] {
  const wrapper = node.parent;
  if (wrapper?.type !== 'decorated_definition') return [];
  return wrapper.namedChildren.filter((c) => c.type === 'decorator').map((d) => d.text.slice(1).trim());
}

function functionKind(node: Node, name: string, parent: ParentInfo): ElementKind {
  if (parent.kind !== 'class') return 'function';
  const decorators = decoratorsOf(node);
  if (decorators.some((d) => d === 'property' || d === 'functools.cached_property' || d === 'cached_property'))
    return 'getter';
  if (decorators.some((d) => d === `${name}.setter`)) return 'setter';
  return 'method';
}

/** The target of an assignment statement, when the statement is one (`x = 1`, `x: int`, `a = b = 2`). */
function assignmentTarget(node: Node): string | undefined {
  if (node.type !== 'expression_statement' || node.namedChildCount !== 1) return undefined;
  const assignment = node.namedChildren[0];
  if (assignment?.type !== 'assignment') return undefined;
  const left = assignment.childForFieldName('left');
  return left === null ? undefined : left.text.replace(/\s+/g, ' ');
}

/** A short label for another top-level statement: `if`, `try`, or the callee of a call (`app.run`). */
function statementLabel(node: Node): string {
  if (node.type === 'expression_statement') {
    const expression = node.namedChildren[0];
    if (expression?.type === 'call') {
      const callee = expression.childForFieldName('function');
      if (callee !== null) return callee.text.replace(/\s+/g, '');
    }
    if (expression?.type === 'augmented_assignment') {
      return expression.childForFieldName('left')?.text.replace(/\s+/g, ' ') ?? 'assignment';
    }
    return expression?.type ?? 'expression';
  }
  return node.type.replace(/_statement$/, '');
}

function isDocstring(node: Node): boolean {
  return node.type === 'expression_statement' && node.namedChildCount === 1 && node.namedChildren[0]?.type === 'string';
}

function declarationOf(node: Node, parent: ParentInfo): Declaration | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  switch (node.type) {
    case 'class_definition':
      return { kind: 'class', name, body: node.childForFieldName('body'), flavor: 'class' };
    case 'function_definition':
      return {
        kind: functionKind(node, name, parent),
        name,
        body: node.childForFieldName('body'),
        flavor: 'namespace',
      };
    case 'import_statement':
    case 'import_from_statement':
    case 'future_import_statement':
      return parent.kind === undefined ? { kind: 'import', name: pythonImports.nameOf(node), body: null } : undefined;
  }
  if (FUNCTION_KINDS.has(parent.kind)) return undefined;
  const target = assignmentTarget(node);
  if (target !== undefined)
    return { kind: parent.kind === 'class' ? 'property' : 'variable', name: target, body: null };
  if (parent.kind !== undefined || isDocstring(node)) return undefined;
  return { kind: 'statement', name: statementLabel(node), body: null };
}

/** A decorator over several lines with a comment in it: joined on one line, the comment would swallow the rest. */
function withoutComments(code: string): string {
  const { comments } = scanPython(code);
  let out = '';
  let at = 0;
  for (const comment of comments) {
    out += code.slice(at, comment.start);
    at = comment.end;
  }
  return out + code.slice(at);
}

/**
 * A definition's head up to its `:`, on one line: a comment between the `:` and the body (tree-sitter leaves it
 * outside the block) is no part of it.
 */
function signatureOf(node: Node, text: string): string | undefined {
  const body = node.childForFieldName('body');
  if (body === null) return undefined;
  const colon = node.children.filter((c) => c.type === ':' && c.endIndex <= body.startIndex).at(-1);
  if (colon === undefined) return undefined;
  return text.slice(node.startIndex, colon.startIndex).replace(/\s+/g, ' ').trim();
}

/** Content for a container is parsed inside a stand-in of it, indented one level. */
function wrapContent(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string } {
  if (flavor === 'file') return { text: content, prefixLines: 0, indent: '' };
  const indent = '    ';
  const body = content
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
  return {
    text: `${flavor === 'class' ? `class ${STAND_IN_NAME}:` : `def ${STAND_IN_NAME}():`}\n${body}\n`,
    prefixLines: 1,
    indent,
  };
}

export const pythonSpec: TreeSitterLanguageSpec = {
  info: PYTHON_INFO,
  fenceTag: 'python',
  declarationOf,
  unwrap: (node) =>
    node.type === 'decorated_definition' ? (node.childForFieldName('definition') ?? undefined) : undefined,
  // An attribute docstring (PEP 257, read by Sphinx): the string on the line right after an assignment documents it.
  decoratorsOf: (_node, outer) =>
    outer.type === 'decorated_definition'
      ? outer.namedChildren.filter((c) => c.type === 'decorator').map((d) => withoutComments(d.text))
      : [],
  isPlaceholder: (node) =>
    node.type === 'pass_statement' ||
    (node.type === 'expression_statement' && node.namedChildCount === 1 && node.namedChildren[0]?.type === 'ellipsis'),
  trails: (node, next) => assignmentTarget(node) !== undefined && isDocstring(next),
  commentTypes: ['comment'],
  // A shebang and an encoding declaration must stay the file's first lines: they head the file, never an element.
  isFileComment: (node) =>
    (node.startPosition.row === 0 && node.text.startsWith('#!')) ||
    (node.startPosition.row <= 1 && /^#.*?coding[:=][ \t]*[-\w.]+/.test(node.text)),
  nonEmptyTypes: ['block'],
  compilerProblems: (root, text) => {
    const lines = pythonLines(text);
    return [
      ...lines.problems,
      ...futureImportProblems(root, text),
      ...(hasLoneCr(text) ? [] : [...pythonScopeProblems(root), ...pythonParserProblems(root, lines)]),
    ];
  },
  syntax: {
    lineComment: '#',
    blocks: 'indent',
    elidedBody: ': …',
    ellipsisIsCode: true,
    emptyBody: 'pass',
    docstrings: true,
  },
  scanCode: scanPython,
  wrapContent,
  signatureOf,
  imports: pythonImports,
};
