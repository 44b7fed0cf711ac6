import * as vscode from 'vscode';
import type * as Engine from '../engine';

export type ScalpelEngine = typeof Engine;

let engine: ScalpelEngine | undefined;
let demanded = false;

function requireEngine(): ScalpelEngine {
  // A literal require of a sibling bundle that esbuild leaves alone (it is marked external in scripts/build.mjs);
  // a dynamic import() would turn the bundle into ESM loading for no gain.
  if (engine === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    engine = require('./engine.js') as ScalpelEngine;
    // The searches use the ripgrep VS Code ships with itself; the vsix carries none (without it they run in Node).
    const ripgrep = engine.ripgrepUnderAppRoot(vscode.env.appRoot);
    if (ripgrep !== undefined) engine.useRipgrep(ripgrep);
  }
  return engine;
}

/**
 * Loads dist/engine.js on first use. Activation never calls this: ts-morph and the tokenizer cost hundreds of
 * milliseconds to load (seconds on a busy machine), paid in the background soon after activation (preloadEngine) or,
 * at the latest, when the user first asks Scalpel for something.
 */
export function loadEngine(): ScalpelEngine {
  demanded = true;
  return requireEngine();
}

/** Loads the engine ahead of need, without counting as a use (enginePreload.ts schedules it after activation). */
export function preloadEngine(): void {
  requireEngine();
}

/** Whether the engine has been loaded in this extension host (the activation test checks it has not). */
export function isEngineLoaded(): boolean {
  return engine !== undefined;
}

/** Whether a feature has asked for the engine; a preload alone does not count. */
export function wasEngineDemanded(): boolean {
  return demanded;
}
