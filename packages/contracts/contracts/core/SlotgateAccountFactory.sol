// SPDX-License-Identifier: GPL-3.0
pragma solidity 0.8.26;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {SlotgateAccount} from "./SlotgateAccount.sol";

/**
 * @title SlotgateAccountFactory
 * @notice Deploys {SlotgateAccount} wallets at CREATE2 addresses that can be computed off-chain from
 *         (factory, owner, salt). Slotgate uses salt W_SALT (0) for a user's wallet; every other salt
 *         (C_SALT, the slot salts) makes a slot wallet, restricted to the calls a slot needs in the
 *         transaction that deploys it. Used in a UserOperation's `initCode`.
 * @dev Same address scheme as the v0.6 SimpleAccountFactory: an ERC1967Proxy to one shared
 *      implementation, initialised with `initialize(owner)`. The implementation is the factory's first
 *      CREATE (factory nonce 1), so its address is computable too; it has no upgrade path, so every
 *      wallet of this factory runs it for all its life.
 */
contract SlotgateAccountFactory {
    /// @notice The salt of a user's wallet (spec 2.6 `W_SALT`): the one salt that makes an unrestricted wallet.
    uint256 public constant USER_WALLET_SALT = 0;

    /// @notice The wallet implementation all proxies point to.
    SlotgateAccount public immutable accountImplementation;

    /**
     * @notice A wallet was deployed.
     * @param account the wallet address
     * @param owner its owner EOA
     * @param salt the CREATE2 salt (W_SALT or C_SALT in Slotgate)
     */
    event AccountCreated(address indexed account, address indexed owner, uint256 salt);

    /**
     * @notice Deploys the factory and the wallet implementation.
     * @param anEntryPoint the EntryPoint the wallets trust
     * @param xotn the XOTN token (a slot wallet approves only the exchange on it)
     * @param exchange the content-token exchange and slot registry
     */
    constructor(IEntryPoint anEntryPoint, address xotn, address exchange) {
        accountImplementation = new SlotgateAccount(anEntryPoint, xotn, exchange);
    }

    /**
     * @notice Deploys the wallet of (`owner`, `salt`) unless it exists, and returns its address either way.
     *         A wallet of any salt but {USER_WALLET_SALT} is a slot wallet from its first transaction on.
     * @param owner the owner EOA
     * @param salt the CREATE2 salt
     * @return ret the wallet
     */
    function createAccount(address owner, uint256 salt) external returns (SlotgateAccount ret) {
        address addr = getAddress(owner, salt);
        if (addr.code.length > 0) {
            return SlotgateAccount(payable(addr));
        }
        ret = SlotgateAccount(
            payable(
                new ERC1967Proxy{salt: bytes32(salt)}(
                    address(accountImplementation), abi.encodeCall(SlotgateAccount.initialize, (owner))
                )
            )
        );
        if (salt != USER_WALLET_SALT) ret.restrictToSlotCalls();
        emit AccountCreated(address(ret), owner, salt);
    }

    /**
     * @notice The counterfactual address `createAccount(owner, salt)` deploys to.
     * @dev In ethers v6 call it as `factory["getAddress(address,uint256)"](owner, salt)`.
     * @param owner the owner EOA
     * @param salt the CREATE2 salt
     * @return the wallet address
     */
    function getAddress(address owner, uint256 salt) public view returns (address) {
        return Create2.computeAddress(
            bytes32(salt),
            keccak256(
                abi.encodePacked(
                    type(ERC1967Proxy).creationCode,
                    abi.encode(address(accountImplementation), abi.encodeCall(SlotgateAccount.initialize, (owner)))
                )
            )
        );
    }
}
