import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../config';
import type { Ctx } from '../ctx';
import { SCALPEL_LM_VENDOR, secretKeyFor } from '../modelAccess';
import { ScalpelLanguageModels } from './scalpelLanguageModels';

/** Settings that change which models Scalpel offers or what they announce. */
const MODEL_SETTINGS = ['provider', 'model', 'baseUrl', 'maxOutputTokens', 'tokenEncoding'].map(
  (name) => `${CONFIG_SECTION}.${name}`,
);
const KEY_NAMES = new Set((['openai', 'anthropic', 'ollama'] as const).map(secretKeyFor));

/** Registers the user's endpoints as language models of vendor `scalpel`, kept in step with settings and keys. */
export function registerLanguageModels(ctx: Ctx): void {
  const models = new ScalpelLanguageModels(ctx);
  ctx.subscriptions.push(
    models,
    vscode.lm.registerLanguageModelChatProvider(SCALPEL_LM_VENDOR, models),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (MODEL_SETTINGS.some((setting) => event.affectsConfiguration(setting))) models.refresh();
    }),
    ctx.extensionContext.secrets.onDidChange((event) => {
      if (KEY_NAMES.has(event.key)) models.refresh();
    }),
  );
  // VS Code asks a third-party provider for its models only when someone selects them; until then the chat
  // refuses `@scalpel` with "Language model unavailable". Asking now, without waiting (it may look for a local
  // Ollama), makes them known before the first chat request.
  void vscode.lm.selectChatModels({ vendor: SCALPEL_LM_VENDOR }).then(
    (found) =>
      ctx.log.info(
        `language models of vendor ${SCALPEL_LM_VENDOR}: ${found.length === 0 ? 'none configured' : found.map((m) => m.id).join(', ')}`,
      ),
    (error: unknown) =>
      ctx.log.warn(
        `could not announce Scalpel's language models: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
}
