/**
 * A conversation: the requests one user makes of one surface in a row (a chat session, a tool client, a CLI state
 * file). It remembers what each file looked like when the model last saw it (the baseline): the next request sends
 * the user's changes since then (src/core/sync) and the apply merges per element against it.
 */

export interface ConversationTurn {
  readonly instruction: string;
  readonly status: string;
  /** Element paths the model was shown in full (or whole files), for follow-ups. */
  readonly shownInFull: readonly string[];
}

/** What a conversation holds, as plain data: the CLI keeps it in a state file between invocations. */
export interface ConversationState {
  readonly id: string;
  readonly baselines: readonly (readonly [string, string])[];
  readonly proposed: readonly (readonly [string, string])[];
  readonly turns: readonly ConversationTurn[];
}

/**
 * Bounded: a long conversation keeps its latest turns and the baselines of the files seen most recently, up to a
 * number of files and of characters (a few big generated files must not hold megabytes per chat).
 */
const MAX_TURNS = 20;
const MAX_BASELINES = 50;
const MAX_BASELINE_CHARS = 4_000_000;

export class EditConversation {
  private readonly baselineTexts = new Map<string, string>();
  /** The text a verified batch proposed for a file: the user may have applied it, and then it is the baseline. */
  private readonly proposedTexts = new Map<string, string>();
  private readonly turnList: ConversationTurn[] = [];

  constructor(readonly id: string) {}

  /** The text of `path` the model saw last in this conversation. */
  baseline(path: string): string | undefined {
    return this.baselineTexts.get(path);
  }

  /**
   * The baseline to compare the current text with: the text the model saw, or the text its last batch proposed when
   * the current text is closer to that (the batch was applied, the user went on from there). Undefined when the model
   * never saw the file in this conversation.
   */
  baselineFor(
    path: string,
    current: string | undefined,
    distance: (a: string, b: string) => number,
  ): string | undefined {
    const seen = this.baselineTexts.get(path);
    const proposed = this.proposedTexts.get(path);
    if (seen === undefined || proposed === undefined || current === undefined) return seen;
    if (current === proposed) return proposed;
    if (current === seen) return seen;
    return distance(proposed, current) < distance(seen, current) ? proposed : seen;
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
    this.proposedTexts.delete(path);
    this.trim();
  }

  /** A verified batch would turn `path` into `text` (applied or not: the surface decides later). */
  recordProposed(path: string, text: string): void {
    if (this.baselineTexts.has(path)) this.proposedTexts.set(path, text);
    this.trim();
  }

  /** Forgets a file (sync_state with nothing to keep, a file deleted). */
  forget(path: string): void {
    this.baselineTexts.delete(path);
    this.proposedTexts.delete(path);
  }

  recordTurn(turn: ConversationTurn): void {
    this.turnList.push(turn);
    if (this.turnList.length > MAX_TURNS) this.turnList.splice(0, this.turnList.length - MAX_TURNS);
  }

  toState(): ConversationState {
    return {
      id: this.id,
      baselines: [...this.baselineTexts],
      proposed: [...this.proposedTexts],
      turns: [...this.turnList],
    };
  }

  static fromState(state: ConversationState): EditConversation {
    const conversation = new EditConversation(state.id);
    for (const [path, text] of state.baselines) conversation.recordShown(path, text);
    for (const [path, text] of state.proposed) conversation.recordProposed(path, text);
    for (const turn of state.turns) conversation.recordTurn(turn);
    return conversation;
  }

  private trim(): void {
    let chars = 0;
    for (const [path, text] of this.baselineTexts) chars += text.length + (this.proposedTexts.get(path)?.length ?? 0);
    while (this.baselineTexts.size > MAX_BASELINES || (chars > MAX_BASELINE_CHARS && this.baselineTexts.size > 1)) {
      const oldest = this.baselineTexts.keys().next().value;
      if (oldest === undefined) break;
      chars -= (this.baselineTexts.get(oldest)?.length ?? 0) + (this.proposedTexts.get(oldest)?.length ?? 0);
      this.forget(oldest);
    }
  }
}

/** Conversations by id, bounded; a surface ends one when its session ends (a new chat, a closed tool client). */
export class ConversationStore {
  private readonly conversations = new Map<string, EditConversation>();

  constructor(private readonly maxConversations = 20) {}

  get(id: string): EditConversation {
    let conversation = this.conversations.get(id);
    if (conversation === undefined) {
      conversation = new EditConversation(id);
      this.conversations.set(id, conversation);
      while (this.conversations.size > this.maxConversations) {
        const oldest = this.conversations.keys().next().value;
        if (oldest === undefined) break;
        this.conversations.delete(oldest);
      }
    } else {
      // Most recently used last, so the bound drops the conversation idle longest.
      this.conversations.delete(id);
      this.conversations.set(id, conversation);
    }
    return conversation;
  }

  has(id: string): boolean {
    return this.conversations.has(id);
  }

  /** The conversation ended: its baselines are dropped. */
  end(id: string): void {
    this.conversations.delete(id);
  }
}
