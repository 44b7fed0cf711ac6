import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { constructorNameProblems, type OrderRule, orderProblems, problemAt } from '../treeSitter/compilerRules';

/**
 * What the C# compiler refuses that tree-sitter-c-sharp accepts: a using directive after the members of its
 * namespace (CS1529; a file-scoped namespace starts its own directives), also inside `#if`; a constructor not named
 * after its type (CS1520); a member or a statement directly in a namespace (CS0116), a top-level statement after a
 * namespace or a type (CS8803) or with a member's modifier (`public void M() {}` outside every type: CS0116); a
 * namespace or a using directive inside a type (CS1519); an accessor other than get, set, init, add and remove
 * (CS1014, `getFz;`); a declaration or a label as the body of an if, a loop, a using or a lock (CS1023); a C-style
 * array declarator, `int a[3];` (CS0650); a reserved keyword as a name (CS1041); a field named by a tuple, a statement
 * among a type's members (CS1519). Found by the language fuzz against mono's C# parser (issue 25); the messages
 * are Roslyn's.
 */
const USINGS_FIRST: OrderRule = {
  stages: [['extern_alias_directive'], ['using_directive'], ['global_attribute']],
  ignored: (type) => type === 'comment' || type.startsWith('preproc_'),
  message: (type) =>
    type === 'global_attribute'
      ? 'CS1730: Assembly and module attributes must precede all other elements defined in a file except using clauses and extern alias declarations'
      : 'CS1529: A using clause must precede all other elements defined in the namespace except extern alias declarations',
};

const PREPROCESSOR_BRANCHES = new Set(['preproc_if', 'preproc_elif', 'preproc_else', 'preproc_region']);

/**
 * Declarations as the compiler sees their order: what `#if`, `#elif`, `#else` and `#region` hold is read in place (a
 * using directive in an `#if` after a class is still after it), the condition of each left out.
 */
function inOrder(nodes: readonly Node[]): Node[] {
  const flat: Node[] = [];
  for (const node of nodes) {
    if (!PREPROCESSOR_BRANCHES.has(node.type)) {
      flat.push(node);
      continue;
    }
    const condition = node.childForFieldName('condition');
    flat.push(...inOrder(node.namedChildren.filter((child) => child.id !== condition?.id)));
  }
  return flat;
}

const TYPE_DECLARATIONS = new Set([
  'class_declaration',
  'struct_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'record_struct_declaration',
  'delegate_declaration',
]);

/** What a namespace holds (ECMA-334 14.6): namespaces and types, after their using directives. */
const NAMESPACE_MEMBERS = new Set([
  ...TYPE_DECLARATIONS,
  'namespace_declaration',
  'using_directive',
  'extern_alias_directive',
  'global_attribute',
  'comment',
  'ERROR',
]);

// A proposal for a later C# ("top-level members", csharplang issue 9803) would let a namespace hold methods and
// fields; no released compiler takes them.
const IN_NAMESPACE = 'CS0116: A namespace cannot directly contain members such as fields, methods or statements';

/** Modifiers of a type's members that no local function or local variable takes. */
const MEMBER_MODIFIERS = new Set([
  'public',
  'private',
  'protected',
  'internal',
  'abstract',
  'virtual',
  'override',
  'sealed',
  'new',
  'readonly',
  'volatile',
  'partial',
]);

function memberModifier(statement: Node): Node | undefined {
  const declaration = statement.namedChildren[0];
  if (declaration?.type !== 'local_function_statement' && declaration?.type !== 'local_declaration_statement')
    return undefined;
  const modifiers = declaration.namedChildren.filter((child) => child.type === 'modifier');
  return modifiers.find(
    (modifier) =>
      MEMBER_MODIFIERS.has(modifier.text) ||
      // `static int x;` is a field: a local variable is never static (a local function may be).
      (modifier.text === 'static' && declaration.type === 'local_declaration_statement'),
  );
}

/** The members of a namespace body (or of the file after a file-scoped namespace) that a namespace cannot hold. */
function namespaceMemberProblems(members: readonly Node[]): SyntaxProblem[] {
  return inOrder(members)
    .filter((node) => !NAMESPACE_MEMBERS.has(node.type) && !node.type.startsWith('preproc_'))
    .map((node) => problemAt(node, IN_NAMESPACE));
}

/** Top-level statements: before every namespace and type, and statements (a local function is one), not members. */
function topLevelProblems(top: readonly Node[]): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  let declared = false;
  for (const node of inOrder(top)) {
    if (TYPE_DECLARATIONS.has(node.type) || node.type === 'namespace_declaration') declared = true;
    if (node.type !== 'global_statement') continue;
    if (memberModifier(node) !== undefined) problems.push(problemAt(node, IN_NAMESPACE));
    else if (declared)
      problems.push(problemAt(node, 'CS8803: Top-level statements must precede namespace and type declarations.'));
  }
  return problems;
}

const TYPE_BODY_OWNERS = new Set([...TYPE_DECLARATIONS].filter((type) => type !== 'delegate_declaration'));

