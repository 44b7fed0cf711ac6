import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { constructorNameProblems, type OrderRule, orderProblems } from '../treeSitter/compilerRules';

/**
 * What the C# compiler refuses that tree-sitter-c-sharp accepts: a using directive after the members of its
 * namespace (CS1529; a file-scoped namespace starts its own directives), and a constructor not named after its type
 * (CS1520). The machines this was built on have no .NET SDK to check against: the rules come from the language
 * specification, and the unit tests hold them.
 */
const USINGS_FIRST: OrderRule = {
  stages: [['extern_alias_directive'], ['using_directive'], ['global_attribute']],
  ignored: (type) => type === 'comment' || type.startsWith('preproc_'),
  message: (type) =>
    type === 'global_attribute'
      ? 'CS1730: Assembly and module attributes must precede all other elements defined in a file except using clauses and extern alias declarations'
      : 'CS1529: A using clause must precede all other elements defined in the namespace except extern alias declarations',
};

export function csharpCompilerProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  // The compilation unit, split where a file-scoped namespace starts (its usings come after it).
  const top = root.namedChildren;
  const fileScoped = top.findIndex((node) => node.type === 'file_scoped_namespace_declaration');
  problems.push(...orderProblems(fileScoped < 0 ? top : top.slice(0, fileScoped), USINGS_FIRST));
  if (fileScoped >= 0) problems.push(...orderProblems(top.slice(fileScoped + 1), USINGS_FIRST));
  for (const namespace of root.descendantsOfType('namespace_declaration')) {
    const body = namespace?.childForFieldName('body');
    if (body !== null && body !== undefined) problems.push(...orderProblems(body.namedChildren, USINGS_FIRST));
  }
  problems.push(
    ...constructorNameProblems(
      root,
      ['class_declaration', 'struct_declaration', 'record_declaration', 'record_struct_declaration'],
      ['constructor_declaration'],
      'CS1520: Method must have a return type',
    ),
  );
  return problems;
}
