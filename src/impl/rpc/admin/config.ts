/**
 * nodeAdmin_getConfig / nodeAdmin_setConfig over the live configuration (src/impl/node-config).
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { NodeConfig } from '../../node-config/node-config.ts';

/** The configuration handlers. */
export function createConfigHandlers(config: NodeConfig): Pick<AdminHandlers, 'getConfig' | 'setConfig'> {
  return {
    async getConfig() {
      return config.get();
    },
    async setConfig(update) {
      await config.update(update);
    },
  };
}
