import { resolve } from 'node:path';
import { formatMetricsSummary, readMetrics, summarizeMetrics } from '../../core/llm/metrics';
import { type CliCommand, parseCommandArgs } from '../command';
import { metricsFilePath } from '../metricsFile';

export const statsCommand: CliCommand = {
  name: 'stats',
  summary: 'summarise the tokens of past model requests',
  usage: `Usage: scalpel stats [--file F] [--json]

Summarises the token metrics log (count, mean, p95, max of input and output tokens, and
what whole-file requests would have cost) per command and per operation kind.

Options:
  --file F   metrics log, relative to the current directory (default: $SCALPEL_METRICS_FILE or
             ~/.local/state/scalpel/metrics.jsonl); stats reads no workspace, so it has no --root
  --json     print the summary as JSON`,
  async run(args, io) {
    const { values } = parseCommandArgs(this, args, { file: { type: 'string' }, json: { type: 'boolean' } });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    const file = values.file === undefined ? metricsFilePath(io.env, io.cwd) : resolve(io.cwd, values.file);
    const summary = summarizeMetrics(readMetrics(file));
    io.stdout(
      values.json === true
        ? `${JSON.stringify({ file, ...summary }, null, 2)}\n`
        : `metrics: ${file}\n${formatMetricsSummary(summary)}`,
    );
    return 0;
  },
};
