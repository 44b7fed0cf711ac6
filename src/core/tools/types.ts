import type { NewTypeError } from '../check/typeCheck';
import type { TokenCounter } from '../context/tokens';
import type { VerifyLevel } from '../edit/editSettings';
import type { Verification } from '../edit/verification';
import type { EditConversation } from '../edit/conversation';
import type { Logger } from '../logger';
import type { WorkspaceListing } from '../workspace/workspaceFiles';
import type { FileChange, SnapshotReader } from '../ops/apply';
import type { Operation, OperationResult } from '../ops/operation';
import type { AnswerBudget } from './budget';
import type { CodeGraph } from './graph/codeGraph';
import type { OutlineCache } from './outlineCache';

/**
 * The agent-tool layer: each tool is a name, a JSON schema, a handler over the core services and a renderer. The
 * MCP server (src/cli/commands/mcp.ts) and the VS Code language-model tools (src/vscode/tools/) are thin shells
 * that only translate their protocol to {@link runTool} and back.
 */

/** The subset of JSON Schema the tools use; checked by validateInput and sent as-is to MCP clients and VS Code. */
export interface JsonSchema {
  readonly type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  /** Longer strings are refused; absent: MAX_ARGUMENT_CHARS. */
  readonly maxLength?: number;
  readonly default?: unknown;
  readonly additionalProperties?: boolean;
}

/** The files a tool reads: the disk for the CLI, open documents first in VS Code. */
export interface ToolWorkspace {
  /** Absolute path of the workspace root. */
  readonly root: string;
  /** Workspace-relative paths (forward slashes) of the source files under `folder` ('' = the root), sorted. */
  listSourceFiles(folder?: string): string[];
  /**
   * Every file under `folder` (any kind), with the links the walk did not follow and whether it stopped at its limit:
   * what the search tool reads and the notes a folder answer gives. Absent: the source files are all there is.
   */
  listing?(folder?: string): WorkspaceListing;
  /** Files whose text `read` gives differently from the disk (unsaved editors); a text search reads those from `read`. */
  unsavedFiles?(): readonly string[];
  /** The text of a workspace-relative path, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** Changes whenever the file's text may have changed (mtime and size, or a document version); `missing` when gone. */
  version(path: string): string;
  /** Whether `path` names a folder of the workspace. */
  isFolder(path: string): boolean;
  /** Why a file must not reach an agent (an exclusion setting), or undefined; excluded files are not listed or read. */
  excludedBy?(path: string): string | undefined;
}

/** A batch that verified, handed to the surface that writes it. */
export interface VerifiedBatch {
  readonly title: string;
  readonly operations: readonly Operation[];
  readonly results: readonly OperationResult[];
  readonly changes: readonly FileChange[];
  /** New type errors it was let through with (allowNewErrors): a preview marks them. */
  readonly typeErrors?: readonly NewTypeError[];
}

/** What the apply tool asks of a surface's verification: the one `scalpel edit` runs (issue 24). */
export interface BatchVerifyRequest {
  readonly snapshot: SnapshotReader;
  readonly operations: readonly Operation[];
  readonly partial: boolean;
  /** `types` (the default): also the references left to a renamed or deleted element and the type check. */
  readonly verify?: VerifyLevel;
  /** New type errors and uses left to a renamed or deleted element are reported but do not stop the batch. */
  readonly allowNewErrors?: boolean;
}

export interface WriteOutcome {
  /** `written`: on disk; `preview`: waiting for the user's accept in VS Code; the rest: nothing changed. */
  readonly status: 'written' | 'preview' | 'applied' | 'conflict' | 'failed' | 'cancelled';
  readonly message: string;
  readonly files: readonly string[];
}

/**
 * How a verified batch reaches the files. The one adapter between the tools and a surface's write path: the CLI's
 * writer for MCP, the preview of the edit service in VS Code; both pass the edit service's pre-write gates
 * (`EditService.checkWrite`) first. TODO(#9): the core edit service replaces both when it serves the tools.
 */
