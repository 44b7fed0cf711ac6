import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { openScalpelChat } from '../../../src/vscode/chat/openChat';
import {
  scripted,
  startScriptedLlmServer,
  type RecordedRequest,
  type ScriptedLlmServer,
} from '../../support/llmServer';
import {
  actions,
  anchors,
  answerAfter,
  ask,
  type Transcript,
  configure,
  KEY,
  lastTranscript,
  leaveScriptedModel,
  markdownOf,
  MODEL_ID,
  send,
  systemMessageOf,
  USER_TS,
  userMessageOf,
  useScriptedModel,
} from './chatTestSupport';
import { removeWorkspaceFile } from './editTestSupport';
import { openWorkspaceFile, readWorkspaceFileFromDisk, stubModalWarnings, waitFor, workspaceUri } from './helpers';

// `@scalpel` in the real Chat view, driven the way a user sends a message, answered by Scalpel's own language-model
// provider backed by the scripted LLM server (chatTestSupport.ts).

/** The 0-based line where `text` starts in the workspace file. */
async function lineOf(path: string, text: string): Promise<number> {
  const line = (await readWorkspaceFileFromDisk(path)).split('\n').findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `${text} is in ${path}`);
  return line;
}

async function placeCursor(path: string, text: string): Promise<void> {
  const editor = await openWorkspaceFile(path);
  const line = await lineOf(path, text);
  editor.selection = new vscode.Selection(line, 6, line, 6);
}

function chatRequestsSince(server: ScriptedLlmServer, count: number): RecordedRequest[] {
  return server.requests.slice(count).filter((r) => r.path === '/v1/chat/completions');
}

const STRICTER_VALIDATE = `REPLACE_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
validate(): string[] {
  const problems: string[] = [];
  if (this.name.trim().length === 0) problems.push('name is empty');
  if (this.name.length > config.maxNameLength) problems.push(\`name is longer than \${config.maxNameLength}\`);
  if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(this.email)) problems.push('email is not an address');
  return problems;
}
\`\`\`
`;

