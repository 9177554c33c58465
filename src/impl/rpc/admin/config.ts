/**
 * nodeAdmin_getConfig / nodeAdmin_setConfig over the live configuration (src/impl/node-config).
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { NodeAdminConfigUpdate } from '../../../generated/admin/types.ts';
import type { Logger } from '../../../server/types.ts';
import { isConfigKey } from '../../node-config/node-config.ts';
import type { NodeConfig } from '../../node-config/node-config.ts';

/** The configuration handlers; `logger` hears of the setConfig keys this node ignored. */
export function createConfigHandlers(
  config: NodeConfig,
  logger?: Logger,
): Pick<AdminHandlers, 'getConfig' | 'setConfig'> {
  return {
    /** Handler for `nodeAdmin_getConfig`. */
    async getConfig() {
      return config.get();
    },
    /**
     * Handler for `nodeAdmin_setConfig`: the generated validator has checked the types of the keys
     * this node knows. Keys it does not know (a 4.1 admin client sets ~40 more) are ignored, as
     * Aztec 4.1.2 does, and logged so an operator sees the setting had no effect.
     */
    async setConfig(update) {
      const known: Record<string, unknown> = {};
      const ignored: string[] = [];
      for (const [key, value] of Object.entries(update)) {
        if (isConfigKey(key)) known[key] = value;
        else ignored.push(key);
      }
      if (ignored.length > 0)
        logger?.warn('nodeAdmin_setConfig: ignored keys this node does not know', { keys: ignored });
      await config.update(known as NodeAdminConfigUpdate);
    },
  };
}
