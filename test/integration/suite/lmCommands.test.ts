import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  API_KEY,
  CAN_EDIT,
  chatRequests,
  editAtCursor,
  type EditResult,
  fenced,
  MODEL,
  NEW_CAN_EDIT,
  placeCursor,
  proposedDocument,
  setSetting,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, waitFor } from './helpers';

describe('model, key, statistics and clipboard commands', () => {
  const model = useScriptedModel();
  let userTs: string;

  before(async () => {
    userTs = await readWorkspaceFileFromDisk('src/user.ts');
  });

  /** One request to the model, answered without operations: the request is what these tests look at. */
  async function askModel(): Promise<EditResult> {
    model.server.enqueue(scripted.answer('Nothing to change.'));
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "return this.role === 'admin'");
    return (await vscode.commands.executeCommand('scalpel.editElementAtCursor', 'viewers cannot edit')) as EditResult;
  }

  it('Set API Key stores the key the requests carry; Clear API Key removes it', async () => {
    await askModel();
    assert.equal(model.server.requests.at(-1)?.headers.authorization, `Bearer ${API_KEY}`);

    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', 'sk-second-key');
    await askModel();
    assert.equal(model.server.requests.at(-1)?.headers.authorization, 'Bearer sk-second-key');

    assert.deepEqual(await vscode.commands.executeCommand('scalpel.clearApiKey', 'openai'), { provider: 'openai' });
    await askModel();
    assert.notEqual(model.server.requests.at(-1)?.headers.authorization, 'Bearer sk-second-key');
    await vscode.commands.executeCommand('scalpel.setApiKey', 'openai', API_KEY);
  });

  it('Set API Key refuses a provider that takes no key', async () => {
    const result = (await vscode.commands.executeCommand('scalpel.setApiKey', 'vscode-lm', 'x')) as {
      status: string;
      message: string;
    };
    assert.equal(result.status, 'failed');
    assert.match(result.message, /not a provider with an API key/);
  });

  it('Select Model writes the provider, the model and the endpoint to the settings', async () => {
    const inspect = (name: string): unknown =>
      vscode.workspace.getConfiguration('scalpel').inspect(name)?.workspaceValue;
    try {
      await vscode.commands.executeCommand('scalpel.selectModel', {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        baseUrl: 'http://127.0.0.1:1/',
      });
      assert.equal(inspect('provider'), 'anthropic');
      assert.equal(inspect('model'), 'claude-sonnet-4-5');
      assert.equal(inspect('baseUrl'), 'http://127.0.0.1:1/');
    } finally {
      await vscode.commands.executeCommand('scalpel.selectModel', {
        provider: 'openai',
        model: MODEL,
        baseUrl: model.server.openaiBaseUrl,
      });
    }
    assert.equal(inspect('provider'), 'openai');
  });

  it('Show Token Statistics sums up the recorded requests', async () => {
    const before = (await vscode.commands.executeCommand('scalpel.showTokenStatistics')) as { requests: number };
    await askModel();

    const stats = (await vscode.commands.executeCommand('scalpel.showTokenStatistics')) as {
      requests: number;
      inputTokens: number;
      wholeFileInputTokens: number;
      file: string;
    };

    assert.equal(stats.requests, before.requests + 1);
    assert.ok(stats.inputTokens > 0);
    assert.ok(stats.file.endsWith('metrics.jsonl'));
    const shown = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('token-statistics.txt')),
      { description: 'the statistics document' },
    );
    assert.match(shown.document.getText(), /\nby command\n(.*\n)*vscode\.editElement +\d+ /);
  });

  it('Copy Context puts the focused context and the operation format on the clipboard', async () => {
    const editor = await openWorkspaceFile('src/user.ts');
    placeCursor(editor, "return this.role === 'admin' || this.role === 'editor'");

    const copied = (await vscode.commands.executeCommand('scalpel.copyContext', 'let viewers edit too')) as {
      focus: string[];
      tokens: number;
    };

    assert.deepEqual(copied.focus, [CAN_EDIT]);
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^You are Scalpel, a precise code editor\b/);
    assert.ok(text.includes('REPLACE_ELEMENT <path>'), 'the operation format');
    assert.ok(text.includes("return this.role === 'admin' || this.role === 'editor';"), 'the focused body');
    assert.ok(!text.includes('this.lastLogin.getTime()'), 'not the others');
    assert.ok(text.includes('Task: let viewers edit too'));
  });

  describe('Apply Operations from Clipboard or Selection, with no model at all', () => {
    // Nothing listens there: any attempt to reach a model would fail the test.
    beforeEach(() => setSetting('baseUrl', 'http://127.0.0.1:9/v1'));

    it('previews the clipboard operations and writes them on Accept', async () => {
      const before = chatRequests(model.server);
      await vscode.env.clipboard.writeText(`Here you go:\n\n${fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)}`);
      const editor = await openWorkspaceFile('src/user.ts');

      const result = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;

      assert.equal(result.status, 'preview', result.message);
      const proposed = await proposedDocument('src/user.ts');
      assert.ok(proposed.getText().includes("return this.role !== 'viewer';"));
      assert.equal(editor.document.getText(), userTs);
      const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;
      assert.deepEqual(accepted.files, ['src/user.ts']);
      assert.ok(editor.document.getText().includes("return this.role !== 'viewer';"));
      assert.equal(chatRequests(model.server), before, 'no model was asked');
    });

    it('takes the selected operations of an editor over the clipboard', async () => {
      await vscode.env.clipboard.writeText('nothing useful');
      const answer = await vscode.workspace.openTextDocument({
        content: `The model said:\n${fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)}`,
        language: 'markdown',
      });
      const answerEditor = await vscode.window.showTextDocument(answer);
      const start = answer.positionAt(answer.getText().indexOf('REPLACE_ELEMENT'));
      answerEditor.selection = new vscode.Selection(start, answer.positionAt(answer.getText().length));

      const result = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;

      assert.equal(result.status, 'preview', result.message);
      await vscode.commands.executeCommand('scalpel.rejectEdit', result.editId);
    });

    it('refuses operations that do not verify, saying which and why', async () => {
      await vscode.env.clipboard.writeText(
        fenced('REPLACE_ELEMENT src/user.ts/class[User]/method[canEdt]', NEW_CAN_EDIT),
      );
      await openWorkspaceFile('src/user.ts');

      const result = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;

      assert.equal(result.status, 'failed');
      assert.match(
        result.message ?? '',
        /1 of 1 operations from the clipboard did not verify \(REPLACE_ELEMENT src\/user\.ts\/class\[User\]\/method\[canEdt\]/,
      );
    });

    it('says when the clipboard holds no operations', async () => {
      await vscode.env.clipboard.writeText('Sure! I changed the method as you asked.');
      const result = (await vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard')) as EditResult;
      assert.equal(result.status, 'failed');
      assert.match(result.message ?? '', /No Scalpel operations found in the clipboard/);
    });
  });

  describe('through a VS Code language model', () => {
    const VENDOR = 'scalpel-test';
    const MODEL_ID = 'scalpel-test-model';
    let registration: vscode.Disposable | undefined;

    /**
     * VS Code accepts models only from a vendor some extension declares, and Scalpel's own vendor is left out of its
     * choices (it would loop back to the endpoint). A test extension that declares one is packaged and installed,
     * as a user installs a VSIX.
     */
    async function declareTestVendor(): Promise<void> {
      if (vscode.extensions.getExtension(`${VENDOR}.test-models`) !== undefined) return;
      const dir = await mkdtemp(join(tmpdir(), 'scalpel-test-models-'));
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'test-models',
          publisher: VENDOR,
          version: '0.0.1',
          engines: { vscode: '^1.104.0' },
          contributes: { languageModelChatProviders: [{ vendor: VENDOR, displayName: 'Scalpel test models' }] },
        }),
      );
      await writeFile(join(dir, 'README.md'), 'Declares the language model vendor of the integration tests.\n');
      const vsix = join(dir, 'test-models.vsix');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const vsce = require('@vscode/vsce') as { createVSIX(options: object): Promise<void> };
      await vsce.createVSIX({
        cwd: dir,
        packagePath: vsix,
        allowMissingRepository: true,
        skipLicense: true,
        dependencies: false,
      });
      await vscode.commands.executeCommand('workbench.extensions.installExtension', vscode.Uri.file(vsix));
      await waitFor(() => vscode.extensions.getExtension(`${VENDOR}.test-models`), {
        description: 'the test vendor extension',
      });
    }

    /** A language model whose answers come from the scripted server over real HTTP (OpenAI chat completions). */
    function scriptedLanguageModel(): vscode.LanguageModelChatProvider {
      return {
        provideLanguageModelChatInformation: () => [
          {
            id: MODEL_ID,
            name: 'Scripted test model',
            family: 'scripted',
            version: '1',
            maxInputTokens: 100_000,
            maxOutputTokens: 8_000,
            capabilities: {},
          },
        ],
        async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const response = await fetch(`${model.server.openaiBaseUrl}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            signal: abort.signal,
            body: JSON.stringify({
              model: MODEL_ID,
              messages: messages.map((m) => ({
                role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user',
                content: m.content
                  .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
                  .join(''),
              })),
            }),
          });
          const body = (await response.json()) as { choices: { message: { content: string } }[] };
          progress.report(new vscode.LanguageModelTextPart(body.choices[0]?.message.content ?? ''));
        },
        provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text.length : 100) / 4),
      };
    }

    before(async () => {
      await declareTestVendor();
      registration = vscode.lm.registerLanguageModelChatProvider(VENDOR, scriptedLanguageModel());
    });
    after(async () => {
      registration?.dispose();
      await vscode.commands.executeCommand('scalpel.selectModel', {
        provider: 'openai',
        model: MODEL,
        baseUrl: model.server.openaiBaseUrl,
      });
    });

    it('Edit Element at Cursor asks the model picked in Select Model through vscode.lm', async () => {
      await vscode.commands.executeCommand('scalpel.selectModel', { provider: 'vscode-lm', model: MODEL_ID });
      model.server.enqueue(scripted.answer(fenced(`REPLACE_ELEMENT ${CAN_EDIT}`, NEW_CAN_EDIT)));
      const { editor, result } = await editAtCursor(
        "return this.role === 'admin' || this.role === 'editor'",
        'viewers cannot edit',
      );

      assert.equal(result.status, 'preview', result.message);
      const received = model.server.requests.at(-1);
      assert.equal(received?.body?.model, MODEL_ID, 'the request went through the VS Code language model');
      const sent = (received?.body?.messages ?? []).map((m) => String(m.content)).join('\n');
      assert.match(
        sent,
        /^You are Scalpel, a precise code editor\b/,
        'the system prompt goes first, as a user message',
      );
      assert.ok(sent.includes("return this.role === 'admin' || this.role === 'editor';"));
      assert.ok(!sent.includes('this.lastLogin.getTime()'));
      await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId);
      assert.ok(editor.document.getText().includes("return this.role !== 'viewer';"));
    });
  });
});
