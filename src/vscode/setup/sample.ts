import * as vscode from 'vscode';
import { UserFacingError } from '../userError';

/**
 * The walkthrough's "try it on a sample": a small TypeScript file in the workspace (created only after the user
 * agrees), opened with the cursor in a method, and the edit command offered with an instruction to try.
 */

export const SAMPLE_FILE = 'scalpel-sample.ts';
export const SAMPLE_INSTRUCTION = 'also reject e-mail addresses whose domain has no dot';

const SAMPLE = `// A sample to try Scalpel on: put the cursor in a method and run "Scalpel: Edit Element at Cursor"
// (Ctrl+Alt+E, Cmd+Alt+E on macOS). Delete this file when you are done.

export type Role = 'admin' | 'editor' | 'viewer';

export class Account {
  private lastLogin: Date | undefined;

  constructor(
    public readonly id: number,
    public name: string,
    public email: string,
    public role: Role = 'viewer',
  ) {}

  validate(): string[] {
    const problems: string[] = [];
    if (this.name.trim().length === 0) problems.push('name is empty');
    if (!/^[^@\\s]+@[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
    return problems;
  }

  canEdit(): boolean {
    return this.role === 'admin' || this.role === 'editor';
  }

  recordLogin(at: Date = new Date()): void {
    this.lastLogin = at;
  }

  isDormant(now: Date = new Date(), afterDays = 90): boolean {
    if (!this.lastLogin) return true;
    const days = (now.getTime() - this.lastLogin.getTime()) / 86_400_000;
    return days > afterDays;
  }

  displayName(): string {
    return this.role === 'admin' ? \`\${this.name} (admin)\` : this.name;
  }
}

export function findByEmail(accounts: readonly Account[], email: string): Account | undefined {
  const wanted = email.toLowerCase();
  return accounts.find((account) => account.email.toLowerCase() === wanted);
}

export function admins(accounts: readonly Account[]): Account[] {
  return accounts.filter((account) => account.role === 'admin');
}
`;

export interface SampleResult {
  readonly path: string;
  readonly created: boolean;
}

/** `confirmed: true` (the tests) creates the file without asking. */
export async function tryOnSample(given: unknown): Promise<SampleResult | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) {
    throw new UserFacingError(
      'Open a folder first: Scalpel edits the files of a workspace folder. Then run "Scalpel: Try It on a Sample" again.',
    );
  }
  const uri = vscode.Uri.joinPath(folder.uri, SAMPLE_FILE);
  let created = false;
  if (!(await exists(uri))) {
    const confirmed =
      (given as { confirmed?: unknown } | undefined)?.confirmed === true ||
      (await vscode.window.showInformationMessage(
        `Scalpel will create ${SAMPLE_FILE} in ${folder.name} to try an edit on. Delete it when you are done.`,
        { modal: true },
        'Create Sample',
      )) === 'Create Sample';
    if (!confirmed) return undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(SAMPLE));
    created = true;
  }
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.includes("problems.push('email is not an address')"));
  if (line >= 0) {
    const position = new vscode.Position(line, 4);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
  }
  void vscode.window
    .showInformationMessage(
      `The cursor is in validate(). Run "Scalpel: Edit Element at Cursor" (Ctrl+Alt+E) and ask, for example: "${SAMPLE_INSTRUCTION}".`,
      'Edit validate()',
    )
    .then((action) => {
      if (action !== undefined) void vscode.commands.executeCommand('scalpel.editElementAtCursor');
    });
  return { path: SAMPLE_FILE, created };
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
