/**
 * The logger the engine's parts write through (the server's Logger fits). Each part takes only the
 * levels it uses, as `Pick<EngineLogger, ...>`, so tests can hand in a small recorder.
 * @module
 */

/** Structured JSON-lines logging at four levels. */
export interface EngineLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}