export interface BatchWriter {
  /** The snapshot the batch is resolved against (what `write` will compare with before writing). */
  snapshot(): SnapshotReader;
  /** The surface's edit service verifies the batch, with the same steps as its own edits. */
  verify(request: BatchVerifyRequest): Promise<Verification>;
  /**
   * The surface's pre-write gates (the write gate, its protected paths) asked ahead of a verification: why the
   * changes would not be written, or undefined. The rename tool refuses before it plans (issue 27). Absent: only
   * `write` checks, at the last moment.
   */
  checkWrite?(changes: readonly FileChange[]): Promise<string | undefined>;
  /** `signal`: the call was cancelled; checked after the gates, right before the first byte is written. */
  write(batch: VerifiedBatch, signal?: AbortSignal): Promise<WriteOutcome>;
}

/** One tool call as the metrics log records it. */
export interface ToolCallRecord {
  readonly tool: string;
  readonly surface: string;
  readonly answerTokens: number;
  readonly durationMs: number;
  readonly ok: boolean;
}

export interface ToolEnv {
  readonly workspace: ToolWorkspace;
  readonly outlines: OutlineCache;
  /** The code graph, created on the first query that needs it. */
  graph(): CodeGraph;
  readonly writer: BatchWriter;
  readonly counter: TokenCounter;
  readonly logger: Logger;
  /** Whether the code graph is built (its first query reads and binds every source file: seconds on big trees). */
  graphReady(): boolean;
  /** Tells the caller what a long call is doing; set per call by runTool. */
  readonly progress?: (message: string) => Promise<void>;
  /** The caller gave up on this call (MCP `notifications/cancelled`, VS Code's token); a write checks it last. */
  readonly signal?: AbortSignal;
  /** What the files held before the last batch this server wrote: `diagnostics` with `since: "batch"`. */
  readonly history: WriteHistory;
  /**
   * The tool client's conversation (issue 11): what the agent last saw of each file (the context tool records it),
   * for get_changes, sync_state and the apply tool's merge with the user's edits.
   */
  readonly conversation: EditConversation;
}

/** The files a written batch changed, with their text before it (undefined: the batch created the file). */
export interface WriteHistory {
  lastBatch?: ReadonlyMap<string, string | undefined>;
}

/** What a handler gives back: text already shaped by the tool's renderer, fitted to the budget by runTool. */
export interface ToolAnswer {
  readonly text: string;
  /** A failure the agent should read (bad input, unknown element, a batch that did not verify). */
  readonly isError?: boolean;
}

export interface ToolSpec<I = unknown> {
  /** Unique, `^[a-z_]+$`; the VS Code shell prefixes `scalpel_`. */
  readonly name: string;
  readonly title: string;
  /** What the model reads to decide when to call it. */
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Tools that change files ask for confirmation in VS Code. */
  readonly writes: boolean;
  /**
   * Changes no state at all (MCP `readOnlyHint`); absent: the opposite of `writes`. sync_state writes no file but
   * moves the conversation's baseline, so it is neither.
   */
  readonly readOnly?: boolean;
  /** The input as the handler uses it (after schema validation); throws ToolInputError on what the schema cannot say. */
  readonly parse: (input: Record<string, unknown>) => I;
  readonly handle: (input: I, env: ToolEnv, budget: AnswerBudget) => Promise<ToolAnswer> | ToolAnswer;
  /** A one-line description of a call, for VS Code's progress and confirmation messages. */
  readonly describe: (input: I) => string;
  /** Whether a call of a writing tool only reports (no confirmation asked); absent: its `dryRun` argument. */
  readonly isDryRun?: (input: I) => boolean;
}

/** Bad input: the message tells the agent what to send instead. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** A tool with its input type erased: what the table holds and the shells call. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly writes: boolean;
  /** Changes nothing, files or conversation state (MCP `readOnlyHint`). */
  readonly readOnly: boolean;
  /** Validates the input against the schema, parses it and runs the handler. */
  call(input: unknown, env: ToolEnv, budget: AnswerBudget): Promise<ToolAnswer>;
  /** A one-line description of a call; a short generic one when the input does not parse. */
  describeCall(input: unknown): string;
  /** The call writes nothing (a dry run): VS Code asks no confirmation. */
  isDryRunCall(input: unknown): boolean;
}