describe('@scalpel chat participant', () => {
  let server: ScriptedLlmServer;

  before(async () => {
    server = await startScriptedLlmServer({ models: ['gpt-4o-mini'] });
    await useScriptedModel(server.openaiBaseUrl);
  });

  /** Pending edits a test prepared and did not accept: discarded after it, so that no later test applies them. */
  const prepared: string[] = [];

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  afterEach(async () => {
    for (const id of prepared.splice(0)) await vscode.commands.executeCommand('scalpel.rejectEdit', id);
  });

  after(async () => {
    await leaveScriptedModel();
    await server.close();
  });

  it('offers its language model to the chat', async () => {
    // That announcing it never needs the engine is checked in activationFirstRun.test.ts, before the background
    // preload could hide it.
    assert.equal((await vscode.lm.selectChatModels({ vendor: 'scalpel', id: MODEL_ID })).length, 1);
  });

  it('/edit prepares an edit of the element at the cursor, applied only when the user accepts it', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const before = await readWorkspaceFileFromDisk(USER_TS);
    const sent = server.requests.length;
    server.enqueue(scripted.answer(STRICTER_VALIDATE));

    const answer = await ask('@scalpel /edit reject email addresses whose domain has no dot');

    assert.equal(answer.model, `scalpel/${MODEL_ID}`);
    const [request, ...more] = chatRequestsSince(server, sent);
    assert.equal(more.length, 0, 'one model request');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    const userMessage = userMessageOf(request);
    assert.match(userMessage, /Task: reject email addresses whose domain has no dot/);
    assert.ok(userMessage.includes("problems.push('email is not an address')"), 'the focused element goes in full');
    assert.ok(!userMessage.includes('users.find('), 'bodies of other elements stay out');

    const text = markdownOf(answer);
    assert.match(text, /Ready to apply:\*\* 1 change in `src\/user\.ts`/);
    const [anchor] = anchors(answer);
    assert.equal(anchor?.title, 'src/user.ts/class[User]/method[validate]');
    assert.ok(anchor?.uri.endsWith('/src/user.ts'));
    assert.equal(anchor?.range?.[0], await lineOf(USER_TS, 'validate(): string[] {'));
    const tokens = /Context sent: \*\*([\d,]+) tokens\*\* instead of ([\d,]+) for the whole file/.exec(text);
    assert.ok(tokens, `token numbers in: ${text}`);
    assert.ok(Number(tokens[1]?.replace(/,/g, '')) < Number(tokens[2]?.replace(/,/g, '')));

    const editId = answer.result?.metadata?.editId;
    assert.ok(editId);
    assert.deepEqual(
      actions(answer).map((b) => [b.title, b.command, b.arguments]),
      [
        ['Preview', 'scalpel.previewEdit', [editId]],
        // Apply sends `@scalpel /apply <edit>`, whose answer says what was written (chatApply.test.ts).
        ['Apply', 'workbench.action.chat.open', [{ query: `@scalpel /apply ${editId}`, isPartialQuery: false }]],
        ['Discard', 'scalpel.rejectEdit', [editId]],
      ],
    );
    assert.equal(await readWorkspaceFileFromDisk(USER_TS), before, 'nothing is written before the user accepts');
    const document = await vscode.workspace.openTextDocument(workspaceUri(USER_TS));
    assert.equal(document.getText(), before);

    await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
    await waitFor(() => document.getText().includes('[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'), {
      description: 'the accepted edit in the editor',
    });
    assert.ok(document.getText().includes('canEdit(): boolean {'), 'the rest of the file is unchanged');
    const restore = new vscode.WorkspaceEdit();
    restore.replace(
      document.uri,
      new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
      before,
    );
    await vscode.workspace.applyEdit(restore);
    await document.save();
  });

  it('/edit on a Go file: the element at the cursor, labelled with // comments, applied when accepted', async () => {
    const GO = 'src/shapes.go';
    const text = [
      'package shapes',
      '',
      'import "errors"',
      '',
      '// Square is a square.',
      'type Square struct {',
      '\tSide float64',
      '}',
      '',
      '// New makes a square.',
      'func New(side float64) (*Square, error) {',
      '\tif side <= 0 {',
      '\t\treturn nil, errors.New("empty")',
      '\t}',
      '\treturn &Square{Side: side}, nil',
      '}',
      '',
      '// Area is the side squared.',
      'func (s Square) Area() float64 {',
      '\treturn s.Side * s.Side',
      '}',
      '',
      // Enough other functions that the focused view costs less than the whole file (which would go unlabelled).
      ...Array.from({ length: 30 }, (_, i) => [
        `// Scaled${i} is the square scaled by ${i}.`,
        `func (s Square) Scaled${i}() Square {`,
        `\treturn Square{Side: s.Side * ${i}}`,
        '}',
        '',
      ]).flat(),
    ].join('\n');
    await writeFile(workspaceUri(GO).fsPath, text);
    try {
      await placeCursor(GO, 'if side <= 0 {');
      const sent = server.requests.length;
      server.enqueue(
        scripted.answer(
          [
            `PATCH_ELEMENT ${GO}/function[New]`,
            '```go',
            '<<<<<<< SEARCH',
            '\tif side <= 0 {',
            '=======',
            '\tif side < 0 {',
            '>>>>>>> REPLACE',
            '```',
            '',
          ].join('\n'),
        ),
      );
      const answer = await ask('@scalpel /edit accept a zero side');
      const userMessage = userMessageOf(chatRequestsSince(server, sent)[0]);
      assert.ok(userMessage.includes(`// @ ${GO}/function[New]`), userMessage);
      assert.match(markdownOf(answer), /Ready to apply:\*\* 1 change in `src\/shapes\.go`/);
      assert.deepEqual(
        anchors(answer).map((a) => a.title),
        [`${GO}/function[New]`],
      );
      const editId = answer.result?.metadata?.editId;
      assert.ok(editId);
      const document = await vscode.workspace.openTextDocument(workspaceUri(GO));
      await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
      await waitFor(() => document.getText().includes('\tif side < 0 {'), { description: 'the accepted Go edit' });
      assert.equal(document.getText(), text.replace('\tif side <= 0 {', '\tif side < 0 {'));
      await document.save();
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await removeWorkspaceFile(GO);
    }
  });

  it('a prompt without a command edits too', async () => {
    await placeCursor(USER_TS, "return this.role === 'admin' || this.role === 'editor';");
    const sent = server.requests.length;
    server.enqueue(
      scripted.answer(`PATCH_ELEMENT src/user.ts/class[User]/method[canEdit]
\`\`\`ts
<<<<<<< SEARCH
    return this.role === 'admin' || this.role === 'editor';
=======
    return this.role !== 'viewer';
>>>>>>> REPLACE
\`\`\`
`),
    );
    const answer = await ask('@scalpel let every role but viewers edit');
    assert.equal(answer.command, undefined);
    assert.match(userMessageOf(chatRequestsSince(server, sent)[0]), /Task: let every role but viewers edit/);
    assert.deepEqual(
      anchors(answer).map((a) => a.title),
      ['src/user.ts/class[User]/method[canEdit]'],
    );
    const editId = answer.result?.metadata?.editId;
    assert.ok(editId);
    prepared.push(editId);
  });

  it("a NEED in the edit round is answered with the element in full, and the model's note is shown", async () => {
    await placeCursor(USER_TS, "return this.role === 'admin' || this.role === 'editor';");
    const sent = server.requests.length;
    const isDormant = 'src/user.ts/class[User]/method[isDormant]';
    const note = 'isDormant also decides who may edit, so it now ignores viewers.';
    server.enqueue(
      scripted.answer(`NEED ${isDormant}`),
      scripted.answer(`PATCH_ELEMENT ${isDormant}
\`\`\`ts
<<<<<<< SEARCH
    if (!this.lastLogin) return true;
=======
    if (!this.lastLogin) return this.role !== 'viewer';
>>>>>>> REPLACE
\`\`\`

${note}
`),
    );
    const answer = await ask('@scalpel /edit treat users who never logged in as dormant only if they are viewers');
    const [first, second, ...more] = chatRequestsSince(server, sent);
    assert.equal(more.length, 0, 'the code request and the NEED answer');
    assert.ok(!userMessageOf(first).includes('const days ='), 'isDormant is a signature in the focused view');
    const followUp = userMessageOf(second);
    assert.ok(followUp.includes(`// @ ${isDormant}\nisDormant(now: Date = new Date()): boolean {`), followUp);
    assert.ok(followUp.includes('const days ='), 'its body came with the NEED answer');
    const text = markdownOf(answer);
    assert.match(text, /Ready to apply:\*\* 1 change in `src\/user\.ts`/);
    assert.ok(text.includes(`**The model notes:**\n\n> ${note}`), text);
    assert.deepEqual(
      anchors(answer).map((a) => a.title),
      [isDormant],
    );
    const editId = answer.result?.metadata?.editId;
    assert.ok(editId);
    prepared.push(editId);
  });

  it('/edit that renames an element says what it was renamed to', async () => {
    await placeCursor(USER_TS, 'if (!this.lastLogin) return true;');
    server.enqueue(
      scripted.answer(`PATCH_ELEMENT src/user.ts/class[User]/method[isDormant]
\`\`\`ts
<<<<<<< SEARCH
  isDormant(now: Date = new Date()): boolean {
=======
  isInactive(now: Date = new Date()): boolean {
>>>>>>> REPLACE
\`\`\`
`),
    );
    const answer = await ask('@scalpel /edit call it isInactive');
    assert.match(markdownOf(answer), /- Edited .*, renamed to `src\/user\.ts\/class\[User\]\/method\[isInactive\]`/);
    const editId = answer.result?.metadata?.editId;
    assert.ok(editId);
    prepared.push(editId);
  });

  it('/edit says what failed and what to do, and prepares nothing, when the model refuses the key', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    server.enqueue(scripted.error('invalid-api-key'));
    const answer = await ask('@scalpel /edit trim the name before checking it');
    const text = markdownOf(answer);
    assert.match(text, /The edit failed:\*\*/);
    assert.match(
      text,
      /API key rejected by http:\/\/127\.0\.0\.1:\d+\/v1 \(401\).*set a valid key there\.\s+Or select another model\./,
    );
    assert.equal(text.split('127.0.0.1').length - 1, 1, `the address is named once: ${text}`);
    assert.equal(answer.result?.metadata?.outcome, 'failed');
    assert.equal(answer.result?.metadata?.editId, undefined);
    assert.ok(!actions(answer).some((b) => b.command === 'scalpel.acceptEdit'));
    assert.ok(
      actions(answer).some((b) => b.command === 'scalpel.setApiKey'),
      'a link to store the key',
    );
  });

  it('/context shows what would be sent and its tokens against the whole file, without asking the model', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const sent = server.requests.length;
    const answer = await ask('@scalpel /context');
    assert.equal(server.requests.length, sent, 'no model request');
    const text = markdownOf(answer);
    const tokens =
      /Context for the element at the cursor:\*\* \*\*([\d,]+) tokens\*\* \(o200k_base\) instead of ([\d,]+) for the whole file/.exec(
        text,
      );
    assert.ok(tokens, text);
    assert.ok(Number(tokens[1]?.replace(/,/g, '')) < Number(tokens[2]?.replace(/,/g, '')));
    assert.deepEqual(
      anchors(answer).map((a) => a.title),
      ['src/user.ts/class[User]/method[validate]'],
    );
    assert.ok(
      text.includes("    if (this.name.trim().length === 0) problems.push('name is empty');"),
      'the focused body',
    );
    assert.ok(text.includes('canEdit(): boolean { … }'), 'neighbours as signatures');
    assert.ok(!text.includes('users.find('), 'no other bodies');
  });

  it("opening the chat for @scalpel picks Ask mode and Scalpel's model, so that a request is answered", async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    // Where a new chat starts: Agent mode, which lists none of Scalpel's models.
    await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' });
    const before = (await lastTranscript())?.sequence ?? 0;
    await openScalpelChat('/context trim names', true);
    const answer = await answerAfter(before, 'the answer to the chat opened for @scalpel');
    assert.equal(answer.command, 'context');
    assert.equal(answer.model, `scalpel/${MODEL_ID}`);
  });

  it('/context of a long context shows its beginning and opens whole in an editor', async () => {
    // With the file sent whole (45 lines and its header), the context is longer than the chat shows.
    await configure({ smallFileLines: 100 });
    try {
      await placeCursor(USER_TS, "problems.push('name is empty')");
      const answer = await ask('@scalpel /context trim names');
      const text = markdownOf(answer);
      assert.match(text, /… \d+ more lines?\./);
      assert.ok(!text.includes('users.find('), 'the end of the file is not in the chat');
      const open = actions(answer).find((a) => a.title === 'Open the whole context');
      assert.equal(open?.command, 'vscode.open');
      const target = open?.arguments[0] as { scheme: string; path: string };
      const document = await vscode.workspace.openTextDocument(
        vscode.Uri.from({ scheme: target.scheme, path: target.path }),
      );
      assert.ok(document.getText().startsWith('File src/user.ts (whole file, 45 lines)'));
      assert.ok(document.getText().includes('users.find('), 'the whole context opens');
    } finally {
      await configure({ smallFileLines: 10 });
    }
  });

  it('/edit whose operations do not verify shows the answer and offers to plan first', async () => {
    await configure({ repairRounds: 0 });
    try {
      await placeCursor(USER_TS, "problems.push('name is empty')");
      const before = await readWorkspaceFileFromDisk(USER_TS);
      server.enqueue(
        scripted.answer(
          'REPLACE_ELEMENT src/user.ts/class[User]/method[validateEmail]\n```ts\nvalidateEmail(): boolean {\n  return true;\n}\n```\n',
        ),
      );
      const answer = await ask('@scalpel /edit split the email check out');
      const text = markdownOf(answer);
      assert.match(text, /The edit failed:\*\* The model's operations did not verify/);
      assert.ok(text.includes('validateEmail(): boolean {'), 'the answer that failed is shown');
      assert.equal(answer.result?.metadata?.editId, undefined);
      assert.equal(
        (await vscode.workspace.openTextDocument(workspaceUri(USER_TS))).getText(),
        before,
        'nothing changed',
      );
      const followups = await waitFor(
        async () =>
          (await vscode.commands.executeCommand<Transcript>('scalpel.chat.lastResponse', answer.sequence)).followups,
        { description: 'the follow-ups of the failed edit' },
      );
      assert.deepEqual(
        followups.map((f) => f.command),
        ['plan', 'context'],
      );
    } finally {
      await configure({ repairRounds: undefined });
    }
  });

  it('/edit that the model declines shows the reason and its note, after one request, and prepares nothing', async () => {
    // Issue 24: DECLINE: <reason> ends the request at once.
    const reason = 'validate already rejects an empty name; nothing to add.';
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const before = await readWorkspaceFileFromDisk(USER_TS);
    const from = server.requests.length;
    server.enqueue(scripted.answer(`The check is there already.\n\nDECLINE: ${reason}\n`));
    const answer = await ask('@scalpel /edit reject an empty name');
    const text = markdownOf(answer);
    assert.ok(text.includes(`**The model declined:** V${reason.slice(1)}`), text);
    assert.match(text, /Nothing was changed\./);
    assert.match(text, /> The check is there already\./);
    assert.equal(answer.result?.metadata?.outcome, 'declined');
    assert.equal(answer.result?.metadata?.editId, undefined);
    assert.equal(chatRequestsSince(server, from).length, 1, 'no repair round');
    assert.equal(await readWorkspaceFileFromDisk(USER_TS), before);
  });

  it('/context of an attached file shows that file, whole', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const answer = await ask('@scalpel /context', [workspaceUri('src/config.ts')]);
    const text = markdownOf(answer);
    assert.match(text, /Context for your references/);
    assert.match(text, /`src\/config\.ts` \(15 lines\): sent whole/);
    assert.ok(text.includes('File src/config.ts (whole file, 15 lines)'));
    assert.ok(!text.includes('class User'), 'the file at the cursor is not the focus');
  });

  it('/edit of an attached file sends it whole and links the element the model changed', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const sent = server.requests.length;
    server.enqueue(
      scripted.answer(`PATCH_ELEMENT src/config.ts/variable[config]
\`\`\`ts
<<<<<<< SEARCH
  maxNameLength: 64,
=======
  maxNameLength: 80,
>>>>>>> REPLACE
\`\`\`
`),
    );
    const answer = await ask('@scalpel /edit allow names of up to 80 characters', [workspaceUri('src/config.ts')]);
    const userMessage = userMessageOf(chatRequestsSince(server, sent)[0]);
    assert.ok(userMessage.includes('File src/config.ts (whole file, 15 lines)'), userMessage);
    assert.ok(!userMessage.includes('class User'));
    const [anchor] = anchors(answer);
    assert.equal(anchor?.title, 'src/config.ts/variable[config]');
    assert.ok(anchor?.uri.endsWith('/src/config.ts'));
    const editId = answer.result?.metadata?.editId;
    assert.ok(editId);
    await vscode.commands.executeCommand('scalpel.rejectEdit', editId);
    assert.match(await readWorkspaceFileFromDisk('src/config.ts'), /maxNameLength: 64,/);
  });

  it('/edit of an attached protected file: Apply writes it without asking, the user named it', async () => {
    const file = '.vscode/extensions.json';
    await mkdir(workspaceUri('.vscode').fsPath, { recursive: true });
    await writeFile(workspaceUri(file).fsPath, '{ "recommendations": [] }\n');
    try {
      await placeCursor(USER_TS, "problems.push('name is empty')");
      server.enqueue(
        scripted.answer(
          `REPLACE_FILE ${file}\n\`\`\`json\n{ "recommendations": ["dbaeumer.vscode-eslint"] }\n\`\`\`\n`,
        ),
      );
      const answer = await ask('@scalpel /edit recommend ESLint', [workspaceUri(file)]);
      const editId = answer.result?.metadata?.editId;
      assert.ok(editId, markdownOf(answer));
      const modal = stubModalWarnings(undefined);
      try {
        await vscode.commands.executeCommand('scalpel.acceptEdit', editId);
      } finally {
        modal.restore();
      }
      assert.deepEqual(modal.asked, [], 'a file attached with # counts as named: no question on Apply');
      const document = await vscode.workspace.openTextDocument(workspaceUri(file));
      assert.match(document.getText(), /dbaeumer\.vscode-eslint/);
      await document.save();
    } finally {
      await rm(workspaceUri(file).fsPath, { force: true });
    }
  });

  it('stopping the request closes the model call and prepares nothing', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const sent = server.requests.length;
    server.enqueue(scripted.answer(STRICTER_VALIDATE, { delayMs: 15_000 }));
    const before = await send('@scalpel /edit reject email addresses whose domain has no dot');
    const [call] = await waitFor(
      () => {
        const calls = chatRequestsSince(server, sent);
        return calls.length > 0 ? calls : undefined;
      },
      { description: 'the model call' },
    );
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const answer = await answerAfter(before, 'the stopped answer');
    assert.equal(answer.result?.metadata?.outcome, 'cancelled');
    assert.equal(answer.result?.metadata?.editId, undefined);
    assert.equal(actions(answer).length, 0);
    await waitFor(() => call?.closedByClient, { description: 'the HTTP request to be closed' });
  });

  it('/plan shows the elements the model wants, and the follow-up /edit works on them', async () => {
    await placeCursor(USER_TS, "problems.push('name is empty')");
    const sent = server.requests.length;
    server.enqueue(
      scripted.answer('NEED src/user.ts/class[User]/method[canEdit]\nNEED src/user.ts/function[findByEmail]\n'),
    );
    const instruction = 'let admins find users by name as well as by email';
    const plan = await ask(`@scalpel /plan ${instruction}`);

    const [planRequest] = chatRequestsSince(server, sent);
    assert.match(systemMessageOf(planRequest), /choose which program elements you need/);
    const outline = userMessageOf(planRequest);
    assert.ok(outline.includes('src/user.ts/class[User]/method[canEdit]'), 'the model sees the outline');
    assert.ok(!outline.includes('users.find('), 'and no bodies');
    const planned = anchors(plan);
    assert.deepEqual(
      planned.map((a) => a.title),
      ['src/user.ts/class[User]/method[canEdit]', 'src/user.ts/function[findByEmail]'],
    );
    assert.equal(planned[1]?.range?.[0], await lineOf(USER_TS, 'export function findByEmail('));
    assert.equal(plan.result?.metadata?.editId, undefined, 'planning edits nothing');
    const followups = await waitFor(
      async () =>
        (await vscode.commands.executeCommand<Transcript>('scalpel.chat.lastResponse', plan.sequence)).followups,
      {
        description: 'the follow-ups of the plan',
      },
    );
    assert.deepEqual(followups, [{ prompt: instruction, command: 'edit', label: 'Edit these elements' }]);

    // The follow-up: the same instruction under /edit, with the cursor still in validate().
    const beforeEdit = server.requests.length;
    server.enqueue(
      scripted.answer(`PATCH_ELEMENT src/user.ts/function[findByEmail]
\`\`\`ts
<<<<<<< SEARCH
  const wanted = email.toLowerCase();
=======
  const wanted = email.trim().toLowerCase();
>>>>>>> REPLACE
\`\`\`
`),
    );
    const edit = await ask(`@scalpel /edit ${instruction}`);
    const codeMessage = userMessageOf(chatRequestsSince(server, beforeEdit)[0]);
    assert.ok(codeMessage.includes('users.find('), 'findByEmail, named by the plan, goes in full');
    assert.ok(!codeMessage.includes("problems.push('name is empty')"), 'validate, at the cursor, does not');
    const editId = edit.result?.metadata?.editId;
    assert.ok(editId);
    prepared.push(editId);
  });

  it('/plan says how to add a file that is not part of the request, named by the model or in the instruction', async () => {
    // Issue 29: the plan used to drop such a file with no word on how to bring it in.
    await placeCursor(USER_TS, "problems.push('name is empty')");
    server.enqueue(
      scripted.answer('NEED src/user.ts/class[User]/method[validate]\nNEED src/config.ts/const[config]\n'),
    );
    const plan = await ask('@scalpel /plan check names against the limit in config, and list them in src/index.ts');

    const text = markdownOf(plan);
    assert.deepEqual(
      anchors(plan).map((a) => a.title),
      ['src/user.ts/class[User]/method[validate]'],
    );
    assert.match(
      text,
      /`src\/config\.ts`, `src\/index\.ts` are not part of this request, so the model planned without them: add them with `#file:src\/config\.ts` `#file:src\/index\.ts` and ask again\./,
    );
  });
});
