/**
 * The admin (`nodeAdmin_`) handler object. No admin domain is built yet, so every admin method
 * answers -32001 NOT_IMPLEMENTED (after the API key check) instead of pretending to act.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';

/** What the admin handlers are built from; engine parts join here as they are built. */
export interface AdminHandlerDeps {}

/** The admin handlers that exist so far: none. */
export type AdminHandlerSet = Partial<AdminHandlers>;

/** Creates the admin handler object. */
export function createAdminHandlers(_deps: AdminHandlerDeps = {}): AdminHandlerSet {
  return {} satisfies Partial<AdminHandlers>;
}
