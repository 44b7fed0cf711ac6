import { applyTool } from './definitions/apply';
import { contextTool } from './definitions/context';
import { diagnosticsTool } from './definitions/diagnostics';
import { findPathTool } from './definitions/findPath';
import { findSymbolsTool } from './definitions/findSymbols';
import { outlineTool } from './definitions/outline';
import { referencesTool } from './definitions/references';
import { renameTool } from './definitions/rename';
import { searchTool } from './definitions/search';
import { getChangesTool, syncStateTool } from './definitions/sync';
import type { JsonSchema, Tool, ToolSpec } from './types';
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
  defineTool(renameTool),
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
    readOnly: spec.readOnly ?? !spec.writes,
    call: async (input, env, budget) => spec.handle(spec.parse(validateInput(spec.inputSchema, input)), env, budget),
    describeCall: (input) => {
      try {
        return spec.describe(spec.parse(validateInput(spec.inputSchema, input)));
      } catch {
        return spec.title;
      }
    },
    isDryRunCall: (input) => {
      if (spec.isDryRun === undefined) return (input as { dryRun?: unknown } | undefined)?.dryRun === true;
      try {
        return spec.isDryRun(spec.parse(validateInput(spec.inputSchema, input)));
      } catch {
        return false;
      }
    },
  };
}

export function toolByName(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}

/** The VS Code name of a tool: tool names are global across extensions there. */
export const VSCODE_TOOL_PREFIX = 'scalpel_';

/** One tool as an MCP client lists it (`tools/list`): what every session pays for before its first call. */
export interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { type: 'object'; [key: string]: unknown };
  /** Only what differs from the specification's defaults (not read-only, destructive, open world). */
  readonly annotations?: { readonly readOnlyHint?: true; readonly destructiveHint?: false };
}

/**
 * The schema as listed: what the server checks anyway and answers with a clear error (validateInput: unknown
 * arguments, empty lists, over-long strings, numbers out of range) is not spelled out in every session's tool list.
 */
function listedSchema(schema: JsonSchema): JsonSchema {
  const {
    additionalProperties: _extra,
    minItems: _minItems,
    maxLength: _maxLength,
    minimum: _minimum,
    maximum: _maximum,
    properties,
    items,
    ...rest
  } = schema;
  return {
    ...rest,
    ...(properties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, listedSchema(v)])) }),
    ...(items === undefined ? {} : { items: listedSchema(items) }),
  };
}

/**
 * The tool list the MCP server sends: name, description, schema and the annotations that differ from the defaults
 * (no title: the name says it, and every token here is paid by every session). test/unit/tools/toolTable.test.ts
 * holds it under 1,300 tokens.
 */
export function listedTools(): ListedTool[] {
  return TOOLS.map((tool) => {
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: listedSchema(tool.inputSchema) as ListedTool['inputSchema'],
      ...(tool.readOnly
        ? { annotations: { readOnlyHint: true } }
        : tool.writes
          ? {}
          : { annotations: { destructiveHint: false } }),
    };
  });
}
