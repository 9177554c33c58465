/**
 * A loopback port nothing listens on right now (bound on port 0, then released), for a listener whose
 * port must be known before the process that binds it starts.
 * @module
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}
