import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import * as vscode from 'vscode';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import {
  actions,
  answerAfter,
  ask,
  lastTranscript,
  leaveScriptedModel,
  markdownOf,
  type Transcript,
  USER_TS,
  userMessageOf,
  useScriptedModel,
} from './chatTestSupport';
import { resetWorkspace } from './editTestSupport';
import { openWorkspaceFile, stubModalWarnings, workspaceUri } from './helpers';

// Issue 29, items 3 and 5 in the chat: Apply says what it wrote, in a reply below the answer (an answer cannot change
// once shown), and a protected file the user did not name is asked about, with the safe answer writing nothing.

async function placeCursor(path: string, text: string): Promise<void> {
  const editor = await openWorkspaceFile(path);
  const offset = editor.document.getText().indexOf(text);
  assert.ok(offset >= 0, `${text} is in ${path}`);
  const position = editor.document.positionAt(offset);
  editor.selection = new vscode.Selection(position, position);
}

/** Puts a file Apply wrote back to its text, through its document (so an open editor follows), and saves it. */
async function putBack(uri: vscode.Uri, original: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
  await vscode.workspace.applyEdit(edit);
  await document.save();
}

/** Clicks an answer's Apply link (a command link: the command with its arguments) and returns the reply to it. */
async function clickApply(answer: Transcript): Promise<Transcript> {
  const apply = actions(answer).find((a) => a.title.startsWith('Apply'));
  assert.ok(apply, `an Apply link in: ${markdownOf(answer)}`);
  const before = (await lastTranscript())?.sequence ?? 0;
  await vscode.commands.executeCommand(apply.command, ...apply.arguments);
  return answerAfter(before, 'the reply to Apply');
}

/** Clicks Apply with every question it asks closed unanswered (the safe answer); `modal.asked` lists them. */
async function clickApplyClosingQuestions(
  answer: Transcript,
): Promise<{ reply: Transcript; modal: ReturnType<typeof stubModalWarnings> }> {
  const modal = stubModalWarnings(undefined);
  try {
    return { reply: await clickApply(answer), modal };
  } finally {
    modal.restore();
  }
}

describe('@scalpel Apply: what it wrote, and protected files', function () {
  this.timeout(90_000);
  let server: ScriptedLlmServer;

  before(async () => {
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await useScriptedModel(server.openaiBaseUrl);
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  afterEach(async () => {
    await resetWorkspace();
    await rm(workspaceUri('.vscode/tasks.json').fsPath, { force: true });
  });

  after(async () => {
    await leaveScriptedModel();
    await server.close();
  });

  it('Apply of a protected file the user did not name asks, naming it; the safe answer writes nothing and says so', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    server.enqueue(
      scripted.answer(
        'CREATE_FILE .vscode/tasks.json\n```json\n{ "version": "2.0.0", "tasks": [{ "label": "x", "type": "shell", "command": "echo pwned", "runOptions": { "runOn": "folderOpen" } }] }\n```\n',
      ),
    );
    const answer = await ask('@scalpel /edit add a build task');
    assert.match(markdownOf(answer), /Ready to apply/);

    const { reply, modal } = await clickApplyClosingQuestions(answer);
    assert.equal(modal.asked.length, 1, modal.asked.join(' | '));
    assert.match(modal.asked[0] ?? '', /Scalpel wants to write \.vscode\/tasks\.json, a protected file/);
    const text = markdownOf(reply);
    assert.match(text, /\*\*Nothing was written:\*\* \.vscode\/tasks\.json: it is protected/);
    assert.match(text, /scalpel\.allowWrite/);
    await assert.rejects(readFile(workspaceUri('.vscode/tasks.json').fsPath, 'utf8'));
  });

  it('Apply of a #file-referenced .vscode/settings.json writes it without asking and says what it wrote', async () => {
    const uri = workspaceUri('.vscode/settings.json');
    const original = await readFile(uri.fsPath, 'utf8');
    const settings = JSON.parse(original) as Record<string, unknown>;
    const changed = `${JSON.stringify({ ...settings, 'editor.rulers': [120] }, null, 2)}\n`;
    await placeCursor(USER_TS, "problems.push('name is empty')");
    server.enqueue(scripted.answer(`REPLACE_FILE .vscode/settings.json\n\`\`\`json\n${changed}\`\`\`\n`));
    try {
      const answer = await ask('@scalpel /edit add a ruler at column 120', [uri]);
      assert.match(markdownOf(answer), /Ready to apply:\*\* 1 change in `\.vscode\/settings\.json`/);
      const { reply, modal } = await clickApplyClosingQuestions(answer);
      assert.deepEqual(modal.asked, [], 'a file attached with # counts as named');
      assert.match(markdownOf(reply), /\*\*Applied:\*\* wrote 1 change in `\.vscode\/settings\.json`/);
      const document = await vscode.workspace.openTextDocument(uri);
      assert.match(document.getText(), /"editor\.rulers"/);
    } finally {
      await putBack(uri, original);
    }
  });

  it('asked from the editor of .vscode/settings.json, the file goes to the model, and Apply writes it: the user named it', async () => {
    const uri = workspaceUri('.vscode/settings.json');
    const original = await readFile(uri.fsPath, 'utf8');
    const settings = JSON.parse(original) as Record<string, unknown>;
    const changed = `${JSON.stringify({ ...settings, 'editor.rulers': [100] }, null, 2)}\n`;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const sent = server.requests.length;
    server.enqueue(scripted.answer(`REPLACE_FILE .vscode/settings.json\n\`\`\`json\n${changed}\`\`\`\n`));
    try {
      const answer = await ask('@scalpel /edit add a ruler at column 100');
      const request = server.requests.slice(sent).find((r) => r.path === '/v1/chat/completions');
      assert.equal(
        server.requests.slice(sent).filter((r) => r.path === '/v1/chat/completions').length,
        1,
        'one model round',
      );
      assert.match(userMessageOf(request), /files\.autoSave/, 'the file went to the model');
      assert.match(markdownOf(answer), /Ready to apply:\*\* 1 change in `\.vscode\/settings\.json`/);
      const { reply, modal } = await clickApplyClosingQuestions(answer);
      assert.deepEqual(modal.asked, [], 'the file asked from its editor counts as named');
      assert.match(markdownOf(reply), /\*\*Applied:\*\* wrote 1 change in `\.vscode\/settings\.json`/);
    } finally {
      await putBack(uri, original);
    }
  });

  it('a second Apply of the same edit says it was applied already', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    server.enqueue(
      scripted.answer(
        "REPLACE_ELEMENT src/user.ts/class[User]/method[canEdit]\n```ts\ncanEdit(): boolean {\n  return this.role !== 'viewer';\n}\n```\n",
      ),
    );
    await placeCursor(USER_TS, "return this.role === 'admin' || this.role === 'editor'");
    const uri = workspaceUri(USER_TS);
    const original = await readFile(uri.fsPath, 'utf8');
    try {
      const answer = await ask('@scalpel /edit viewers cannot edit');
      const first = await clickApply(answer);
      assert.match(markdownOf(first), /\*\*Applied:\*\* wrote 1 change in `src\/user\.ts`/);
      const second = await clickApply(answer);
      assert.match(markdownOf(second), /was applied already/);
    } finally {
      // Apply wrote the file: the later suites read the fixture as it was.
      await putBack(uri, original);
    }
  });
});