/** A namespace or a using directive among a type's members. */
function typeMemberProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const node of root.descendantsOfType(['namespace_declaration', 'using_directive'])) {
    if (node === null) continue;
    let parent = node.parent;
    while (parent !== null && PREPROCESSOR_BRANCHES.has(parent.type)) parent = parent.parent;
    if (parent?.type !== 'declaration_list' || !TYPE_BODY_OWNERS.has(parent.parent?.type ?? '')) continue;
    const word = node.type === 'namespace_declaration' ? 'namespace' : 'using';
    problems.push(
      problemAt(node, `CS1519: Invalid token '${word}' in class, record, struct, or interface member declaration`),
    );
  }
  return problems;
}

const ACCESSOR_NAMES = new Set(['get', 'set', 'init', 'add', 'remove']);

/**
 * C#'s reserved keywords (ECMA-334 6.4.4): never a name unless written with `@`. tree-sitter-c-sharp reads
 * `return x.F<T>();` among a class's members as a method of return type `return`. The contextual keywords (`var`,
 * `async`, `record`, `value`...) are names elsewhere, and none is here.
 */
const KEYWORDS = new Set(
  'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while'.split(
    ' ',
  ),
);

/** The bodies that take an embedded statement (ECMA-334 13.1): not a declaration, not a labeled statement. */
const EMBEDDED_BODIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['if_statement', ['consequence', 'alternative']],
  ['while_statement', ['body']],
  ['do_statement', ['body']],
  ['for_statement', ['body']],
  ['foreach_statement', ['body']],
  ['using_statement', ['body']],
  // The grammar names no field of these two: the statement is their last child.
  ['lock_statement', []],
  ['fixed_statement', []],
];
const NOT_EMBEDDED = new Set(['local_declaration_statement', 'local_function_statement', 'labeled_statement']);

function statementProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const owners = new Map(EMBEDDED_BODIES);
  const types = [...owners.keys(), 'accessor_declaration', 'variable_declarator', 'identifier'];
  for (const node of root.descendantsOfType(types)) {
    if (node === null) continue;
    if (node.type === 'identifier') {
      if (KEYWORDS.has(node.text))
        problems.push(problemAt(node, `CS1041: Identifier expected; '${node.text}' is a keyword`));
    } else if (node.type === 'accessor_declaration') {
      const name = node.childForFieldName('name');
      if (name !== null && !ACCESSOR_NAMES.has(name.text))
        problems.push(
          problemAt(
            name,
            node.parent?.parent?.type === 'event_declaration'
              ? 'CS1055: An add or remove accessor expected'
              : 'CS1014: A get or set accessor expected',
          ),
        );
    } else if (node.type === 'variable_declarator') {
      // `promise.Resolve(url);` among a class's members: a field of type `promise.Resolve` named by a tuple.
      const tuple = node.namedChildren.find((child) => child.type === 'tuple_pattern');
      if (tuple !== undefined && node.parent?.parent?.type === 'field_declaration')
        problems.push(
          problemAt(tuple, "CS1519: Invalid token '(' in class, record, struct, or interface member declaration"),
        );
      const brackets = node.namedChildren.find((child) => child.type === 'bracketed_argument_list');
      if (brackets !== undefined && !isFixedBuffer(node))
        problems.push(
          problemAt(
            brackets,
            "CS0650: Bad array declarator: To declare a managed array the rank specifier precedes the variable's identifier. To declare a fixed size buffer field, use the fixed keyword before the field type.",
          ),
        );
    } else {
      const fields = owners.get(node.type) ?? [];
      const bodies =
        fields.length === 0 ? [node.namedChildren.at(-1) ?? null] : fields.map((f) => node.childForFieldName(f));
      for (const body of bodies) {
        if (body !== null && NOT_EMBEDDED.has(body.type))
          problems.push(problemAt(body, 'CS1023: Embedded statement cannot be a declaration or labeled statement'));
      }
    }
  }
  return problems;
}

/** `fixed int a[3];`, a struct's fixed-size buffer: the one declarator written with its size after its name. */
function isFixedBuffer(declarator: Node): boolean {
  const field = declarator.parent?.parent;
  return (
    field?.type === 'field_declaration' &&
    field.namedChildren.some((child) => child.type === 'modifier' && child.text === 'fixed')
  );
}

export function csharpCompilerProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  // The compilation unit, split where a file-scoped namespace starts (its usings come after it).
  const top = root.namedChildren;
  const fileScoped = top.findIndex((node) => node.type === 'file_scoped_namespace_declaration');
  const head = fileScoped < 0 ? top : top.slice(0, fileScoped);
  problems.push(...orderProblems(inOrder(head), USINGS_FIRST), ...topLevelProblems(head));
  if (fileScoped >= 0) {
    const rest = top.slice(fileScoped + 1);
    problems.push(...orderProblems(inOrder(rest), USINGS_FIRST), ...namespaceMemberProblems(rest));
  }
  for (const namespace of root.descendantsOfType('namespace_declaration')) {
    const body = namespace?.childForFieldName('body');
    if (body !== null && body !== undefined)
      problems.push(
        ...orderProblems(inOrder(body.namedChildren), USINGS_FIRST),
        ...namespaceMemberProblems(body.namedChildren),
      );
  }
  problems.push(
    ...constructorNameProblems(
      root,
      // In an interface too: the compiler reads a constructor there as a method without its return type.
      [
        'class_declaration',
        'struct_declaration',
        'record_declaration',
        'record_struct_declaration',
        'interface_declaration',
      ],
      ['constructor_declaration'],
      'CS1520: Method must have a return type',
    ),
    ...typeMemberProblems(root),
    ...statementProblems(root),
  );
  return problems;
}
