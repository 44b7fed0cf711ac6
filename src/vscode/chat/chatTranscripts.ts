import * as vscode from 'vscode';

/**
 * What `@scalpel` answered, part by part, for the integration tests: the chat view renders into the workbench,
 * out of a test's reach. Recorded only when the extension runs under a test harness (see registerChat.ts).
 */

export type TranscriptPart =
  | { readonly type: 'markdown'; readonly value: string }
  | { readonly type: 'progress'; readonly value: string }
  | {
      readonly type: 'anchor';
      readonly uri: string;
      readonly range?: readonly [number, number, number, number];
      readonly title?: string;
    }
  | { readonly type: 'reference'; readonly uri: string }
  | {
      readonly type: 'button';
      readonly command: string;
      readonly title: string;
      readonly arguments: readonly unknown[];
    };

export interface ChatTranscript {
  /** 1-based, in the order the requests arrived. */
  readonly sequence: number;
  readonly prompt: string;
  readonly command: string | undefined;
  /** `vendor/id` of the model picked in the chat. */
  readonly model: string;
  readonly parts: TranscriptPart[];
  done: boolean;
  result?: vscode.ChatResult;
  followups?: vscode.ChatFollowup[];
}

const KEPT = 20;

export class ChatTranscripts {
  private readonly transcripts: ChatTranscript[] = [];
  private next = 1;

  constructor(private readonly enabled: boolean) {}

  /** A stream that records what passes through it, and the transcript it records into. */
  begin(
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
  ): { stream: vscode.ChatResponseStream; transcript: ChatTranscript | undefined } {
    if (!this.enabled) return { stream, transcript: undefined };
    const transcript: ChatTranscript = {
      sequence: this.next++,
      prompt: request.prompt,
      command: request.command,
      model: `${request.model.vendor}/${request.model.id}`,
      parts: [],
      done: false,
    };
    this.transcripts.push(transcript);
    if (this.transcripts.length > KEPT) this.transcripts.shift();
    return { stream: new RecordingStream(stream, transcript.parts), transcript };
  }

  bySequence(sequence: number): ChatTranscript | undefined {
    return this.transcripts.find((t) => t.sequence === sequence);
  }

  latest(): ChatTranscript | undefined {
    return this.transcripts.at(-1);
  }
}

class RecordingStream implements vscode.ChatResponseStream {
  constructor(
    private readonly inner: vscode.ChatResponseStream,
    private readonly parts: TranscriptPart[],
  ) {}

  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ type: 'markdown', value: typeof value === 'string' ? value : value.value });
    this.inner.markdown(value);
  }

  anchor(value: vscode.Uri | vscode.Location, title?: string): void {
    const uri = value instanceof vscode.Location ? value.uri : value;
    const range =
      value instanceof vscode.Location
        ? ([
            value.range.start.line,
            value.range.start.character,
            value.range.end.line,
            value.range.end.character,
          ] as const)
        : undefined;
    this.parts.push({
      type: 'anchor',
      uri: uri.toString(),
      ...(range === undefined ? {} : { range }),
      ...(title === undefined ? {} : { title }),
    });
    this.inner.anchor(value, title);
  }

  button(command: vscode.Command): void {
    this.parts.push({
      type: 'button',
      command: command.command,
      title: command.title,
      arguments: command.arguments ?? [],
    });
    this.inner.button(command);
  }

  filetree(value: vscode.ChatResponseFileTree[], baseUri: vscode.Uri): void {
    this.inner.filetree(value, baseUri);
  }

  progress(value: string): void {
    this.parts.push({ type: 'progress', value });
    this.inner.progress(value);
  }

  reference(value: vscode.Uri | vscode.Location, iconPath?: vscode.IconPath): void {
    this.parts.push({ type: 'reference', uri: (value instanceof vscode.Location ? value.uri : value).toString() });
    this.inner.reference(value, iconPath);
  }

  push(part: vscode.ChatResponsePart): void {
    this.inner.push(part);
  }
}
