import type { ContractTransaction, ContractTransactionResponse, Overrides } from "ethers";

/** Solidity state mutability of an ABI function. */
export type StateMutability = "pure" | "view" | "nonpayable" | "payable";

/** Arguments of a contract method, optionally followed by ethers transaction overrides. */
export type MethodArgs<A extends unknown[]> = A | [...A, Overrides];

/**
 * A typed ethers v6 contract method: calling it sends a transaction (or, for `view`/`pure`, returns
 * the decoded result); `staticCall` simulates and returns the decoded result.
 *
 * @typeParam A - the argument tuple
 * @typeParam R - the decoded return value (`void` when none)
 * @typeParam S - the state mutability
 */
export interface TypedMethod<A extends unknown[], R, S extends StateMutability> {
  (...args: MethodArgs<A>): Promise<S extends "view" | "pure" ? R : ContractTransactionResponse>;
  /** Simulates the call with `eth_call` and returns the decoded result. */
  staticCall(...args: MethodArgs<A>): Promise<R>;
  /** Estimates the gas of the call. */
  estimateGas(...args: MethodArgs<A>): Promise<bigint>;
  /** Builds the transaction without sending it. */
  populateTransaction(...args: MethodArgs<A>): Promise<ContractTransaction>;
  /** Sends the call as a transaction, whatever its mutability. */
  send(...args: MethodArgs<A>): Promise<ContractTransactionResponse>;
}
