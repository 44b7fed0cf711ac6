import type * as vscode from 'vscode';
import type { ChatProvider } from '../../core/llm/provider';
import type { Ctx } from '../ctx';
import { endpointProviderForModelId } from '../lm/scalpelLanguageModels';
import { resolveChatProvider, SCALPEL_LM_VENDOR } from '../modelAccess';

/**
 * The model a chat request goes to: the one picked in the chat, unless the settings name an endpoint. One of
 * Scalpel's own models is called at its endpoint directly instead of through `vscode.lm`, which would only lead
 * back here.
 */
export async function providerForChatRequest(ctx: Ctx, model: vscode.LanguageModelChat): Promise<ChatProvider> {
  const { provider } = ctx.config();
  if (model.vendor === SCALPEL_LM_VENDOR && (provider === 'auto' || provider === 'vscode-lm')) {
    return endpointProviderForModelId(ctx, model.id);
  }
  return resolveChatProvider(ctx, model);
}
