/**
 * nodeAdmin_startSnapshotUpload: starts a background snapshot and returns at once. The location
 * (local directory or http(s):// base URL) is checked here, so a bad one is -32602, not a log line.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import { parseSnapshotLocation } from '../../snapshots/snapshot-files.ts';
import type { SnapshotUploader } from '../../snapshots/snapshot-writer.ts';
import { InvalidParamsError } from '../errors.ts';

/** The snapshot handler. */
export function createSnapshotHandlers(uploader: SnapshotUploader): Pick<AdminHandlers, 'startSnapshotUpload'> {
  return {
    /** Handler for `nodeAdmin_startSnapshotUpload`: returns as soon as the upload has started. */
    async startSnapshotUpload(location) {
      try {
        parseSnapshotLocation(location);
      } catch (err) {
        throw new InvalidParamsError(0, 'location', (err as Error).message);
      }
      uploader.start(location);
    },
  };
}
