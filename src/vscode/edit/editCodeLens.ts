import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../config';

/**
 * "Scalpel: Edit" above functions, methods and classes, when the `scalpel.codeLens` setting asks for it (off by
 * default). The places come from the language's document symbols, which the editor has computed anyway, so showing
 * the lenses never loads Scalpel's engine; it loads when one is clicked.
 */

const CODE_LENS_SETTING = 'codeLens';

/**
 * Kinds whose members are elements of their own. A function's or method's document symbols are its callbacks and
 * local declarations: a lens above `items.map(() => ...)` inside a method body would offer to edit a callback
 * (issue 14).
 */
const CONTAINER_KINDS = new Set([
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
  vscode.SymbolKind.Module,
  vscode.SymbolKind.Namespace,
  // An object literal's methods are elements too (`export const api = { get() {...} }`).
  vscode.SymbolKind.Variable,
  vscode.SymbolKind.Constant,
  vscode.SymbolKind.Object,
]);

/** TypeScript names callbacks `map() callback`, `<function>` or `describe('x') callback`: no element to edit. */
function isCallback(symbol: vscode.DocumentSymbol): boolean {
  return symbol.name === '<function>' || / callback$/.test(symbol.name);
}

const EDITABLE_KINDS = new Set([
  vscode.SymbolKind.Function,
  vscode.SymbolKind.Method,
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Constructor,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
]);

export function isEditCodeLensEnabled(): boolean {
  return vscode.workspace.getConfiguration(CONFIG_SECTION).get<boolean>(CODE_LENS_SETTING, false) === true;
}

export class EditCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly listener = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(`${CONFIG_SECTION}.${CODE_LENS_SETTING}`)) this.changed.fire();
  });

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!isEditCodeLensEnabled()) return [];
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    if (token.isCancellationRequested || symbols === undefined) return [];
    const lenses: vscode.CodeLens[] = [];
    const visit = (list: readonly vscode.DocumentSymbol[]): void => {
      for (const symbol of list) {
        // Document symbols may also be the flat SymbolInformation shape, which has no children or selectionRange.
        if (!('selectionRange' in symbol)) continue;
        if (isCallback(symbol)) continue;
        if (EDITABLE_KINDS.has(symbol.kind)) {
          lenses.push(
            new vscode.CodeLens(new vscode.Range(symbol.range.start.line, 0, symbol.range.start.line, 0), {
              title: '$(wand) Scalpel: Edit',
              command: 'scalpel.editElementAtCursor',
              arguments: [undefined, { uri: document.uri, position: symbol.selectionRange.start }],
              tooltip: `Ask the model to change ${symbol.name}, seeing only what it needs`,
            }),
          );
        }
        if (CONTAINER_KINDS.has(symbol.kind)) visit(symbol.children);
      }
    };
    visit(symbols);
    return lenses;
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}
