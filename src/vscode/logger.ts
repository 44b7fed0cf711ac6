import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/** The one log of the extension: a LogOutputChannel, so the user controls the level with "Developer: Set Log Level". */
export function createLogger(): Logger & vscode.Disposable & { show(): void } {
  const channel = vscode.window.createOutputChannel('Scalpel', { log: true });
  return {
    trace: (message, ...args) => channel.trace(message, ...args),
    debug: (message, ...args) => channel.debug(message, ...args),
    info: (message, ...args) => channel.info(message, ...args),
    warn: (message, ...args) => channel.warn(message, ...args),
    error: (message, ...args) => channel.error(message, ...args),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}
