import { applyTool } from './definitions/apply';
import { contextTool } from './definitions/context';
import { diagnosticsTool } from './definitions/diagnostics';
import { findPathTool } from './definitions/findPath';
import { findSymbolsTool } from './definitions/findSymbols';
import { outlineTool } from './definitions/outline';
import { referencesTool } from './definitions/references';
import { searchTool } from './definitions/search';
import { getChangesTool, syncStateTool } from './definitions/sync';
import type { Tool, ToolSpec } from './types';
import { validateInput } from './validateInput';

/**
 * Every agent tool, in the order clients list them. Both shells (MCP, VS Code language-model tools) register exactly
 * this table; package.json's `languageModelTools` must agree with it (test/unit/tools/toolTable.test.ts checks).
 */
export const TOOLS: readonly Tool[] = [
  defineTool(outlineTool),
  defineTool(contextTool),
  defineTool(findSymbolsTool),
  defineTool(searchTool),
  defineTool(referencesTool),
  defineTool(findPathTool),
  defineTool(applyTool),
  defineTool(diagnosticsTool),
  defineTool(getChangesTool),
  defineTool(syncStateTool),
];

export function defineTool<I>(spec: ToolSpec<I>): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema,
    writes: spec.writes,
    call: async (input, env, budget) => spec.handle(spec.parse(validateInput(spec.inputSchema, input)), env, budget),
    describeCall: (input) => {
      try {
        return spec.describe(spec.parse(validateInput(spec.inputSchema, input)));
      } catch {
        return spec.title;
      }
    },
  };
}

export function toolByName(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}

/** The VS Code name of a tool: tool names are global across extensions there. */
export const VSCODE_TOOL_PREFIX = 'scalpel_';
