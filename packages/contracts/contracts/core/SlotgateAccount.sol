// SPDX-License-Identifier: GPL-3.0
pragma solidity 0.8.26;

import {SimpleAccount} from "@account-abstraction/contracts/samples/SimpleAccount.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";

/**
 * @title SlotgateAccount
 * @notice The ERC-4337 v0.6 wallet of Slotgate users and slots: SimpleAccount (one owner EOA signs
 *         UserOperations) plus `changeOwner`, which rotates the owner key while the wallet address,
 *         its balances, approvals and slot ownership stay as they are (spec 4.10 recovery).
 * @dev Deployed behind an ERC1967 proxy by {SlotgateAccountFactory}. After `changeOwner` the factory's
 *      `getAddress(newOwner, salt)` no longer names this wallet: keep the address, not the owner.
 */
contract SlotgateAccount is SimpleAccount {
    /**
     * @notice The owner key of this wallet was replaced.
     * @param previousOwner the owner that authorized the change
     * @param newOwner the owner from now on
     */
    event OwnerChanged(address indexed previousOwner, address indexed newOwner);

    /// @notice `changeOwner` was called by someone other than the EntryPoint, the owner or the wallet itself.
    /// @param caller the rejected `msg.sender`
    error NotOwnerOrEntryPoint(address caller);
    /// @notice The new owner is zero, the current owner, or the wallet itself.
    /// @param newOwner the rejected value
    error InvalidNewOwner(address newOwner);

    /**
     * @notice Deploys the implementation used by every wallet proxy.
     * @param anEntryPoint the ERC-4337 v0.6 EntryPoint this wallet trusts
     */
    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) {}

    /**
     * @notice Replaces the owner EOA. Call it through the EntryPoint with a UserOperation signed by
     *         the current owner (callData = `changeOwner(newOwner)` or `execute(self, 0, changeOwner(...))`),
     *         or directly from the current owner.
     * @dev From then on only `newOwner`'s signature validates; the old key gets `AA24 signature error`.
     * @param newOwner the new owner EOA; not zero, not the current owner, not this wallet
     */
    function changeOwner(address newOwner) external {
        if (msg.sender != address(entryPoint()) && msg.sender != owner && msg.sender != address(this)) {
            revert NotOwnerOrEntryPoint(msg.sender);
        }
        address previousOwner = owner;
        if (newOwner == address(0) || newOwner == previousOwner || newOwner == address(this)) {
            revert InvalidNewOwner(newOwner);
        }
        owner = newOwner;
        emit OwnerChanged(previousOwner, newOwner);
    }
}
