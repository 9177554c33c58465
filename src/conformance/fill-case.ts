/**
 * One scripted case of `npm run conformance:fill`.
 * @module
 */
import type { FixtureFlag } from './fixture-file.ts';

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
  /** The engine parts this case needs; set while they are not built, and the case is not run. */
  readonly waitingFor?: string;
}
