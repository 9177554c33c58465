/**
 * nodeAdmin_startSnapshotUpload: starts a background snapshot and returns at once.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import { snapshotDirectory } from '../../snapshots/snapshot-files.ts';
import type { SnapshotUploader } from '../../snapshots/snapshot-writer.ts';
import { InvalidParamsError } from '../errors.ts';

/** The snapshot handler. */
export function createSnapshotHandlers(uploader: SnapshotUploader): Pick<AdminHandlers, 'startSnapshotUpload'> {
  return {
    /** Handler for `nodeAdmin_startSnapshotUpload`: returns as soon as the upload has started. */
    async startSnapshotUpload(location) {
      try {
        snapshotDirectory(location);
      } catch (err) {
        throw new InvalidParamsError(0, 'location', (err as Error).message);
      }
      uploader.start(location);
    },
  };
}
