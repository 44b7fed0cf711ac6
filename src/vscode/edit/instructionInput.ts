import * as vscode from 'vscode';
import { type TextAtCommand, TYPED_AHEAD_SETTLE_MS, typedIntoFile } from './typedAhead';

/**
 * The instruction box of the edit commands (issue 29): it opens before anything slow happens, so what the user types
 * at once lands in it, and it names what will be edited as soon as that is known. The element at the cursor comes
 * innermost first; Alt+Up (or the box's arrow button) widens the focus to its container, Alt+Down narrows it again.
 */

/** One focus the user can pick in the box: what the title names, and the element paths it sends. */
export interface FocusChoice {
  /** `class[User]/method[validate]`, `src/user.ts`, `3 elements`. */
  readonly label: string;
  readonly focus: readonly string[];
}

export interface InstructionAnswer {
  readonly instruction: string;
  readonly focus: readonly string[];
}

/**
 * The editor the command was run from, as it was when the command arrived. When the extension host is busy (the engine
 * loading in the background), the keys typed between the key that runs the command and the box appearing land in the
 * file; they are taken back out of it and put in front of the box's text.
 */
export interface TypedAhead extends TextAtCommand {
  readonly document: vscode.TextDocument;
  readonly version: number;
}

export function typedAheadOf(editor: vscode.TextEditor): TypedAhead {
  const { document, selection } = editor;
  return {
    document,
    version: document.version,
    text: document.getText(),
    start: document.offsetAt(selection.start),
    end: document.offsetAt(selection.end),
  };
}

export interface InstructionRequest {
  /** What the title says until the focus is known: `the element at the cursor`. */
  readonly pending: string;
  /** The editor the command came from, to take back keys typed into it before the box showed. */
  readonly typedAhead?: TypedAhead;
  /**
   * The focus choices, innermost first. A rejection (the file is excluded, not a language Scalpel reads) is shown in
   * the box at once and thrown when the user presses Enter or Escape, so no typed key goes astray.
   */
  readonly choices: Promise<readonly FocusChoice[]>;
}

/** True while the box is open: the keybindings of widen and narrow depend on it. */
export const INSTRUCTION_INPUT_KEY = 'scalpel.instructionInput';

const PLACEHOLDER = 'e.g. also reject e-mail addresses without a dot in the domain';

interface TypedAheadWatch {
  /** The user typed into the box. */
  typed(): void;
  /** Resolves once keys typed ahead into the file (if any) are in the box. */
  beforeAccept(): Promise<void>;
  dispose(): void;
}

/** The box that is open now, for the widen and narrow commands (their keys). */
let active: InstructionBox | undefined;

/** `scalpel.widenEditFocus` / `scalpel.narrowEditFocus`: Alt+Up and Alt+Down in the instruction box. */
export function moveEditFocus(step: 1 | -1): boolean {
  return active?.move(step) ?? false;
}

class InstructionBox {
  private readonly input = vscode.window.createInputBox();
  private choices: readonly FocusChoice[] | undefined;
  private failure: unknown;
  private level = 0;
  /** The buttons shown now; a click names one of them. */
  private widen: vscode.QuickInputButton | undefined;
  private narrow: vscode.QuickInputButton | undefined;

  constructor(private readonly request: InstructionRequest) {}

