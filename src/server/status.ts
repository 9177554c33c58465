/**
 * `GET /status` (SPEC §1): a small health body, 200 while healthy and 503 when not or while
 * shutting down. Never behind the admin key (SPEC §5).
 * @module
 */
import type { HealthProvider } from './types.ts';

/** Builds the status answer from the health provider. */
export async function renderStatus(
  health: HealthProvider,
  startedAt: number,
  closing: boolean,
): Promise<{ status: number; body: string }> {
  const uptimeSeconds = Math.floor((Date.now() - startedAt) / 1000);
  try {
    const report = await health();
    const healthy = report.healthy && !closing;
    const { healthy: _ignored, ...details } = report;
    const status = closing ? 'shutting-down' : healthy ? 'ok' : 'unavailable';
    return { status: healthy ? 200 : 503, body: JSON.stringify({ status, uptimeSeconds, ...details }) };
  } catch {
    return { status: 503, body: JSON.stringify({ status: 'unavailable', uptimeSeconds }) };
  }
}
