/**
 * Handlers for the methods a role does not serve (a reader has no simulation, a node without the
 * admin side's slot record has no validator stats): each answers -32001 NOT_IMPLEMENTED naming its
 * JSON-RPC method. A handler set is typed as the whole generated interface, so a role states every
 * method it leaves out here instead of leaving a gap the compiler cannot see.
 * @module
 */
import { NotImplementedError } from './errors.ts';

/**
 * For a surface whose members are named by `methodNames` (src/generated/<surface>/handlers.ts): the
 * handlers of the given methods. The methods are inferred from the list, so the set they fill is
 * exactly the list's (`notServed(['simulatePublicCalls'])` is `Pick<PublicHandlers, 'simulatePublicCalls'>`).
 */
export function notServedByThisRole<H>(
  methodNames: { readonly [P in keyof H]: string },
): <K extends keyof H & string>(methods: readonly K[]) => Pick<H, K> {
  return (methods) =>
    Object.fromEntries(
      methods.map((m) => [
        m,
        async () => {
          throw new NotImplementedError(methodNames[m]);
        },
      ]),
    ) as Pick<H, (typeof methods)[number]>;
}
