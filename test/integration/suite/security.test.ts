import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type AcceptResult, type EditResult, resetWorkspace, setSetting } from './editTestSupport';
import { openWorkspaceFile, scalpelExtensionOrThrow, stubModalWarnings, waitFor, workspaceUri } from './helpers';

// Issue 17 in the real host: the VS Code write path passes the same gate as the CLI's writer. Answers come in through
// "Apply Operations from Clipboard" (no model needed) and are accepted from the preview.

const OUTSIDE_TEXT = 'export function leak(): string {\n  return "outside";\n}\n';

function fenced(header: string, code: string, lang = 'ts'): string {
  return `${header}\n\`\`\`${lang}\n${code}\`\`\`\n`;
}

/** Pastes an answer, previews it and accepts it: what a user does with a model's answer from another chat. */
async function pasteAndAccept(answer: string): Promise<{ preview: EditResult; accepted: AcceptResult | undefined }> {
  await vscode.env.clipboard.writeText(answer);
  await openWorkspaceFile('src/user.ts');
  const preview = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;
  if (preview.status !== 'preview' || preview.editId === undefined) return { preview, accepted: undefined };
  const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', preview.editId)) as AcceptResult;
  // A refused accept leaves the edit pending; it must not reach the next test.
  if (accepted.status === 'failed') await vscode.commands.executeCommand('scalpel.rejectEdit', preview.editId);
  return { preview, accepted };
}

describe('Writes: containment and protected paths in the VS Code host', () => {
  let outside: string;

  before(async () => {
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
    await setSetting('preview', 'always');
    outside = await mkdtemp(join(tmpdir(), 'scalpel-outside-'));
    await writeFile(join(outside, 'leak.ts'), OUTSIDE_TEXT);
    await symlink(join(outside, 'leak.ts'), workspaceUri('src/linked.ts').fsPath);
    await symlink(outside, workspaceUri('linkdir').fsPath);
  });

  afterEach(() => resetWorkspace());

  after(async () => {
    await setSetting('preview', undefined);
    for (const path of ['src/linked.ts', 'linkdir', '.vscode/tasks.json', '.git']) {
      await rm(workspaceUri(path).fsPath, { force: true, recursive: true });
    }
    await rm(outside, { force: true, recursive: true });
  });

  it('refuses a symlinked file that points outside the workspace', async () => {
    const answer = fenced(
      'REPLACE_ELEMENT src/linked.ts/function[leak]',
      'export function leak(): string {\n  return "pwned";\n}\n',
    );
    const { preview, accepted } = await pasteAndAccept(answer);
    const message = accepted?.message ?? preview.message ?? '';
    assert.equal(accepted?.status ?? preview.status, 'failed', message);
    assert.match(message, /src\/linked\.ts.*outside the workspace/);
    assert.equal(await readFile(join(outside, 'leak.ts'), 'utf8'), OUTSIDE_TEXT);
  });

  it('refuses a file in a symlinked folder that points outside the workspace', async () => {
    const replace = await pasteAndAccept(
      fenced('REPLACE_ELEMENT linkdir/leak.ts/function[leak]', 'export function leak(): string {\n  return "x";\n}\n'),
    );
    assert.equal(replace.accepted?.status ?? replace.preview.status, 'failed');
    assert.match(
      replace.accepted?.message ?? replace.preview.message ?? '',
      /linkdir\/leak\.ts.*outside the workspace/,
    );
    const create = await pasteAndAccept(fenced('CREATE_FILE linkdir/planted.ts', 'export const planted = 1;\n'));
    // Stopped by the pre-write gate before any preview, in the words of the CLI's (test/unit/write/oneGate.test.ts).
    assert.equal(create.preview.status, 'failed');
    assert.equal(
      create.preview.message,
      'linkdir/planted.ts: it resolves through a symbolic link to a place outside the workspace; nothing was written',
    );
    assert.equal(await readFile(join(outside, 'leak.ts'), 'utf8'), OUTSIDE_TEXT);
    await assert.rejects(readFile(join(outside, 'planted.ts'), 'utf8'));
  });

  it('asks before writing .vscode/tasks.json, naming the file, and writes nothing on Cancel', async () => {
    await mkdir(workspaceUri('.vscode').fsPath, { recursive: true });
    await writeFile(workspaceUri('.vscode/tasks.json').fsPath, '{}\n');
    const answer = fenced(
      'REPLACE_FILE .vscode/tasks.json',
      '{ "version": "2.0.0", "tasks": [{ "label": "x", "type": "shell", "command": "echo pwned", "runOptions": { "runOn": "folderOpen" } }] }\n',
      'json',
    );
    const cancel = stubModalWarnings(undefined);
    let refused;
    try {
      refused = await pasteAndAccept(answer);
    } finally {
      cancel.restore();
    }
    assert.equal(cancel.asked.length, 1, `one modal question: ${cancel.asked.join(' | ')}`);
    assert.match(cancel.asked[0] ?? '', /\.vscode\/tasks\.json/);
    assert.equal(refused.accepted?.status, 'failed');
    assert.equal(await readFile(workspaceUri('.vscode/tasks.json').fsPath, 'utf8'), '{}\n');

    const allow = stubModalWarnings('Allow');
    let allowed;
    try {
      allowed = await pasteAndAccept(answer);
    } finally {
      allow.restore();
    }
    assert.equal(allow.asked.length, 1);
    assert.notEqual(allowed.accepted?.status, 'failed', allowed.accepted?.message);
    const document = await vscode.workspace.openTextDocument(workspaceUri('.vscode/tasks.json'));
    assert.match(document.getText(), /echo pwned/);
  });

  it('never writes .git/config, and does not even ask', async () => {
    await mkdir(workspaceUri('.git').fsPath, { recursive: true });
    await writeFile(workspaceUri('.git/config').fsPath, '[core]\n\tbare = false\n');
    const modal = stubModalWarnings('Allow');
    let result;
    try {
      result = await pasteAndAccept(fenced('REPLACE_FILE .git/config', '[core]\n\tfsmonitor = "echo pwned"\n', 'ini'));
    } finally {
      modal.restore();
    }
    assert.deepEqual(modal.asked, []);
    assert.equal(result.preview.status, 'failed', 'stopped by the pre-write gate before any preview');
    assert.equal(
      result.preview.message,
      '.git/config: it is inside .git, version-control data that can run programs; nothing was written',
    );
    assert.equal(await readFile(workspaceUri('.git/config').fsPath, 'utf8'), '[core]\n\tbare = false\n');
  });
});
