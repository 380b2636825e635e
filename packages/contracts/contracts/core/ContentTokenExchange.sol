// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IContentTokenExchange} from "../interfaces/IContentTokenExchange.sol";

/**
 * @title ContentTokenExchange
 * @notice The Slotgate content-token exchange and slot registry. See {IContentTokenExchange} for the
 *         rules; the storage names follow the specification (`_cuid_releaseTokenEnabled`, `used_balances`).
 * @dev The owner is the platform operator. XOTN moves only from `msg.sender` (purchases) and from the
 *      treasury (release settlements), each under the allowance that account gave this contract.
 */
contract ContentTokenExchange is IContentTokenExchange, Ownable2Step {
    using SafeERC20 for IERC20;

    /// @notice The platform's share of every purchase, in percent.
    uint256 public constant PLATFORM_FEE_PERCENT = 15;
    /// @dev Longest accepted cuid and client id, in bytes (bounds the gas of string keys).
    uint256 private constant MAX_CUID_BYTES = 64;
    uint256 private constant MAX_CLIENT_ID_BYTES = 128;

    /// @notice The XOTN token used for payment.
    IERC20 public immutable xotn;
    /// @notice Receives the 15% platform fee; funds release settlements through its allowance.
    address public treasury;

    /// @notice Per-cuid release flag: release settlement runs only while it is true. False by default.
    mapping(string cuid => bool enabled) public _cuid_releaseTokenEnabled;
    /// @notice Cumulative consumed content tokens per slot and cuid; never decreases.
    mapping(address slot => mapping(string cuid => uint256 used)) public used_balances;
    /// @notice The part of `used_balances` already settled by `release_used_balance`.
    mapping(address slot => mapping(string cuid => uint256 settled)) public released_used;

    mapping(string cuid => Provider provider) private _providers;
    mapping(address slot => mapping(string cuid => uint256 balance)) private _balances;
    mapping(string cuid => mapping(uint256 slot => address owner)) private _slotOwners;

    /**
     * @notice Deploys the exchange; the deployer becomes the platform (owner).
     * @param xotn_ the XOTN token
     * @param treasury_ the platform treasury
     */
    constructor(IERC20 xotn_, address treasury_) {
        if (address(xotn_) == address(0) || treasury_ == address(0)) revert ZeroAddress();
        xotn = xotn_;
        treasury = treasury_;
        emit TreasuryChanged(address(0), treasury_);
    }

    // ---------------------------------------------------------------- modifiers

    modifier onlyPlatformOrProvider(string calldata cuid) {
        if (msg.sender != owner() && msg.sender != _providers[cuid].ownerAddr) revert NotPlatformOrProvider(msg.sender);
        _;
    }

    /// @dev Replaces Ownable's string revert with the stable custom error `NotPlatform`.
    function _checkOwner() internal view override {
        if (owner() != msg.sender) revert NotPlatform(msg.sender);
    }

    // ---------------------------------------------------------------- platform

    /// @inheritdoc IContentTokenExchange
    function init_permission_provider(
        string calldata clientId,
        string calldata cuid,
        uint8 releasePer,
        address ownerAddr
    ) external onlyOwner {
        uint256 clientIdLength = bytes(clientId).length;
        if (clientIdLength == 0 || clientIdLength > MAX_CLIENT_ID_BYTES) revert InvalidClientId();
        _checkCuid(cuid);
        if (releasePer > 100) revert ReleasePerOutOfRange(releasePer);
        if (ownerAddr == address(0)) revert ZeroAddress();
        Provider storage provider = _providers[cuid];
        if (provider.registered) revert CuidAlreadyRegistered(cuid);
        provider.clientId = clientId;
        provider.ownerAddr = ownerAddr;
        provider.releasePer = releasePer;
        provider.registered = true;
        emit ProviderRegistered(keccak256(bytes(cuid)), cuid, clientId, ownerAddr, releasePer);
    }

    /// @inheritdoc IContentTokenExchange
    function update_provider(string calldata cuid, uint8 releasePer, address ownerAddr) external onlyOwner {
        Provider storage provider = _registered(cuid);
        if (releasePer > 100) revert ReleasePerOutOfRange(releasePer);
        if (ownerAddr == address(0)) revert ZeroAddress();
        provider.ownerAddr = ownerAddr;
        provider.releasePer = releasePer;
        emit ProviderUpdated(keccak256(bytes(cuid)), cuid, ownerAddr, releasePer);
    }

    /// @inheritdoc IContentTokenExchange
    function set_release_enabled(string calldata cuid, bool enabled) external onlyOwner {
        _registered(cuid);
        _cuid_releaseTokenEnabled[cuid] = enabled;
        emit ReleaseEnabledChanged(keccak256(bytes(cuid)), cuid, enabled);
    }

    /// @inheritdoc IContentTokenExchange
    function set_treasury(address newTreasury) external onlyOwner {
        if (newTreasury == address(0)) revert ZeroAddress();
        emit TreasuryChanged(treasury, newTreasury);
        treasury = newTreasury;
    }

    // ---------------------------------------------------------------- purchase and spending

    /// @inheritdoc IContentTokenExchange
    function buy_content_token(address slot, string calldata cuid, uint256 xotnAmount)
        external
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived)
    {
        if (slot == address(0)) revert ZeroAddress();
        if (xotnAmount == 0) revert ZeroAmount();
        Provider storage provider = _registered(cuid);
        address payer = msg.sender;
        uint256 allowance = xotn.allowance(payer, address(this));
        if (allowance < xotnAmount) revert InsufficientAllowance(payer, allowance, xotnAmount);
        uint256 held = xotn.balanceOf(payer);
        if (held < xotnAmount) revert InsufficientXotn(payer, held, xotnAmount);

        (tokenAmount, platformFee, providerReceived) = _split(xotnAmount);
        _balances[slot][cuid] += tokenAmount;
        address providerOwner = provider.ownerAddr;
        emit ContentTokenPurchased(
            payer, slot, keccak256(bytes(cuid)), cuid, xotnAmount, tokenAmount, platformFee, providerReceived
        );

        if (platformFee > 0) xotn.safeTransferFrom(payer, treasury, platformFee);
        xotn.safeTransferFrom(payer, providerOwner, providerReceived);
    }

    /// @inheritdoc IContentTokenExchange
    function increase_used(address slot, string calldata cuid, uint256 amount)
        external
        onlyPlatformOrProvider(cuid)
    {
        if (slot == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        _registered(cuid);
        uint256 balance = _balances[slot][cuid];
        if (balance < amount) revert InsufficientBalance(slot, balance, amount);
        uint256 newBalance;
        unchecked {
            newBalance = balance - amount;
        }
        uint256 newUsed = used_balances[slot][cuid] + amount;
        _balances[slot][cuid] = newBalance;
        used_balances[slot][cuid] = newUsed;
        emit UsedBalanceIncreased(slot, keccak256(bytes(cuid)), cuid, amount, newBalance, newUsed);
    }

    /// @inheritdoc IContentTokenExchange
    function release_used_balance(string calldata cuid, address slot)
        external
        onlyPlatformOrProvider(cuid)
        returns (uint256 releasedAmount)
    {
        if (slot == address(0)) revert ZeroAddress();
        Provider storage provider = _registered(cuid);
        if (!_cuid_releaseTokenEnabled[cuid]) revert ReleaseDisabled(cuid);

        uint256 used = used_balances[slot][cuid];
        uint256 settledUsed = used - released_used[slot][cuid];
        releasedAmount = _releaseOf(settledUsed, provider.releasePer);
        address providerOwner = provider.ownerAddr;
        address payer = treasury;
        if (releasedAmount > 0) {
            uint256 available = xotn.allowance(payer, address(this));
            uint256 held = xotn.balanceOf(payer);
            if (held < available) available = held;
            if (available < releasedAmount) revert ReleaseFundingShort(payer, available, releasedAmount);
        }

        released_used[slot][cuid] = used;
        emit UsedBalanceReleased(slot, keccak256(bytes(cuid)), providerOwner, cuid, settledUsed, releasedAmount);
        if (releasedAmount > 0) xotn.safeTransferFrom(payer, providerOwner, releasedAmount);
    }

    // ---------------------------------------------------------------- slot registry

    /// @inheritdoc IContentTokenExchange
    function buy_slot(address aaAddress, uint256 slot, string calldata cuid) external {
        if (msg.sender != owner() && msg.sender != aaAddress) revert NotPlatformOrSelf(msg.sender);
        if (aaAddress == address(0)) revert ZeroAddress();
        _registered(cuid);
        address current = _slotOwners[cuid][slot];
        if (current != address(0)) revert SlotAlreadyOwned(slot, current);
        _slotOwners[cuid][slot] = aaAddress;
        emit SlotOwnerChanged(slot, address(0), aaAddress, cuid);
    }

    /// @inheritdoc IContentTokenExchange
    function change_slot_owner(string calldata cuid, uint256 slot, address newOwner) external {
        address current = _slotOwners[cuid][slot];
        if (current == address(0)) revert SlotNotOwned(slot);
        if (msg.sender != current) revert NotSlotOwner(msg.sender, current);
        if (newOwner == address(0)) revert ZeroAddress();
        _slotOwners[cuid][slot] = newOwner;
        emit SlotOwnerChanged(slot, current, newOwner, cuid);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IContentTokenExchange
    function balance_adex(address slot, string calldata cuid) external view returns (uint256 balance, uint256 used) {
        return (_balances[slot][cuid], used_balances[slot][cuid]);
    }

    /// @inheritdoc IContentTokenExchange
    function get_provider(string calldata cuid) external view returns (Provider memory provider) {
        return _providers[cuid];
    }

    /// @inheritdoc IContentTokenExchange
    function slot_owner(string calldata cuid, uint256 slot) external view returns (address owner) {
        return _slotOwners[cuid][slot];
    }

    /// @inheritdoc IContentTokenExchange
    function releasable(string calldata cuid, address slot) external view returns (uint256 amount) {
        return _releaseOf(used_balances[slot][cuid] - released_used[slot][cuid], _providers[cuid].releasePer);
    }

    /// @inheritdoc IContentTokenExchange
    function quote(uint256 xotnAmount)
        external
        pure
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived)
    {
        return _split(xotnAmount);
    }

    // ---------------------------------------------------------------- internals

    function _registered(string calldata cuid) private view returns (Provider storage provider) {
        provider = _providers[cuid];
        if (!provider.registered) revert UnknownCuid(cuid);
    }

    function _checkCuid(string calldata cuid) private pure {
        uint256 length = bytes(cuid).length;
        if (length == 0 || length > MAX_CUID_BYTES) revert InvalidCuid();
    }

    /// @dev floor(amount * percent / 100) without intermediate overflow for any uint256 amount.
    function _percentOf(uint256 amount, uint256 percent) private pure returns (uint256) {
        return (amount / 100) * percent + ((amount % 100) * percent) / 100;
    }

    /// @dev Release rule: releasePer percent of the platform fee on `settledUsed`, one floor, no overflow.
    function _releaseOf(uint256 settledUsed, uint256 releasePer) private pure returns (uint256) {
        return Math.mulDiv(settledUsed, PLATFORM_FEE_PERCENT * releasePer, 10_000);
    }

    /// @dev The purchase rule: fee = floor(15%), provider = the rest, tokens 1:1. Nothing created or lost.
    function _split(uint256 xotnAmount)
        private
        pure
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived)
    {
        platformFee = _percentOf(xotnAmount, PLATFORM_FEE_PERCENT);
        providerReceived = xotnAmount - platformFee;
        tokenAmount = xotnAmount;
    }
}
