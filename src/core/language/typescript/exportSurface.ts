import type { ts } from 'ts-morph';
import type { TypeScriptModule } from './typescriptRuntime';

/**
 * What importers of a module can see of it, as text: every export with its kind and type (inferred types included),
 * the members, signatures and index signatures of exported classes, interfaces, aliases and enums (with enum
 * values). Equal before and after an edit, the edit changed nothing an importer can depend on, so the importers
 * need no new check. Undefined when that cannot be told: a script (no module), a file that augments modules or the
 * global scope, or anything that throws.
 */
export function exportSurface(
  program: ts.Program,
  sourceFile: ts.SourceFile,
  ts: TypeScriptModule,
): string | undefined {
  try {
    if (!ts.isExternalModule(sourceFile)) return undefined;
    if (
      sourceFile.statements.some(
        (s) => ts.isModuleDeclaration(s) && (s.flags & ts.NodeFlags.GlobalAugmentation || ts.isStringLiteral(s.name)),
      )
    ) {
      return undefined;
    }
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(sourceFile);
    if (module === undefined) return undefined;
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.WriteArrayAsGenericType;
    const typeText = (type: ts.Type): string => checker.typeToString(type, undefined, flags);
    const membersOf = (type: ts.Type, at: ts.Node): string[] => [
      ...checker.getPropertiesOfType(type).map((p) => {
        const declaration = p.valueDeclaration ?? p.declarations?.[0];
        const modifiers = declaration === undefined ? 0 : ts.getCombinedModifierFlags(declaration);
        return `${p.name}${p.flags & ts.SymbolFlags.Optional ? '?' : ''}#${modifiers}:${typeText(checker.getTypeOfSymbolAtLocation(p, declaration ?? at))}`;
      }),
      ...checker.getSignaturesOfType(type, ts.SignatureKind.Call).map((sig) => `call${checker.signatureToString(sig)}`),
      ...checker
        .getSignaturesOfType(type, ts.SignatureKind.Construct)
        .map((sig) => `new${checker.signatureToString(sig)}`),
      ...checker
        .getIndexInfosOfType(type)
        .map((info) => `[${typeText(info.keyType)}]${info.isReadonly ? 'ro' : ''}:${typeText(info.type)}`),
    ];
    const parts = checker
      .getExportsOfModule(module)
      .map((exported) => {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = target.valueDeclaration ?? target.declarations?.[0] ?? sourceFile;
        const lines = [`${exported.name}=${target.name}@${target.flags}`];
        if (target.flags & ts.SymbolFlags.Value) {
          const type = checker.getTypeOfSymbolAtLocation(target, declaration);
          lines.push(typeText(type), ...membersOf(type, declaration));
        }
        if (target.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Enum)) {
          const declared = checker.getDeclaredTypeOfSymbol(target);
          lines.push(typeText(declared), ...membersOf(declared, declaration));
          for (const parameter of (declared as ts.InterfaceType).typeParameters ?? []) {
            const constraint = parameter.getConstraint();
            const fallback = parameter.getDefault();
            lines.push(
              `<${typeText(parameter)} extends ${constraint === undefined ? '' : typeText(constraint)} = ${fallback === undefined ? '' : typeText(fallback)}>`,
            );
          }
          for (const node of target.declarations ?? []) {
            if (ts.isEnumDeclaration(node))
              for (const member of node.members)
                lines.push(`${member.name.getText()}=${String(checker.getConstantValue(member))}`);
            if (ts.isTypeAliasDeclaration(node)) lines.push(node.type.getText());
          }
        }
        return lines.join('\n');
      })
      .sort();
    return parts.join('\n\n');
  } catch {
    return undefined;
  }
}
