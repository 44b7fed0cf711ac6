import * as vscode from 'vscode';
import type { ToolEnv } from '../../core/tools';
import type { ScalpelServices } from '../services';
import { CONFIG_SECTION } from '../config';
import type { Ctx } from '../ctx';
import { metricsFileOf } from '../stats';
import { previewBatchWriter, vscodeGraphWorker, vscodeToolWorkspace } from './toolWorkspace';

/**
 * Scalpel's agent tools as VS Code language-model tools (Copilot's agent mode, any extension through
 * `vscode.lm.invokeTool`), and its MCP server offered to VS Code. A thin shell: the tools themselves are the core's
 * table (src/core/tools), loaded with the engine on the first call, never during activation. The names come from
 * package.json's `languageModelTools`, which a unit test keeps equal to the table.
 */

const TOOL_PREFIX = 'scalpel_';
const MCP_PROVIDER_ID = 'scalpel.mcp';
const MAX_ANSWER_TOKENS_SETTING = 'tools.maxAnswerTokens';
const OFFER_MCP_SETTING = 'tools.offerMcpServer';

interface ContributedTool {
  readonly name: string;
}

// The settings of this surface are read here rather than in config.ts: only the tool shell uses them.
function maxAnswerTokens(): number {
  const value = vscode.workspace.getConfiguration(CONFIG_SECTION).get<unknown>(MAX_ANSWER_TOKENS_SETTING);
  return typeof value === 'number' && Number.isFinite(value) && value >= 200 ? Math.floor(value) : 10_000;
}

function offerMcpServer(): boolean {
  return vscode.workspace.getConfiguration(CONFIG_SECTION).get<boolean>(OFFER_MCP_SETTING, false);
}

function rootOrThrow(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) throw new Error('Scalpel tools need an open workspace folder');
  return folder.uri;
}

export function registerTools(ctx: Ctx, services: ScalpelServices): void {
  const contributed = (ctx.extensionContext.extension.packageJSON['contributes']?.['languageModelTools'] ??
    []) as readonly ContributedTool[];
  const envs = new Map<string, ToolEnv>();
  const envOf = (root: vscode.Uri): ToolEnv => {
    let env = envs.get(root.toString());
    if (env === undefined) {
      const engine = ctx.engine();
      const exclude = ctx.config(root).exclude;
      const script = vscode.Uri.joinPath(ctx.extensionContext.extensionUri, 'dist', 'engine.js').fsPath;
      const worker = vscodeGraphWorker(engine, root, exclude, script, ctx.log);
      ctx.subscriptions.push({ dispose: () => void worker.close() });
      // Its bundle and parsers load beside this first call, not during the first graph query.
      worker.warm();
      env = engine.createToolEnv(
        vscodeToolWorkspace(engine, root, exclude),
        previewBatchWriter(root, services.edits),
        engine.createTokenCounter(ctx.config(root).tokenEncoding),
        ctx.log,
        undefined,
        worker.graph(),
      );
      envs.set(root.toString(), env);
    }
    return env;
  };
  const toolOrThrow = (name: string) => {
    const tool = ctx.engine().toolByName(name.slice(TOOL_PREFIX.length));
    if (tool === undefined) throw new Error(`${name} is declared in package.json but not in Scalpel's tool table`);
    return tool;
  };

  for (const { name } of contributed) {
    if (!name.startsWith(TOOL_PREFIX)) continue;
    ctx.subscriptions.push(
      vscode.lm.registerTool<object>(name, {
        prepareInvocation(options) {
          const tool = toolOrThrow(name);
          const message = tool.describeCall(options.input);
          const dryRun = tool.isDryRunCall(options.input);
          if (!tool.writes || dryRun) return { invocationMessage: `Scalpel: ${message}` };
          const preview = ctx.config(vscode.workspace.workspaceFolders?.[0]?.uri).preview;
          const then =
            preview === 'always'
              ? 'then opens as a preview: nothing is written before you accept it there'
              : `then written without a preview (\`scalpel.preview\` is \`${preview}\`); Undo reverts it`;
          return {
            invocationMessage: `Scalpel: ${message}`,
            confirmationMessages: {
              title: 'Apply Scalpel operations?',
              message: new vscode.MarkdownString(`${message}\n\nThe batch is verified first, ${then}.`),
            },
          };
        },
        async invoke(options, token) {
          const engine = ctx.engine();
          const tool = toolOrThrow(name);
          const given = options.tokenizationOptions?.tokenBudget;
          const limit = Math.min(maxAnswerTokens(), given !== undefined && given > 0 ? given : Number.MAX_SAFE_INTEGER);
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          // A walk over the workspace stops at its next turn once the chat cancels (src/core/tools/turns.ts).
          const cancel = new AbortController();
          const cancelling = token.onCancellationRequested(() => cancel.abort());
          const run = await engine
            .runTool(tool, options.input, envOf(rootOrThrow()), {
              budget: engine.answerBudget(limit),
              surface: 'lm',
              signal: cancel.signal,
              record: (record) => engine.appendToolCall(metricsFileOf(ctx), record, (message) => ctx.log.warn(message)),
            })
            .finally(() => cancelling.dispose());
          ctx.log.info(`${name}: ${run.isError ? 'error' : 'ok'}, ${run.tokens} tokens`);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(run.text)]);
        },
      }),
    );
  }

  const changed = new vscode.EventEmitter<void>();
  ctx.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () =>
        offerMcpServer()
          ? (vscode.workspace.workspaceFolders ?? []).map(
              (folder) =>
                new vscode.McpStdioServerDefinition(
                  `Scalpel (${folder.name})`,
                  process.execPath,
                  [
                    vscode.Uri.joinPath(ctx.extensionContext.extensionUri, 'dist', 'cli.js').fsPath,
                    'mcp',
                    '--root',
                    folder.uri.fsPath,
                  ],
                  // The desktop extension host runs on Electron's binary: this makes it behave as plain Node.
                  { ELECTRON_RUN_AS_NODE: '1' },
                  String(ctx.extensionContext.extension.packageJSON['version'] ?? '0'),
                ),
            )
          : [],
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${CONFIG_SECTION}.${OFFER_MCP_SETTING}`)) changed.fire();
      if (['tokenEncoding', 'exclude'].some((name) => event.affectsConfiguration(`${CONFIG_SECTION}.${name}`)))
        envs.clear();
      if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) envs.clear();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      envs.clear();
      changed.fire();
    }),
  );
}
