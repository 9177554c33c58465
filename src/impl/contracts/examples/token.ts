/**
 * Example token with public balances, in public VM assembly: an admin set once by the
 * constructor mints; holders transfer; anyone reads balances. Signatures follow Aztec's Token.
 * @module
 */
import { assemble } from '../../execution/assembler.ts';
import type { AssembledProgram } from '../../execution/assembler.ts';

/** Storage slots of the token. */
export const TokenStorage = { ADMIN: 1n, BALANCES: 2n, TOTAL_SUPPLY: 3n } as const;

/** The token's source. calldata = [selector, ...args]; amounts are u128. */
export const TOKEN_SOURCE = `
.def ZERO m0
.def ONE m1
.def TWO m2
.def THREE m3
.def FOUR m4
.def U128 m5
.def CALLER m6
.def TMP m7
.def OK m8

; Every entry point shares the constant prologue through an internal call.
prologue:
  SET ZERO, 0
  SET ONE, 1
  SET TWO, 2
  SET THREE, 3
  SET FOUR, 4
  SET U128, 0x100000000000000000000000000000000
  GETENV CALLER, SENDER
  INTERNALRETURN

.fn constructor((Field))
  INTERNALCALL prologue
  SLOAD TMP, ONE
  EQ OK, TMP, ZERO
  ASSERT OK, "already initialized"
  CALLDATALOAD m10, ONE
  SSTORE ONE, m10
  RETURN m0, 0

.fn mint_to_public((Field),u128)
  INTERNALCALL prologue
  SLOAD TMP, ONE
  EQ OK, TMP, CALLER
  ASSERT OK, "caller is not the admin"
  CALLDATALOAD m10, ONE          ; to
  CALLDATALOAD m11, TWO          ; amount
  LT OK, m11, U128
  ASSERT OK, "amount exceeds u128"
  MAPSLOT m12, TWO, m10
  SLOAD m13, m12
  ADD m13, m13, m11
  SSTORE m12, m13
  SLOAD m14, THREE
  ADD m14, m14, m11
  LT OK, m14, U128
  ASSERT OK, "total supply overflow"
  SSTORE THREE, m14
  RETURN m0, 0

.fn transfer_in_public((Field),(Field),u128,Field)
  INTERNALCALL prologue
  CALLDATALOAD m10, ONE          ; from
  CALLDATALOAD m11, TWO          ; to
  CALLDATALOAD m12, THREE        ; amount
  CALLDATALOAD m13, FOUR         ; nonce
  EQ OK, m10, CALLER
  ASSERT OK, "sender is not from (authwits are not supported)"
  EQ OK, m13, ZERO
  ASSERT OK, "nonce must be 0"
  LT OK, m12, U128
  ASSERT OK, "amount exceeds u128"
  MAPSLOT m14, TWO, m10
  SLOAD m15, m14
  LTE OK, m12, m15
  ASSERT OK, "insufficient balance"
  SUB m15, m15, m12
  SSTORE m14, m15
  MAPSLOT m16, TWO, m11
  SLOAD m17, m16
  ADD m17, m17, m12
  SSTORE m16, m17
  MOV m20, m10                   ; log: [from, to, amount]
  MOV m21, m11
  MOV m22, m12
  EMITLOG m20, 3
  RETURN m0, 0

.fn balance_of_public((Field))
  INTERNALCALL prologue
  CALLDATALOAD m10, ONE
  MAPSLOT m11, TWO, m10
  SLOAD m12, m11
  RETURN m12, 1

.fn total_supply()
  INTERNALCALL prologue
  SLOAD m10, THREE
  RETURN m10, 1

.fn get_admin()
  INTERNALCALL prologue
  SLOAD m10, ONE
  RETURN m10, 1
`;

/** Assembles the token. */
export function assembleToken(): AssembledProgram {
  return assemble(TOKEN_SOURCE);
}
