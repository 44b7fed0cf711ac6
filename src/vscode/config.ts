import * as vscode from 'vscode';

/**
 * Every setting Scalpel reads, typed, in one place. The core never sees a WorkspaceConfiguration: callers turn
 * this into the plain option objects the core takes.
 */

export type ProviderSetting = 'auto' | 'vscode-lm' | 'openai' | 'anthropic' | 'ollama';
export type StrategySetting = 'hybrid' | 'element' | 'file';
export type PreviewSetting = 'always' | 'skipSmall' | 'never';
export type PlanningSetting = 'auto' | 'always' | 'never';
export type EncodingSetting = 'o200k_base' | 'cl100k_base';
export type VerifySetting = 'types' | 'syntax';
export type ConflictPolicySetting = 'user_wins' | 'agent_wins' | 'ask';

export interface ScalpelConfig {
  readonly provider: ProviderSetting;
  readonly model: string;
  readonly baseUrl: string;
  readonly strategy: StrategySetting;
  readonly smallFileLines: number;
  readonly tokenBudget: number;
  readonly tokenEncoding: EncodingSetting;
  readonly preview: PreviewSetting;
  readonly previewSmallBatchOperations: number;
  readonly repairRounds: number;
  readonly planning: PlanningSetting;
  /** `types`: the TypeScript check after the parse (new errors go back to the model, then show in the preview). */
  readonly verify: VerifySetting;
  /** Which TypeScript checks: '' for the workspace's own (else bundled), a folder, or `bundled` (issue 24). */
  readonly typescript: string;
  readonly exclude: readonly string[];
  /** Protected files an answer may write without asking (user settings only: a repository cannot allow itself). */
  readonly allowWrite: readonly string[];
  readonly requestTimeoutSeconds: number;
  readonly maxOutputTokens: number;
  /** Who wins when the user and the model changed the same element (issue 11). */
  readonly conflictPolicy: ConflictPolicySetting;
}

export const CONFIG_SECTION = 'scalpel';

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

export function readConfig(scope?: vscode.ConfigurationScope): ScalpelConfig {
  // The model settings are the window's; the rest may differ per folder (declared `"scope": "resource"`). Reading a
  // window setting through a resource scope makes VS Code log a warning, so each group is read from its own scope.
  const w = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  const exclude = c.get<unknown>('exclude');
  const allowWrite = w.inspect<unknown>('allowWrite')?.globalValue;
  return {
    provider: pick(w.get('provider'), ['auto', 'vscode-lm', 'openai', 'anthropic', 'ollama'], 'auto'),
    model: w.get<string>('model', '').trim(),
    baseUrl: w.get<string>('baseUrl', '').trim(),
    strategy: pick(c.get('strategy'), ['hybrid', 'element', 'file'], 'hybrid'),
    smallFileLines: nonNegative(c.get('smallFileLines'), 50),
    tokenBudget: positive(c.get('tokenBudget'), 12000),
    tokenEncoding: pick(c.get('tokenEncoding'), ['o200k_base', 'cl100k_base'], 'o200k_base'),
    preview: pick(c.get('preview'), ['always', 'skipSmall', 'never'], 'always'),
    previewSmallBatchOperations: positive(c.get('previewSmallBatchOperations'), 1),
    repairRounds: nonNegative(c.get('repairRounds'), 2),
    planning: pick(c.get('planning'), ['auto', 'always', 'never'], 'auto'),
    verify: pick(c.get('verify'), ['types', 'syntax'], 'types'),
    typescript: c.get<string>('typescript', '').trim(),
    exclude: Array.isArray(exclude) ? exclude.filter((e): e is string => typeof e === 'string') : [],
    allowWrite: Array.isArray(allowWrite) ? allowWrite.filter((e): e is string => typeof e === 'string') : [],
    requestTimeoutSeconds: positive(w.get('requestTimeoutSeconds'), 600),
    maxOutputTokens: positive(w.get('maxOutputTokens'), 8192),
    conflictPolicy: pick(c.get('conflictPolicy'), ['user_wins', 'agent_wins', 'ask'], 'user_wins'),
  };
}
