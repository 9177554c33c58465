/**
 * One scripted case of `npm run conformance:fill`.
 * @module
 */
import type { FixtureFlag } from './fixture-file.ts';

/** A request sent in the same fixture before or after the case's own one. */
export interface FillStep {
  readonly method: string;
  readonly params: readonly unknown[];
  /** Defaults to the case's surface; the other surface is written as `>>admin ` / `>>public `. */
  readonly surface?: 'public' | 'admin';
}

/** A case to record: a request and what the fixture says about it. */
export interface FillCase {
  readonly method: string;
  /** Kebab-case file name without `.io`; never `example-*` or `error-*` (those are codegen's). */
  readonly name: string;
  /** Defaults to `public`; admin cases get `needs-api-key`. */
  readonly surface?: 'public' | 'admin';
  readonly description: string;
  readonly params: readonly unknown[];
  /** `schema-only` where values legitimately differ between implementations; `deliberate-error` for -32602 cases. */
  readonly flags?: readonly FixtureFlag[];
  /** Steps before the case's own request: they stage the situation (e.g. a smaller pool). */
  readonly before?: readonly FillStep[];
  /** Steps after it: they observe the effect or undo it (e.g. the pool size set back). */
  readonly after?: readonly FillStep[];
  /**
   * The fixture leaves the node changed (a tx added to the pool): it gets the `state-changing`
   * flag and is recorded and replayed after every fixture that changes nothing, in path order.
   */
  readonly stateChanging?: boolean;
  /** The engine parts this case needs; set while they are not built, and the case is not run. */
  readonly waitingFor?: string;
}
