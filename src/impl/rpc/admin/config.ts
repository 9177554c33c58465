/**
 * nodeAdmin_getConfig / nodeAdmin_setConfig over the live configuration (src/impl/node-config).
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { NodeConfig } from '../../node-config/node-config.ts';

/** The configuration handlers. */
export function createConfigHandlers(config: NodeConfig): Pick<AdminHandlers, 'getConfig' | 'setConfig'> {
  return {
    /** Handler for `nodeAdmin_getConfig`. */
    async getConfig() {
      return config.get();
    },
    /** Handler for `nodeAdmin_setConfig`: the generated validator has checked keys and types already. */
    async setConfig(update) {
      await config.update(update);
    },
  };
}
