import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { constructorNameProblems, hasLoneCr, orderProblems, problemAt } from '../treeSitter/compilerRules';

/**
 * What javac's parser refuses that tree-sitter-java accepts: a second `package` declaration, or one or an import
 * after the types of the file; a member (a method, a field, a block) outside every type; a constructor not named after
 * its class (javac reads it as a method without a return type); a reserved word where a name goes (tree-sitter reads
 * `return x;` among members as a field of type `return`, `returnFz null;` as a variable named `null`); an expression
 * statement of an expression that is not one (`+ a + "b";`, `x;`); a field of an interface or an annotation type
 * without its value; an instance field of a record; an enum constant with a modifier other than an annotation (a
 * constructor created among the constants is read as one). Found by the language fuzz (issue 25).
 */

/** What a compilation unit may hold at its top level (JEP 445's implicit classes are a preview javac refuses). */
const TOP_LEVEL = new Set([
  'package_declaration',
  'import_declaration',
  'module_declaration',
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
  'line_comment',
  'block_comment',
  'ERROR',
]);

/**
 * Java's reserved keywords and its three literals that look like names (JLS 3.9, 3.10): never an identifier. The
 * contextual keywords (`var`, `yield`, `record`, `sealed`, `permits`, `module`...) are names elsewhere, and `_`, a
 * keyword from Java 9, names an unnamed variable from Java 22 on; none of these is here.
 */
const RESERVED = new Set(
  'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while'.split(
    ' ',
  ),
);
const LITERALS = new Set(['true', 'false', 'null']);

/** The expressions javac takes as a statement (JLS 14.8; javac's TreeInfo.isExpressionStatement). */
const STATEMENT_EXPRESSIONS = new Set([
  'assignment_expression',
  'update_expression',
  'method_invocation',
  'object_creation_expression',
  // `switch (x) { ... };` is a switch statement and an empty one for javac, a switch expression statement here.
  'switch_expression',
]);

const INTERFACE_BODIES = new Set(['interface_body', 'annotation_type_body']);

function reservedWordProblem(node: Node): SyntaxProblem | undefined {
  const word = node.text;
  // `case null, default ->` (Java 21): tree-sitter-java reads its `default` as a name.
  if (word === 'default' && node.parent?.type === 'switch_label') return undefined;
  if (RESERVED.has(word)) return problemAt(node, `'${word}' is a keyword, and may not be used as an identifier`);
  if (LITERALS.has(word)) return problemAt(node, `'${word}' is a literal, and may not be used as an identifier`);
  return undefined;
}

/**
 * An expression statement javac refuses. A switch rule's expression is left alone: a switch expression's may be any
 * expression, and tree-sitter-java reads a switch statement as a switch expression too.
 */
function expressionStatementProblem(statement: Node): SyntaxProblem | undefined {
  if (statement.parent?.type === 'switch_rule') return undefined;
  const expression = statement.namedChildren.find(
    (child) => child.type !== 'line_comment' && child.type !== 'block_comment',
  );
  if (expression === undefined || STATEMENT_EXPRESSIONS.has(expression.type) || expression.type === 'ERROR')
    return undefined;
  return problemAt(statement, 'not a statement');
}

/** An interface's (an annotation type's) fields are constants: javac's parser wants each one's value. */
function constantProblems(declaration: Node): SyntaxProblem[] {
  if (!INTERFACE_BODIES.has(declaration.parent?.type ?? '')) return [];
  return declaration
    .childrenForFieldName('declarator')
    .filter((declarator) => declarator.childForFieldName('value') === null)
    .map((declarator) => problemAt(declarator, '= expected'));
}

/** A record's fields are static (its state is its components). */
function recordFieldProblem(field: Node): SyntaxProblem | undefined {
  if (field.parent?.type !== 'class_body' || field.parent.parent?.type !== 'record_declaration') return undefined;
  const modifiers = field.namedChildren.find((child) => child.type === 'modifiers');
  if (modifiers?.children.some((modifier) => modifier.type === 'static') === true) return undefined;
  return problemAt(field, 'field declaration must be static');
}

const ANNOTATIONS = new Set(['marker_annotation', 'annotation', 'line_comment', 'block_comment']);

/** An enum constant takes annotations only: `private I18nUtil() { },` among the constants is none. */
function enumConstantProblem(constant: Node): SyntaxProblem | undefined {
  const modifiers = constant.namedChildren.find((child) => child.type === 'modifiers');
  const modifier = modifiers?.children.find((child) => !ANNOTATIONS.has(child.type));
  return modifier === undefined ? undefined : problemAt(modifier, 'enum constant expected here');
}

/** One pass over the tree for the names, the statements, the fields and the enum constants. */
function treeProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const types = [
    'identifier',
    'type_identifier',
    'expression_statement',
    'constant_declaration',
    'field_declaration',
    'enum_constant',
  ];
  for (const node of root.descendantsOfType(types)) {
    if (node === null) continue;
    switch (node.type) {
      case 'expression_statement': {
        const problem = expressionStatementProblem(node);
        if (problem !== undefined) problems.push(problem);
        break;
      }
      case 'constant_declaration':
        problems.push(...constantProblems(node));
        break;
      case 'field_declaration': {
        const problem = recordFieldProblem(node);
        if (problem !== undefined) problems.push(problem);
        break;
      }
      case 'enum_constant': {
        const problem = enumConstantProblem(node);
        if (problem !== undefined) problems.push(problem);
        break;
      }
      default: {
        const problem = reservedWordProblem(node);
        if (problem !== undefined) problems.push(problem);
      }
    }
  }
  return problems;
}

export function javaCompilerProblems(root: Node, text: string): SyntaxProblem[] {
  const loneCr = hasLoneCr(text);
  return [
    ...(loneCr ? [] : root.namedChildren)
      .filter((node) => !TOP_LEVEL.has(node.type))
      .map((node) => problemAt(node, 'class, interface, enum, or record expected')),
    ...orderProblems(root.namedChildren, {
      stages: [['package_declaration'], ['import_declaration']],
      once: ['package_declaration'],
      ignored: (type) => type === 'line_comment' || type === 'block_comment',
      message: () => 'class, interface, enum, or record expected',
    }),
    ...constructorNameProblems(
      root,
      ['class_declaration', 'enum_declaration', 'record_declaration'],
      ['constructor_declaration', 'compact_constructor_declaration'],
      'invalid method declaration; return type required',
    ),
    ...(loneCr ? [] : treeProblems(root)),
  ];
}
