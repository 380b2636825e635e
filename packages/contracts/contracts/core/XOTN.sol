// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";

/**
 * @title XOTN
 * @notice The Slotgate platform's ERC-20 token (18 decimals). Users pay XOTN for content tokens on
 *         the content-token exchange; the platform issues XOTN.
 * @dev OpenZeppelin 4.9 ERC20 + EIP-2612 permit. Only the platform (the owner, two-step transfer)
 *      can mint. Every balance change emits the standard `Transfer` event.
 */
contract XOTN is ERC20, ERC20Permit, Ownable2Step {
    /// @notice A zero address was given where a holder is required.
    error ZeroAddress();
    /// @notice The caller is not the platform (the owner).
    /// @param caller the rejected `msg.sender`
    error NotOwner(address caller);

    /**
     * @notice Deploys XOTN and mints `initialSupply` to `initialHolder`; the deployer becomes the owner.
     * @param initialHolder receives the initial supply (normally the platform treasury)
     * @param initialSupply amount in wei (18 decimals); may be zero
     */
    constructor(address initialHolder, uint256 initialSupply) ERC20("XOTN", "XOTN") ERC20Permit("XOTN") {
        if (initialHolder == address(0)) revert ZeroAddress();
        if (initialSupply > 0) _mint(initialHolder, initialSupply);
    }

    /**
     * @notice Mints new XOTN. Only the platform (owner) may call it.
     * @dev Emits `Transfer(address(0), to, amount)`.
     * @param to recipient; must not be the zero address
     * @param amount amount in wei
     */
    function mint(address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        _mint(to, amount);
    }

    /// @dev Replaces Ownable's string revert with the stable custom error `NotOwner`.
    function _checkOwner() internal view override {
        if (owner() != _msgSender()) revert NotOwner(_msgSender());
    }
}
