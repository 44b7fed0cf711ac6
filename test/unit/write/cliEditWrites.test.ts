import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scripted, startScriptedLlmServer, type ScriptedLlmServer } from '../../support/llmServer';
import { scalpel } from '../cli/runScalpel';

// Issue 17 through `scalpel edit` and the scripted model: what goes back to the model about files it was never shown,
// and which protected files an edit may write.

const SHOWN = 'export function shown(): number {\n  return 1;\n}\n';
const HIDDEN = 'export function hiddenHelper(): string {\n  return "s3cr3t-token-42";\n}\n';

function fenced(header: string, code: string, lang = 'ts'): string {
  return `${header}\n\`\`\`${lang}\n${code}\`\`\`\n`;
}

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-edit-writes-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'shown.ts'), SHOWN);
  writeFileSync(join(root, '.gitignore'), 'private/\n');
  mkdirSync(join(root, 'private'));
  writeFileSync(join(root, 'private', 'hidden.ts'), HIDDEN);
  return root;
}

void describe('scalpel edit: files not sent, protected files', () => {
  let server: ScriptedLlmServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startScriptedLlmServer();
    env = { OPENAI_API_KEY: 'sk-test', SCALPEL_BASE_URL: server.openaiBaseUrl, SCALPEL_MODEL: 'gpt-4o-mini' };
  });
  after(() => server.close());

  void test('an operation on an ignored file the request did not send gets "not part of this request" and none of its lines', async () => {
    const root = workspace();
    const first = server.requests.length;
    // A near miss on purpose: today's repair messages would quote the closest lines of the file.
    server.enqueue(
      scripted.answer(
        fenced(
          'PATCH_ELEMENT private/hidden.ts/function[hiddenHelper]',
          '<<<<<<< SEARCH\n  return "s3cr3t";\n=======\n  return "x";\n>>>>>>> REPLACE\n',
        ),
      ),
      scripted.answer(
        fenced('REPLACE_ELEMENT private/hidden.ts/function[hiddenHelpr]', 'export function hiddenHelpr() {}\n'),
      ),
    );
    const run = await scalpel(root, ['edit', 'src/shown.ts', '-m', 'change things', '--repair-rounds', '1'], { env });
    assert.equal(run.code, 1, run.stderr);
    const repair = server.requests.slice(first)[1]?.rawBody ?? '';
    assert.match(repair, /private\/hidden\.ts is not part of this request/);
    assert.doesNotMatch(repair, /s3cr3t-token-42|hiddenHelper\(\): string/);
    assert.doesNotMatch(run.stderr, /s3cr3t-token-42/);
    assert.equal(readFileSync(join(root, 'private', 'hidden.ts'), 'utf8'), HIDDEN);
  });

  void test('a protected file named on the command line may be written; one only the model names needs --allow', async () => {
    const root = workspace();
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'settings.json'), '{}\n');
    const settings = fenced('REPLACE_FILE .vscode/settings.json', '{ "editor.tabSize": 2 }\n', 'json');
    server.enqueue(scripted.answer(settings));
    const named = await scalpel(root, ['edit', '.vscode/settings.json', '-m', 'tab size 2', '--no-plan'], { env });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(readFileSync(join(root, '.vscode', 'settings.json'), 'utf8'), '{ "editor.tabSize": 2 }\n');

    const created = fenced('CREATE_FILE .vscode/tasks.json', '{ "version": "2.0.0", "tasks": [] }\n', 'json');
    server.enqueue(scripted.answer(created));
    const refused = await scalpel(root, ['edit', 'src/shown.ts', '-m', 'add a task', '--no-plan'], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /\.vscode\/tasks\.json: it is protected.*--allow '\.vscode\/tasks\.json'/);
    server.enqueue(scripted.answer(created));
    const allowed = await scalpel(
      root,
      ['edit', 'src/shown.ts', '-m', 'add a task', '--no-plan', '--allow', '.vscode/*.json'],
      { env },
    );
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8'), '{ "version": "2.0.0", "tasks": [] }\n');
  });
});
