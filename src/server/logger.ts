/**
 * Structured logs: one JSON object per line on stderr, with `time`, `level`, `msg` and fields.
 * stdout stays free for the one thing an operator must see: a newly generated admin key.
 * @module
 */
import { LOG_LEVELS } from '../config/options.ts';
import type { LogLevel } from '../config/options.ts';
import type { LogFields, Logger } from './types.ts';

/** Creates a logger writing lines at `level` or more severe to `write` (stderr by default). */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
  bindings: LogFields = {},
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (lineLevel: Exclude<LogLevel, 'silent'>) => {
    if (LOG_LEVELS.indexOf(lineLevel) < threshold) return () => {};
    return (msg: string, fields: LogFields = {}) => {
      write(`${safeStringify({ time: new Date().toISOString(), level: lineLevel, msg, ...bindings, ...fields })}\n`);
    };
  };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    enabled: (lineLevel) => LOG_LEVELS.indexOf(lineLevel) >= threshold,
  };
}

/** A logger that drops everything, for tests and tools. */
export const silentLogger: Logger = createLogger('silent', () => {});

function safeStringify(value: object): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
    return v;
  });
}