  /** Shows the box at once; resolves with the instruction and the focus chosen, or rejects (Escape, a failure). */
  run(): Promise<InstructionAnswer> {
    const { input } = this;
    input.title = `Scalpel: edit ${this.request.pending}`;
    input.prompt = 'What should change?';
    input.placeholder = PLACEHOLDER;
    input.ignoreFocusOut = true;
    input.busy = true;
    input.show();
    // The open box, for the widen and narrow keys (commands that reach it through the module).
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    active = this;
    void vscode.commands.executeCommand('setContext', INSTRUCTION_INPUT_KEY, true);
    return new Promise<InstructionAnswer>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        outcome();
        input.hide();
      };
      const finish = (): void => {
        const instruction = this.instruction();
        if (this.failure !== undefined) {
          const failure = this.failure;
          settle(() => reject(failure));
          return;
        }
        const choice = this.choices?.[this.level];
        if (choice === undefined) return;
        settle(() => resolve({ instruction, focus: choice.focus }));
      };
      let accepted = false;
      this.request.choices.then(
        (choices) => {
          this.choices = choices.length > 0 ? choices : undefined;
          if (this.choices === undefined) this.failure = new Error('nothing to edit was found');
          this.render();
          if (accepted) finish();
        },
        (error: unknown) => {
          this.failure = error;
          input.busy = false;
          input.title = `Scalpel: ${error instanceof Error ? error.message : String(error)}`;
          input.validationMessage = 'Press Enter or Escape to close';
          if (accepted) finish();
        },
      );
      const typedAhead = this.watchTypedAhead();
      this.stopWatching = typedAhead.dispose;
      input.onDidChangeValue(() => {
        typedAhead.typed();
        if (this.failure === undefined) input.validationMessage = undefined;
      });
      input.onDidTriggerButton((button) => this.move(button === this.widen ? 1 : -1));
      input.onDidAccept(() => {
        // Enter before the focus is known, or before keys typed ahead into the file are back: both are awaited.
        void typedAhead.beforeAccept().then(() => {
          if (this.failure === undefined && this.instruction() === '') {
            input.validationMessage = 'Describe the change you want';
            return;
          }
          accepted = true;
          finish();
        });
      });
      input.onDidHide(() => {
        typedAhead.dispose();
        if (active === this) active = undefined;
        void vscode.commands.executeCommand('setContext', INSTRUCTION_INPUT_KEY, false);
        if (!settled) {
          settled = true;
          reject(this.failure ?? new vscode.CancellationError());
        }
        input.dispose();
      });
    });
  }

  /**
   * Watches the command's file for keys typed before the box showed, and takes them back out of it once the file has
   * been quiet for a moment; they go in front of the instruction. The file's change events can arrive late and in
   * pieces (a busy machine), so this goes on while the box is open: each piece is taken out after the ones before it.
   * Anything else changing the file (an edit elsewhere, a line break) ends the watch. Enter waits for the same quiet.
   */
  private watchTypedAhead(): TypedAheadWatch {
    const ahead = this.request.typedAhead;
    let base: TextAtCommand | undefined = ahead;
    let lastChange = 0;
    let lastTyped = 0;
    let unsettled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled: (() => void) | undefined;
    const stop = (): void => {
      base = undefined;
      listener?.dispose();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      unsettled = false;
      settled?.();
    };
    let inFlight = false;
    const reclaim = (): void => {
      if (inFlight) {
        later();
        return;
      }
      unsettled = false;
      if (ahead === undefined || base === undefined) return;
      const typed = typedIntoFile(base, ahead.document.getText());
      if (typed === undefined) {
        // Unchanged (all taken back already), or changed in another way: then it is the user's own edit.
        if (ahead.document.getText() !== ahead.text) stop();
        settled?.();
        return;
      }
      const { document } = ahead;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        document.uri,
        new vscode.Range(document.positionAt(base.start), document.positionAt(base.start + typed.length)),
        base.text.slice(base.start, base.end),
      );
      // Refused when the file moved on meanwhile (more keys on their way): tried again once it is quiet.
      inFlight = true;
      unsettled = true;
      void vscode.workspace.applyEdit(edit).then(
        (applied) => {
          inFlight = false;
          if (!applied) {
            later();
            return;
          }
          // Not written into the box: the box may hold keys this extension host has not heard of yet, which setting
          // its text would drop. They go in front of the box's text on Enter, and the prompt says so.
          this.typedAhead += typed;
          // The selection the first key replaced is back; later keys were typed after it.
          if (base !== undefined) base = { text: base.text, start: base.end, end: base.end };
          unsettled = false;
          this.render();
          settled?.();
        },
        () => {
          inFlight = false;
          later();
        },
      );
    };
    const later = (): void => {
      unsettled = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        const quiet = Date.now() - Math.max(lastChange, lastTyped);
        if (quiet >= TYPED_AHEAD_SETTLE_MS) reclaim();
        else later();
      }, TYPED_AHEAD_SETTLE_MS);
    };
    const listener =
      ahead === undefined
        ? undefined
        : vscode.workspace.onDidChangeTextDocument((event) => {
            if (event.document !== ahead.document || base === undefined || event.contentChanges.length === 0) return;
            lastChange = Date.now();
            later();
          });
    return {
      typed: () => {
        lastTyped = Date.now();
      },
      beforeAccept: async () => {
        if (base === undefined || ahead === undefined) return;
        const pending = unsettled || typedIntoFile(base, ahead.document.getText()) !== undefined;
        if (!pending && Date.now() - lastChange > TYPED_AHEAD_SETTLE_MS) return;
        // Enter: nothing more is typed into the box, so only the file has to be quiet.
        await new Promise<void>((resolve) => {
          settled = () => {
            settled = undefined;
            resolve();
          };
          lastTyped = 0;
          later();
        });
      },
      dispose: () => {
        // Escape too takes keys typed ahead back out of the file: they were meant for the box.
        if (base !== undefined && ahead !== undefined && !inFlight) {
          const typed = typedIntoFile(base, ahead.document.getText());
          if (typed !== undefined) {
            const edit = new vscode.WorkspaceEdit();
            edit.replace(
              ahead.document.uri,
              new vscode.Range(
                ahead.document.positionAt(base.start),
                ahead.document.positionAt(base.start + typed.length),
              ),
              base.text.slice(base.start, base.end),
            );
            void vscode.workspace.applyEdit(edit);
          }
        }
        stop();
      },
    };
  }

  /** Keys typed into the file before the box showed, taken back out of it: the front of the instruction. */
  private typedAhead = '';

  /** The instruction as it will be sent: the keys typed ahead, then the box's text. */
  private instruction(): string {
    return `${this.typedAhead}${this.input.value}`.trim();
  }

  /** Stops taking keys out of the file; set while the box is open. */
  private stopWatching: (() => void) | undefined;

  close(): void {
    // Not left to the hide event: a box replaced by another one must stop watching the file at once.
    this.stopWatching?.();
    if (active === this) active = undefined;
    this.input.hide();
  }

  move(step: 1 | -1): boolean {
    const choices = this.choices;
    if (choices === undefined) return false;
    const level = this.level + step;
    if (level < 0 || level >= choices.length) return false;
    this.level = level;
    this.render();
    return true;
  }

  private render(): void {
    const { input } = this;
    const choices = this.choices;
    const choice = choices?.[this.level];
    const wider = choices?.[this.level + 1];
    const typedAhead =
      this.typedAhead === ''
        ? ''
        : ` Typed before this box opened (taken back out of the file): "${this.typedAhead}"; it goes in front of what you type here.`;
    input.prompt =
      (wider === undefined ? 'What should change?' : `What should change? Alt+Up widens the focus to ${wider.label}.`) +
      typedAhead;
    if (choices === undefined || choice === undefined) return;
    input.busy = false;
    input.title = `Scalpel: edit ${choice.label}`;
    const narrower = choices[this.level - 1];
    this.widen =
      wider === undefined
        ? undefined
        : { iconPath: new vscode.ThemeIcon('arrow-up'), tooltip: `Widen the focus to ${wider.label} (Alt+Up)` };
    this.narrow =
      narrower === undefined
        ? undefined
        : { iconPath: new vscode.ThemeIcon('arrow-down'), tooltip: `Narrow the focus to ${narrower.label} (Alt+Down)` };
    input.buttons = [this.narrow, this.widen].filter((b): b is vscode.QuickInputButton => b !== undefined);
  }
}

/** Opens the instruction box at once (before the focus is known) and returns what the user typed and chose. */
export function askInstruction(request: InstructionRequest): Promise<InstructionAnswer> {
  // A second edit command while a box is open replaces it: the first one is cancelled.
  active?.close();
  return new InstructionBox(request).run();
}
