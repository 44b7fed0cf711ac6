import { ToolInputError, type JsonSchema } from './types';

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
      throw new ToolInputError(`unknown argument "${key}"; the arguments are: ${Object.keys(properties).join(', ')}`);
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
    throw new ToolInputError(`the argument "${name}" must be ${what}, got ${JSON.stringify(value)}`);
  };
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') fail('a string');
      if (schema.enum !== undefined && !schema.enum.includes(value as string)) fail(`one of ${schema.enum.join(', ')}`);
      break;
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
