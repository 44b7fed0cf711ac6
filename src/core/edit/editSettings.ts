import type { EditStrategy } from '../ops/apply';
import type { TokenEncoding } from '../context/tokens';
import type { ConflictPolicy } from './rebase';

/**
 * The settings an edit reads, as plain data: the VS Code config module (read for the file's folder) and the CLI's
 * flags both produce this shape, and `editOptionsOf` turns it into what the pipeline takes. Defaults live here once.
 */

export type PlanningMode = 'auto' | 'always' | 'never';

/** `types`: the TypeScript check of changed files and their importers after the parse; `syntax`: the parse alone. */
export type VerifyLevel = 'types' | 'syntax';

export interface EditSettings {
  readonly strategy: EditStrategy;
  readonly smallFileLines: number;
  readonly tokenBudget: number;
  readonly tokenEncoding: TokenEncoding;
  readonly repairRounds: number;
  readonly planning: PlanningMode;
  readonly maxOutputTokens: number | undefined;
  readonly verify: VerifyLevel;
  /**
   * Which TypeScript checks types: '' for the workspace's own `node_modules/typescript` when there (else the bundled
   * one), a folder holding a TypeScript package or its `lib` folder (like VS Code's `typescript.tsdk`), or `bundled`.
   */
  readonly typescript: string;
  /** Who wins when the user and the model changed the same element (issue 11). */
  readonly conflictPolicy: ConflictPolicy;
}

export const DEFAULT_EDIT_SETTINGS: EditSettings = {
  strategy: 'hybrid',
  smallFileLines: 50,
  tokenBudget: 12000,
  tokenEncoding: 'o200k_base',
  repairRounds: 2,
  planning: 'auto',
  // The provider's own default applies.
  maxOutputTokens: undefined,
  verify: 'types',
  typescript: '',
  conflictPolicy: 'user_wins',
};

export interface EditOptions {
  readonly budget?: number;
  readonly smallFileLines?: number;
  /** Send every file whole (no element view). */
  readonly full?: boolean;
  readonly strategy?: EditStrategy;
  /** Follow-ups that send failed operations back; default 2. */
  readonly repairRounds?: number;
  readonly planning?: PlanningMode;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

/** Settings with the defaults filled in; `undefined` values count as not given. */
export function editSettingsOf(given: Partial<EditSettings> = {}): EditSettings {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_EDIT_SETTINGS, ...defined };
}

/** The one options builder: settings (from VS Code or CLI flags) to the pipeline's options. */
export function editOptionsOf(settings: EditSettings, { full }: { readonly full?: boolean } = {}): EditOptions {
  return {
    budget: settings.tokenBudget,
    smallFileLines: settings.smallFileLines,
    strategy: settings.strategy,
    repairRounds: settings.repairRounds,
    planning: settings.planning,
    ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    ...(full === true ? { full: true } : {}),
  };
}
