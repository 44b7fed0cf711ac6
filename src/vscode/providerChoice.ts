import type * as vscode from 'vscode';
import type { ChatProvider } from '../core/llm/provider';
import type { Ctx } from './ctx';
import { endpointProviderForModelId } from './lm/scalpelLanguageModels';
import { resolveChatProvider, SCALPEL_LM_VENDOR } from './modelAccess';

/**
 * The one provider choice of every surface. `picked` is the model the user chose in the chat, used unless the
 * settings name an endpoint; the palette has none and follows the settings. One of Scalpel's own models is called at
 * its endpoint directly instead of through `vscode.lm`, which would only lead back here.
 */
export async function chooseProvider(ctx: Ctx, picked?: vscode.LanguageModelChat): Promise<ChatProvider> {
  const { provider } = ctx.config();
  if (picked?.vendor === SCALPEL_LM_VENDOR && (provider === 'auto' || provider === 'vscode-lm')) {
    return endpointProviderForModelId(ctx, picked.id);
  }
  return resolveChatProvider(ctx, picked);
}
