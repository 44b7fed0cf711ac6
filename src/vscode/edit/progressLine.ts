import type { EditPhase, EditProgress } from '../../core/llm/pipeline';

/**
 * What an edit's progress says while it runs (issue 29): the phase by name, the seconds since Enter, and while the
 * model's answer streams in, how many tokens of it arrived. The core reports phases; this turns them into one line,
 * re-rendered every second by the palette's notification (the chat shows each phase once). No `vscode` import: the
 * unit tests drive it with a fake clock.
 */

export interface ProgressLineOptions {
  /** The model asked, as the user knows it. */
  readonly model: string;
  /** When the user pressed Enter. */
  readonly startedAt: number;
  /** Counts the tokens of the answer received so far (the request's tokenizer). */
  readonly countTokens: (text: string) => number;
  /** The type check runs after the parse (`scalpel.verify: types`). */
  readonly checksTypes: boolean;
}

export class ProgressLine {
  private phase: EditPhase | 'start' = 'start';
  private message: string;
  /** The answer streamed since the last request to the model started. */
  private answer = '';
  private answerTokens = 0;
  private counted = 0;

  constructor(
    private readonly options: ProgressLineOptions,
    first: string,
  ) {
    this.message = first;
  }

  /** A phase reported by the core. A new request to the model starts a new answer. */
  event(event: EditProgress): void {
    if (event.phase === 'code' || event.phase === 'repair' || event.phase === 'plan') {
      this.answer = '';
      this.answerTokens = 0;
      this.counted = 0;
    }
    this.phase = event.phase;
    this.message = event.message;
  }

  /** A piece of the model's answer arrived. */
  text(delta: string): void {
    this.answer += delta;
  }

  /** Whether an answer is streaming in now. */
  get receiving(): boolean {
    return this.answer !== '' && (this.phase === 'code' || this.phase === 'repair' || this.phase === 'plan');
  }

  /**
   * The phase in words, without the time: what the chat shows once per phase. `withTokens: false` leaves the count of
   * the answer's tokens out (a chat progress line cannot change once shown).
   */
  describe({ withTokens = true }: { readonly withTokens?: boolean } = {}): string {
    switch (this.phase) {
      case 'start':
      case 'context':
        return this.message;
      case 'plan':
      case 'code':
      case 'repair': {
        const what = this.phase === 'plan' ? 'planning: ' : this.phase === 'repair' ? `${this.message}; ` : '';
        if (this.receiving && !withTokens) return `${what}receiving the answer from ${this.options.model}`;
        if (this.receiving) {
          // Counted on the whole text so far, so the number is the tokenizer's, not a sum of pieces.
          if (this.counted !== this.answer.length) {
            this.answerTokens = this.options.countTokens(this.answer);
            this.counted = this.answer.length;
          }
          return `${what}receiving the answer from ${this.options.model} (${this.answerTokens} token${this.answerTokens === 1 ? '' : 's'})`;
        }
        if (this.phase === 'code') {
          // The core says `asking <model> (<tokens sent>)`: the tokens stay, the model is named once.
          const sent = /\(([^()]*)\)\s*$/.exec(this.message)?.[1];
          return `waiting for ${this.options.model}${sent === undefined ? '' : ` (${sent})`}`;
        }
        return `${what}waiting for ${this.options.model}`;
      }
      case 'verify':
        return this.options.checksTypes ? `${this.message}: parse, then types` : this.message;
    }
  }

  /** The line of the notification: the phase and the seconds since Enter. */
  render(now: number): string {
    const seconds = Math.max(0, Math.floor((now - this.options.startedAt) / 1000));
    return `${this.describe()} · ${seconds} s`;
  }
}
