/**
 * A conversation: the requests one user makes of one surface in a row (a chat session, a tool client, a CLI state
 * file). Today it remembers what each file looked like when the model last saw it; issue 11 builds on these
 * baselines to send the user's changes since then instead of the elements again, and to merge per element.
 */

export interface ConversationTurn {
  readonly instruction: string;
  readonly status: string;
  /** Element paths the model was shown in full (or whole files), for follow-ups. */
  readonly shownInFull: readonly string[];
}

/** Bounded: a long conversation keeps its latest turns and the baselines of files seen recently. */
const MAX_TURNS = 20;
const MAX_BASELINES = 50;

export class EditConversation {
  private readonly baselineTexts = new Map<string, string>();
  private readonly turnList: ConversationTurn[] = [];

  constructor(readonly id: string) {}

  /** The text of `path` the model saw last in this conversation. */
  baseline(path: string): string | undefined {
    return this.baselineTexts.get(path);
  }

  get baselines(): ReadonlyMap<string, string> {
    return this.baselineTexts;
  }

  get turns(): readonly ConversationTurn[] {
    return this.turnList;
  }

  /** The model saw `text` as `path` in this conversation: it becomes the file's baseline. */
  recordShown(path: string, text: string): void {
    this.baselineTexts.delete(path);
    this.baselineTexts.set(path, text);
    while (this.baselineTexts.size > MAX_BASELINES) {
      const oldest = this.baselineTexts.keys().next().value;
      if (oldest === undefined) break;
      this.baselineTexts.delete(oldest);
    }
  }

  recordTurn(turn: ConversationTurn): void {
    this.turnList.push(turn);
    if (this.turnList.length > MAX_TURNS) this.turnList.splice(0, this.turnList.length - MAX_TURNS);
  }
}
