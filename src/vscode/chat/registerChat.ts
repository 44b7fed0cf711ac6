import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { languagesReady, referencedPaths } from '../languagesReady';
import { ensureEngineInChat } from '../engineProgress';
import type { ScalpelServices } from '../services';
import { UserFacingError } from '../userError';
import { chatResult, metadataOf, type ScalpelChatCommand, type ScalpelChatMetadata } from './chatResult';
import { CHAT_DOCUMENT_SCHEME, ChatDocuments } from './chatDocuments';
import { ChatTranscripts } from './chatTranscripts';
import { handleApply } from './applyRequest';
import { handleChanges } from './changesRequest';
import { CHAT_CONVERSATION } from './chatConversation';
import { handleContext } from './contextRequest';
import { handleEdit } from './editRequest';
import { handlePlan } from './planRequest';
import { actionLinks, type ChatTurn, instructionOf } from './requestSupport';

/** The participant's id, as package.json's contributes.chatParticipants declares it. */
export const CHAT_PARTICIPANT_ID = 'scalpel.chat';

/**
 * Returns what `@scalpel` answered (the last answer, or the one with a given sequence number). Registered only
 * when the extension runs under a test harness: the integration tests read the chat's answers through it.
 */
export const LAST_RESPONSE_TEST_COMMAND = 'scalpel.chat.lastResponse';

/** `@scalpel` in the Chat view: `/edit` (also a prompt without a command), `/context`, `/plan`, `/changes`, `/apply`. */
export function registerChat(ctx: Ctx, services: ScalpelServices): void {
  const testing = ctx.extensionContext.extensionMode === vscode.ExtensionMode.Test;
  const transcripts = new ChatTranscripts(testing);
  const documents = new ChatDocuments();
  ctx.subscriptions.push(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(CHAT_DOCUMENT_SCHEME, documents),
  );
  const participant = vscode.chat.createChatParticipant(
    CHAT_PARTICIPANT_ID,
    async (request, chatContext, responseStream, token) => {
      const { stream, transcript } = transcripts.begin(request, responseStream);
      await languagesReady(ctx, referencedPaths(request));
      let result = await answer(ctx, services, documents, request, chatContext, stream, token);
      if (transcript !== undefined) {
        result = { ...result, metadata: { ...result.metadata, transcript: transcript.sequence } };
        transcript.result = result;
        transcript.done = true;
      }
      return result;
    },
  );
  participant.iconPath = vscode.Uri.joinPath(ctx.extensionContext.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups(result) {
      const metadata = metadataOf(result);
      const followups = metadata === undefined ? [] : followupsFor(metadata);
      const transcript = metadata?.transcript === undefined ? undefined : transcripts.bySequence(metadata.transcript);
      if (transcript !== undefined) transcript.followups = followups;
      return followups;
    },
  };
  ctx.subscriptions.push(participant);
  if (testing) {
    ctx.subscriptions.push(
      vscode.commands.registerCommand(LAST_RESPONSE_TEST_COMMAND, (sequence?: number) =>
        sequence === undefined ? transcripts.latest() : transcripts.bySequence(sequence),
      ),
    );
  }
}

async function answer(
  ctx: Ctx,
  services: ScalpelServices,
  documents: ChatDocuments,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const command: ScalpelChatCommand =
    request.command === 'context' ||
    request.command === 'plan' ||
    request.command === 'changes' ||
    request.command === 'apply'
      ? request.command
      : 'edit';
  // A chat without history is a new session: the baselines of the last one end with it.
  if (chatContext.history.length === 0) services.edits.endConversation(CHAT_CONVERSATION);
  const instruction = instructionOf(request);
  const turn: ChatTurn = { ctx, services, documents, request, chatContext, stream, token, instruction };
  try {
    await ensureEngineInChat(ctx, stream);
    switch (command) {
      case 'context':
        return await handleContext(turn);
      case 'plan':
        return await handlePlan(turn);
      case 'changes':
        return await handleChanges(turn);
      case 'apply':
        return await handleApply(turn);
      case 'edit':
        return await handleEdit(turn);
    }
  } catch (error) {
    if (error instanceof vscode.CancellationError || token.isCancellationRequested) {
      return chatResult({ command, instruction, outcome: 'cancelled' });
    }
    if (error instanceof UserFacingError) {
      ctx.log.warn(`@scalpel /${command}: ${error.message}`);
      stream.markdown(error.message);
      return chatResult({ command, instruction, outcome: 'failed' });
    }
    ctx.log.error(`@scalpel /${command} failed`, error);
    const message = error instanceof Error ? error.message : String(error);
    actionLinks(stream, [{ command: 'scalpel.showLog', title: 'Show Log' }]);
    return chatResult({ command, instruction, outcome: 'failed' }, `Scalpel failed: ${message}`);
  }
}

/** Next steps offered under an answer; each sends a new request to `@scalpel`. */
function followupsFor(metadata: ScalpelChatMetadata): vscode.ChatFollowup[] {
  const { instruction } = metadata;
  if (instruction === '' || metadata.outcome === 'usage') return [];
  switch (metadata.command) {
    case 'edit':
      return metadata.outcome === 'failed' || metadata.outcome === 'nothing'
        ? [
            { prompt: instruction, command: 'plan', label: 'Plan first: which elements does the model need?' },
            { prompt: instruction, command: 'context', label: 'Show the context the model got' },
          ]
        : metadata.outcome === 'ok'
          ? [{ prompt: instruction, command: 'context', label: 'Show the context the model got' }]
          : [];
    case 'plan':
      return metadata.outcome === 'ok' && metadata.focus !== undefined
        ? [{ prompt: instruction, command: 'edit', label: 'Edit these elements' }]
        : [];
    case 'context':
      return [{ prompt: instruction, command: 'edit', label: 'Make this edit' }];
    case 'changes':
    case 'apply':
      return [];
  }
}
