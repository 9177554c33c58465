/**
 * Handler tables cover their generated interface: a role that lacks a part states its methods as not
 * served (-32001 naming the JSON-RPC method), and the generated member → method names match the
 * method tables the server dispatches on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminMethodNames } from '../../../src/generated/admin/handlers.ts';
import { adminMethods } from '../../../src/generated/admin/methods.ts';
import { devMethodNames } from '../../../src/generated/dev/handlers.ts';
import { devMethods } from '../../../src/generated/dev/methods.ts';
import { publicMethodNames } from '../../../src/generated/public/handlers.ts';
import { publicMethods } from '../../../src/generated/public/methods.ts';
import { createAdminHandlers } from '../../../src/impl/rpc/admin/index.ts';
import { RpcError } from '../../../src/impl/rpc/errors.ts';
import { toJsonRpcError } from '../../../src/impl/rpc/wire-errors.ts';

describe('generated member names', () => {
  for (const [surface, names, table] of [
    ['public', publicMethodNames, publicMethods],
    ['admin', adminMethodNames, adminMethods],
    ['dev', devMethodNames, devMethods],
  ] as const) {
    it(`${surface}: one entry per method, as the method table names its handler`, () => {
      const fromTable = Object.fromEntries(Object.values(table).map((d) => [d.handler, d.name]));
      assert.deepEqual({ ...names }, fromTable);
    });
  }
});

describe('createAdminHandlers', () => {
  it('without parts: every admin method is present and answers -32001 naming itself', async () => {
    const handlers = createAdminHandlers({});
    const members = Object.keys(adminMethodNames).sort();
    assert.deepEqual(Object.keys(handlers).sort(), members);
    for (const member of members) {
      const method = adminMethodNames[member as keyof typeof adminMethodNames];
      const err = await (handlers as unknown as Record<string, () => Promise<unknown>>)[member]!().catch(
        (e: unknown) => e,
      );
      assert.ok(err instanceof RpcError, member);
      assert.deepEqual(toJsonRpcError(err), {
        code: -32001,
        message: `Method not implemented: ${method}`,
        data: { method },
      });
    }
  });
});
