import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own stdio limit: one message of newline-delimited JSON-RPC. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Bytes kept of each end of an oversized message: enough to find its id. */
const KEPT_END = 256;

/** A request id at the start (`{"jsonrpc":"2.0","id":7,...`) or the end (`...,"id":7}`, the SDK client's order). */
const ID_AT_START = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,64}")/;
const ID_AT_END = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,64}")\s*\}\s*$/;

/**
 * Newline-delimited JSON-RPC on stdin and stdout, as the SDK's StdioServerTransport, except for a message over the
 * limit: the SDK's transport closes on it and the server ends with status 0 and no word (issue 27). Here the message
 * is skipped as it streams (never held whole), answered with an error when its id can be read, and logged; the
 * server goes on serving.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while an oversized message is skipped: its first bytes, the last ones seen and its size so far. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly log: (message: string) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(10);
      if (newline < 0) {
        this.hold(rest);
        return;
      }
      this.hold(rest.subarray(0, newline));
      this.endOfLine();
      rest = rest.subarray(newline + 1);
    }
  };

  private readonly onError = (error: Error): void => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping !== undefined) {
      this.skipping.bytes += part.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, part]).subarray(-KEPT_END);
      return;
    }
    if (this.pendingBytes + part.length <= this.maxBytes) {
      this.pending.push(Buffer.from(part));
      this.pendingBytes += part.length;
      return;
    }
    const held = Buffer.concat([...this.pending, part]);
    this.skipping = { head: held.subarray(0, KEPT_END), tail: held.subarray(-KEPT_END), bytes: held.length };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endOfLine(): void {
    const skipped = this.skipping;
    if (skipped !== undefined) {
      this.skipping = undefined;
      this.refuse(skipped);
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(skipped: { head: Buffer; tail: Buffer; bytes: number }): void {
    const size = `${(skipped.bytes / 1024 / 1024).toFixed(1)} MB`;
    const limit = `${this.maxBytes / 1024 / 1024} MB`;
    const raw =
      ID_AT_START.exec(skipped.head.toString('utf8'))?.[1] ?? ID_AT_END.exec(skipped.tail.toString('utf8'))?.[1];
    this.log(
      `a message of ${size} is over the ${limit} limit of one message: skipped${raw === undefined ? ' (no request id found to answer)' : `, request ${raw} answered with an error`}`,
    );
    if (raw === undefined) return;
    const id = JSON.parse(raw) as string | number;
    void this.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `the message is ${size}, over the ${limit} limit of one message; send less per call (a narrower path, fewer operations per apply)`,
      },
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const json = serializeMessage(message);
    await new Promise<void>((done) => {
      if (this.stdout.write(json)) done();
      else this.stdout.once('drain', done);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.pending = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
