import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { configure, lastTranscript, userMessageOf } from './chatTestSupport';
import {
  openWorkspaceFile,
  readWorkspaceFileFromDisk,
  scalpelExtensionOrThrow,
  waitFor,
  workspaceUri,
} from './helpers';

// The first minutes of a new user (issue 14), in the profile the run starts with: no Copilot, nothing set up, no
// model ever picked in the chat. This file sorts right after activation.test.ts so that no other suite has used the
// engine, picked a chat model or written settings before it.

interface ScalpelApi {
  readonly engineLoadedDuringActivation: boolean;
  readonly isEngineLoaded: () => boolean;
  readonly wasEngineDemanded: () => boolean;
}

interface CommandResult {
  readonly status?: string;
  readonly message?: string;
  readonly editId?: string;
}

const KEY = 'sk-first-run-4f9a2c';
const MODEL_ID = 'openai:gpt-4o-mini';

const VALIDATE_ANSWER = `REPLACE_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
validate(): string[] {
  const problems: string[] = [];
  if (this.name.trim().length === 0) problems.push('name is empty');
  if (this.name.length > 64) problems.push('name is longer than 64 characters');
  if (this.name.length > config.maxNameLength) problems.push(\`name is longer than \${config.maxNameLength}\`);
  if (!/^[^@\\s]+@[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
  return problems;
}
\`\`\`
`;

async function placeCursor(path: string, text: string): Promise<void> {
  const editor = await openWorkspaceFile(path);
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `${text} is in ${path}`);
  editor.selection = new vscode.Selection(line, 6, line, 6);
}

/** Whether the promise is still pending after `ms`: a command waiting for the user's answer. */
async function stillPending(promise: Thenable<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void Promise.resolve(promise).then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return !settled;
}

async function clearUserSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration('scalpel');
  for (const name of ['provider', 'model', 'baseUrl'])
    await config.update(name, undefined, vscode.ConfigurationTarget.Global);
}

