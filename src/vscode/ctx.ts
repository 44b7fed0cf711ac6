import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { readConfig, type ScalpelConfig } from './config';
import { isEngineLoaded, loadEngine, preloadEngine, type ScalpelEngine } from './engineLoader';
import { PendingEdits } from './pendingEdits';

/** What every feature of the extension gets: the extension context, the log, settings and the lazily loaded engine. */
export class Ctx {
  /** Verified edits waiting for the user's accept or reject. */
  readonly pendingEdits = new PendingEdits();

  constructor(
    readonly extensionContext: vscode.ExtensionContext,
    readonly log: Logger & { show(): void },
  ) {}

  get subscriptions(): vscode.Disposable[] {
    return this.extensionContext.subscriptions;
  }

  config(scope?: vscode.ConfigurationScope): ScalpelConfig {
    return readConfig(scope);
  }

  /** The core engine; loaded on first call, never during activation. */
  engine(): ScalpelEngine {
    return loadEngine();
  }

  isEngineLoaded(): boolean {
    return isEngineLoaded();
  }

  /** Loads the engine ahead of need (the background preload); not a use of it. */
  preloadEngine(): void {
    preloadEngine();
  }
}
