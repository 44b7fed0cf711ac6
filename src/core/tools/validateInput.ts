import { ToolInputError, type JsonSchema } from './types';

/**
 * The longest string argument a tool takes unless its schema says otherwise (`maxLength`): element paths, names and
 * globs are far shorter, and a longer one costs every later step (resolving, counting, echoing) for nothing.
 */
export const MAX_ARGUMENT_CHARS = 4_096;

/** The longest list argument (paths, focus, symbols). */
export const MAX_ARGUMENT_ITEMS = 1_000;

/** An argument as an answer may quote it: the first characters and its length, never the whole of a long one. */
export function clipped(value: string, max = 80): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length.toLocaleString('en-US')} characters)`;
}

/**
 * Checks a tool's input against its schema (the subset the tools use) and fills defaults. VS Code validates before
 * invoking, MCP clients may not: the message names the argument and what it must be.
 */
export function validateInput(schema: JsonSchema, input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('the arguments must be an object');
  const record = { ...(input as Record<string, unknown>) };
  const properties = schema.properties ?? {};
  for (const key of Object.keys(record)) {
    if (!(key in properties)) {
      throw new ToolInputError(
        `unknown argument "${clipped(key)}"; the arguments are: ${Object.keys(properties).join(', ')}`,
      );
    }
  }
  for (const name of schema.required ?? []) {
    if (record[name] === undefined) throw new ToolInputError(`the argument "${name}" is required`);
  }
  for (const [name, property] of Object.entries(properties)) {
    const value = record[name];
    if (value === undefined) continue;
    checkValue(name, property, value);
  }
  return record;
}

function checkValue(name: string, schema: JsonSchema, value: unknown): void {
  const fail = (what: string): never => {
    throw new ToolInputError(
      `the argument "${name}" must be ${what}, got ${clipped(JSON.stringify(value) ?? String(value))}`,
    );
  };
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') fail('a string');
      const max = schema.maxLength ?? MAX_ARGUMENT_CHARS;
      if ((value as string).length > max)
        throw new ToolInputError(
          `the argument "${name}" is ${(value as string).length.toLocaleString('en-US')} characters long; the limit is ${max.toLocaleString('en-US')} (an element path, a name or a glob is far shorter): it starts ${clipped(value as string, 60)}`,
        );
      if (schema.enum !== undefined && !schema.enum.includes(value as string)) fail(`one of ${schema.enum.join(', ')}`);
      break;
    }
    case 'integer':
    case 'number':
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        (schema.type === 'integer' && !Number.isInteger(value))
      )
        fail(schema.type === 'integer' ? 'a whole number' : 'a number');
      if (schema.minimum !== undefined && (value as number) < schema.minimum) fail(`at least ${schema.minimum}`);
      if (schema.maximum !== undefined && (value as number) > schema.maximum) fail(`at most ${schema.maximum}`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') fail('true or false');
      break;
    case 'array':
      if (!Array.isArray(value)) fail('an array');
      if ((value as unknown[]).length > MAX_ARGUMENT_ITEMS)
        throw new ToolInputError(
          `the argument "${name}" has ${(value as unknown[]).length.toLocaleString('en-US')} items; the limit is ${MAX_ARGUMENT_ITEMS.toLocaleString('en-US')}: split the call`,
        );
      if (schema.minItems !== undefined && (value as unknown[]).length < schema.minItems)
        fail(`an array of at least ${schema.minItems} item(s)`);
      if (schema.items !== undefined)
        (value as unknown[]).forEach((item, i) => checkValue(`${name}[${i}]`, schema.items as JsonSchema, item));
      break;
    default:
      break;
  }
}

export function stringArg(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' ? value : undefined;
}

export function numberArg(input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  return typeof value === 'number' ? value : undefined;
}

export function stringsArg(input: Record<string, unknown>, name: string): string[] | undefined {
  const value = input[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}