describe('first run: fresh profile, no Copilot, nothing set up', () => {
  let server: ScriptedLlmServer;
  const api = (): ScalpelApi => scalpelExtensionOrThrow().exports as ScalpelApi;

  before(async () => {
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await openWorkspaceFile('src/user.ts');
    await waitFor(() => scalpelExtensionOrThrow().isActive, { description: 'activation' });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
    await clearUserSettings();
    await configure({ provider: undefined, baseUrl: undefined, model: undefined, smallFileLines: undefined });
    await vscode.workspace.fs.delete(workspaceUri('scalpel-sample.ts')).then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server.close();
  });

  it('the engine loads in the background soon after activation; announcing models to the chat never needs it', async () => {
    assert.equal(api().engineLoadedDuringActivation, false, 'not during activation');
    await configure({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini' });
    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', KEY);
    try {
      await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
        description: "Scalpel's model announced to VS Code",
      });
      await waitFor(() => api().isEngineLoaded(), { timeoutMs: 20_000, description: 'the background preload' });
      assert.equal(api().wasEngineDemanded(), false, 'loaded by the preload, not by a command or the model list');
    } finally {
      await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai');
      await configure({ provider: undefined, baseUrl: undefined, model: undefined });
    }
  });

  it('the first request with no model anywhere offers setup instead of an Ollama error, and keeps the instruction', async () => {
    await placeCursor('src/user.ts', "problems.push('name is empty')");
    const before = await readWorkspaceFileFromDisk('src/user.ts');
    const requestsBefore = server.requests.length;
    const running = vscode.commands.executeCommand<CommandResult>(
      'scalpel.editElementAtCursor',
      'reject names longer than 64 characters',
    );
    // The setup waits for the user (a quick pick of the ways to get a model); nothing has been sent meanwhile.
    assert.equal(await stillPending(running, 1_500), true, 'the request waits for the setup');
    assert.equal(server.requests.length, requestsBefore);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const result = await running;

    assert.equal(result.status, 'failed');
    assert.match(result.message ?? '', /no language model yet/i);
    assert.match(result.message ?? '', /"reject names longer than 64 characters" is kept/);
    assert.doesNotMatch(
      result.message ?? '',
      /ollama serve|is Ollama running/i,
      'no error about a server never chosen',
    );
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before);

    // Setting up a model (here the choice the walkthrough's quick pick would write) runs the kept request. A
    // provider set in the workspace makes the choice go to the workspace settings too, which the suites reset.
    // TODO(#14): with user.ts sent whole here (smallFileLines 50) and the preview rejected, the edit suite that runs
    // later finds changes of its own earlier tests saved in user.ts; a plain Edit Element at Cursor instead of the
    // setup does the same, a focused view (as below) does not. Cause not found yet.
    await configure({ provider: 'auto', smallFileLines: 10 });
    server.enqueue(scripted.answer(VALIDATE_ANSWER));
    const setUp = await vscode.commands.executeCommand<{ provider: string; retried?: CommandResult }>(
      'scalpel.setUpModel',
      { provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'gpt-4o-mini', key: KEY },
    );
    assert.equal(setUp.provider, 'openai');
    assert.equal(setUp.retried?.status, 'preview', setUp.retried?.message);
    const sent = server.requests.slice(requestsBefore).filter((r) => r.path === '/v1/chat/completions');
    assert.equal(sent.length, 1);
    assert.match(userMessageOf(sent[0]), /Task: reject names longer than 64 characters/);
    assert.equal(sent[0]?.headers.authorization, `Bearer ${KEY}`);
    assert.ok(setUp.retried?.editId);
    await vscode.commands.executeCommand('scalpel.rejectEdit', setUp.retried.editId);
    assert.equal(await readWorkspaceFileFromDisk('src/user.ts'), before, 'nothing written before an accept');
  });

  it('a new chat refuses @scalpel until a model is picked; Open Chat picks Scalpel’s, and new chats then answer', async () => {
    await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length > 0, {
      description: "Scalpel's model for the scripted server",
    });
    const sequence = async (): Promise<number> => (await lastTranscript())?.sequence ?? 0;

    // What a user without Copilot meets: VS Code gives the participant no model, so it never runs.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const before = await sequence();
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: '@scalpel /context before',
      isPartialQuery: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal(await sequence(), before, 'VS Code refused the request before @scalpel ran');

    const opened = await vscode.commands.executeCommand<{ model?: string }>('scalpel.openChat');
    assert.equal(opened.model, MODEL_ID);

    // A new chat, opened and sent to the plain way, now reaches @scalpel with Scalpel's model.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const afterOpen = await sequence();
    await placeCursor('src/user.ts', "problems.push('name is empty')");
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: '@scalpel /context after',
      isPartialQuery: false,
    });
    const answer = await waitFor(
      async () => {
        const transcript = await lastTranscript();
        return transcript !== undefined && transcript.sequence > afterOpen && transcript.done ? transcript : undefined;
      },
      { timeoutMs: 20_000, description: '@scalpel answering in a new chat' },
    );
    assert.equal(answer.model, `scalpel/${MODEL_ID}`);
    assert.equal(answer.result?.metadata?.outcome, 'ok');
  });

  it('Set API Key says what it stored and where, never the key', async () => {
    const result = await vscode.commands.executeCommand<{ provider: string; message: string }>(
      'scalpel.setApiKey',
      'openai',
      KEY,
    );
    assert.equal(result.provider, 'openai');
    assert.match(result.message, /stored your OpenAI-compatible API key in VS Code's secret storage/);
    assert.match(result.message, /requests to gpt-4o-mini use it/);
    for (let start = 0; start + 4 <= KEY.length; start++)
      assert.ok(!result.message.includes(KEY.slice(start, start + 4)), 'no part of the key is echoed');
  });

  it('the walkthrough’s sample: created on request, cursor in validate(), and an edit of it previews', async () => {
    const sample = await vscode.commands.executeCommand<{ path: string; created: boolean }>('scalpel.tryOnSample', {
      confirmed: true,
    });
    assert.deepEqual(sample, { path: 'scalpel-sample.ts', created: true });
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor !== undefined && editor.document.uri.path.endsWith('/scalpel-sample.ts'));
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /email is not an address/);

    server.enqueue(
      scripted.answer(`PATCH_ELEMENT scalpel-sample.ts/class[Account]/method[validate]
\`\`\`ts
<<<<<<< SEARCH
    if (!/^[^@\\s]+@[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
=======
    if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(this.email)) problems.push('email needs a domain with a dot');
>>>>>>> REPLACE
\`\`\`
`),
    );
    const result = await vscode.commands.executeCommand<CommandResult>(
      'scalpel.editElementAtCursor',
      'also reject e-mail addresses whose domain has no dot',
    );
    assert.equal(result.status, 'preview', result.message);
    await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
  });

  it('the walkthrough’s steps run Scalpel commands that exist', async () => {
    const walkthroughs = scalpelExtensionOrThrow().packageJSON.contributes.walkthroughs as Array<{
      id: string;
      steps: Array<{ id: string; description: string }>;
    }>;
    const [walkthrough] = walkthroughs;
    assert.equal(walkthrough?.id, 'gettingStarted');
    const registered = new Set(await vscode.commands.getCommands(true));
    const linked = walkthrough.steps.flatMap((s) =>
      [...s.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]),
    );
    assert.deepEqual(linked, ['scalpel.setUpModel', 'scalpel.tryOnSample', 'scalpel.openChat']);
    for (const command of linked) assert.ok(registered.has(command ?? ''), `${command} is registered`);
  });
});
