// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IContentTokenExchange} from "../interfaces/IContentTokenExchange.sol";

/**
 * @title ContentTokenExchange
 * @notice The Slotgate content-token exchange and slot registry. See {IContentTokenExchange} for the
 *         rules; the storage names follow the specification (`_cuid_releaseTokenEnabled`, `used_balances`).
 * @dev The owner is the platform's governance key; the operator and the spend recorder are the
 *      platform's service keys (see {IContentTokenExchange} for who may call what). XOTN moves only from
 *      `msg.sender` (`buy_content_token`), from a slot within the consent it gave for one cuid under its
 *      current owner (`buy_for`), and from the treasury (release settlements), each under the XOTN allowance that
 *      account gave this contract.
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
    /// @notice The platform's service key: registrations, release flags, slot owners, `buy_for`, release.
    address public operator;
    /// @notice The platform's key that records spending.
    address public spendRecorder;

    /// @notice Per-cuid release flag: release settlement runs only while it is true. False by default.
    mapping(string cuid => bool enabled) public _cuid_releaseTokenEnabled;
    /// @notice The part of `used_balances` already settled by `release_used_balance`.
    mapping(address slot => mapping(string cuid => uint256 settled)) public released_used;
    /// @notice Platform fees the treasury collected on purchases for a slot and cuid (caps its releases).
    mapping(address slot => mapping(string cuid => uint256 fees)) public fees_collected;
    /// @notice XOTN wei paid to the provider by releases for a slot and cuid.
    mapping(address slot => mapping(string cuid => uint256 paid)) public fees_released;

    mapping(string cuid => Provider provider) private _providers;
    /// @dev A slot's content tokens of one cuid in one storage word: what it holds and what it has used
    ///      (spec `used_balances`). One word instead of two saves a cold read and a write per spend.
    struct Holding {
        uint128 balance;
        uint128 used;
    }

    mapping(address slot => mapping(string cuid => Holding holding)) private _holdings;
    mapping(string cuid => mapping(uint256 slot => SlotRecord record)) private _slots;

    /// @dev Per wallet: whether it backs a registered slot (each backs at most one, for all its life),
    ///      and its owner epoch: how many times that slot changed owner. Consents are kept per epoch, so
    ///      an owner change ends every consent of the wallet in this one word.
    struct WalletState {
        bool backsSlot;
        uint64 ownerEpoch;
    }

    mapping(address wallet => WalletState state) private _wallets;
    /// @dev XOTN wei the operator may still spend from a slot on one cuid, per owner epoch of the slot.
    mapping(address slot => mapping(uint256 epoch => mapping(string cuid => uint256 amount))) private _consents;

    /**
     * @notice Deploys the exchange; the deployer becomes the owner (move it to a multisig with
     *         `transferOwnership` + `acceptOwnership`).
     * @param xotn_ the XOTN token
     * @param treasury_ the platform treasury
     * @param operator_ the platform's service key
     * @param spendRecorder_ the platform's spend-recording key
     */
    constructor(IERC20 xotn_, address treasury_, address operator_, address spendRecorder_) {
        if (
            address(xotn_) == address(0) || treasury_ == address(0) || operator_ == address(0)
                || spendRecorder_ == address(0)
        ) revert ZeroAddress();
        xotn = xotn_;
        treasury = treasury_;
        operator = operator_;
        spendRecorder = spendRecorder_;
        emit TreasuryChanged(address(0), treasury_);
        emit OperatorChanged(address(0), operator_);
        emit SpendRecorderChanged(address(0), spendRecorder_);
    }

    // ---------------------------------------------------------------- modifiers

    modifier onlyOperator() {
        if (msg.sender != operator && msg.sender != owner()) revert NotOperator(msg.sender);
        _;
    }

    modifier onlyOperatorOrProvider(string calldata cuid) {
        if (msg.sender != operator && msg.sender != owner() && msg.sender != _providers[cuid].ownerAddr) {
            revert NotPlatformOrProvider(msg.sender);
        }
        _;
    }

    modifier onlySpendRecorderOrProvider(string calldata cuid) {
        if (msg.sender != spendRecorder && msg.sender != _providers[cuid].ownerAddr) {
            revert NotSpendRecorderOrProvider(msg.sender);
        }
        _;
    }

    /// @dev Replaces Ownable's string revert with the stable custom error `NotPlatform`.
    function _checkOwner() internal view override {
        if (owner() != msg.sender) revert NotPlatform(msg.sender);
    }

    // ---------------------------------------------------------------- platform

    /// @inheritdoc IContentTokenExchange
    function set_operator(address newOperator) external onlyOwner {
        if (newOperator == address(0)) revert ZeroAddress();
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    /// @inheritdoc IContentTokenExchange
    function set_spend_recorder(address newRecorder) external onlyOwner {
        if (newRecorder == address(0)) revert ZeroAddress();
        emit SpendRecorderChanged(spendRecorder, newRecorder);
        spendRecorder = newRecorder;
    }

    /// @inheritdoc IContentTokenExchange
    function init_permission_provider(
        string calldata clientId,
        string calldata cuid,
        uint8 releasePer,
        address ownerAddr
    ) external onlyOperator {
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
    function set_release_enabled(string calldata cuid, bool enabled) external onlyOperator {
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
        return _buy(msg.sender, slot, cuid, xotnAmount);
    }

    /// @inheritdoc IContentTokenExchange
    function approve_purchases(string calldata cuid, uint256 amount) external {
        _registered(cuid);
        _consents[msg.sender][_wallets[msg.sender].ownerEpoch][cuid] = amount;
        emit PurchaseAllowanceSet(msg.sender, keccak256(bytes(cuid)), cuid, amount);
    }

    /// @inheritdoc IContentTokenExchange
    function buy_for(address slot, string calldata cuid, uint256 xotnAmount)
        external
        onlyOperator
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived)
    {
        mapping(string => uint256) storage consents = _consents[slot][_wallets[slot].ownerEpoch];
        uint256 allowed = consents[cuid];
        if (allowed < xotnAmount) revert InsufficientPurchaseAllowance(slot, cuid, allowed, xotnAmount);
        unchecked {
            consents[cuid] = allowed - xotnAmount;
        }
        return _buy(slot, slot, cuid, xotnAmount);
    }

    /// @inheritdoc IContentTokenExchange
    function increase_used(address slot, string calldata cuid, uint256 amount)
        external
        onlySpendRecorderOrProvider(cuid)
    {
        _registered(cuid);
        _spend(slot, cuid, keccak256(bytes(cuid)), amount);
    }

    /// @inheritdoc IContentTokenExchange
    function increase_used_batch(string calldata cuid, address[] calldata slots, uint256[] calldata amounts)
        external
        onlySpendRecorderOrProvider(cuid)
    {
        uint256 count = slots.length;
        if (count == 0 || count != amounts.length) revert InvalidBatch(count, amounts.length);
        _registered(cuid);
        bytes32 cuidKey = keccak256(bytes(cuid));
        for (uint256 i = 0; i < count;) {
            _spend(slots[i], cuid, cuidKey, amounts[i]);
            unchecked {
                ++i;
            }
        }
    }

    /// @inheritdoc IContentTokenExchange
    function release_used_balance(string calldata cuid, address slot)
        external
        onlyOperatorOrProvider(cuid)
        returns (uint256 releasedAmount)
    {
        if (slot == address(0)) revert ZeroAddress();
        Provider storage provider = _registered(cuid);
        if (!_cuid_releaseTokenEnabled[cuid]) revert ReleaseDisabled(cuid);

        uint256 used = _holdings[slot][cuid].used;
        uint256 settledUsed = used - released_used[slot][cuid];
        uint256 paid = fees_released[slot][cuid];
        releasedAmount = _capped(_releaseOf(settledUsed, provider.releasePer), fees_collected[slot][cuid] - paid);
        address providerOwner = provider.ownerAddr;
        address payer = treasury;
        if (releasedAmount > 0) {
            uint256 available = xotn.allowance(payer, address(this));
            uint256 held = xotn.balanceOf(payer);
            if (held < available) available = held;
            if (available < releasedAmount) revert ReleaseFundingShort(payer, available, releasedAmount);
        }

        released_used[slot][cuid] = used;
        if (releasedAmount > 0) fees_released[slot][cuid] = paid + releasedAmount;
        emit UsedBalanceReleased(slot, keccak256(bytes(cuid)), providerOwner, cuid, settledUsed, releasedAmount);
        if (releasedAmount > 0) xotn.safeTransferFrom(payer, providerOwner, releasedAmount);
    }

    // ---------------------------------------------------------------- slot registry

    /// @inheritdoc IContentTokenExchange
    function buy_slot(address aaAddress, uint256 slot, string calldata cuid, address slotWallet)
        external
        onlyOperator
    {
        if (aaAddress == address(0) || slotWallet == address(0)) revert ZeroAddress();
        _registered(cuid);
        SlotRecord storage record = _slots[cuid][slot];
        address current = record.owner;
        if (current != address(0)) revert SlotAlreadyOwned(slot, current);
        WalletState storage wallet = _wallets[slotWallet];
        if (wallet.backsSlot) revert SlotWalletInUse(slotWallet);
        wallet.backsSlot = true;
        record.owner = aaAddress;
        record.wallet = slotWallet;
        emit SlotOwnerChanged(slot, address(0), aaAddress, cuid);
    }

    /// @inheritdoc IContentTokenExchange
    function change_slot_owner(string calldata cuid, uint256 slot, address newOwner) external {
        SlotRecord storage record = _slots[cuid][slot];
        address current = record.owner;
        if (current == address(0)) revert SlotNotOwned(slot);
        if (msg.sender != record.wallet && msg.sender != current) revert NotSlotOwner(msg.sender, current);
        if (newOwner == address(0)) revert ZeroAddress();
        record.owner = newOwner;
        record.trCnt += 1;
        address slotWallet = record.wallet;
        uint64 epoch = _wallets[slotWallet].ownerEpoch + 1;
        _wallets[slotWallet].ownerEpoch = epoch;
        emit SlotOwnerChanged(slot, current, newOwner, cuid);
        emit PurchaseConsentsEnded(slotWallet, epoch);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IContentTokenExchange
    function purchase_allowance(address slot, string calldata cuid) external view returns (uint256 amount) {
        return _consents[slot][_wallets[slot].ownerEpoch][cuid];
    }

    /// @inheritdoc IContentTokenExchange
    function owner_epoch(address wallet) external view returns (uint256 epoch) {
        return _wallets[wallet].ownerEpoch;
    }

    /// @inheritdoc IContentTokenExchange
    function balance_adex(address slot, string calldata cuid) external view returns (uint256 balance, uint256 used) {
        Holding storage holding = _holdings[slot][cuid];
        return (holding.balance, holding.used);
    }

    /**
     * @notice Cumulative consumed content tokens of a slot for a cuid (spec `used_balances`); never decreases.
     * @param slot the slot wallet
     * @param cuid the content unique identifier
     * @return used the slot's used_balances for the cuid
     */
    function used_balances(address slot, string calldata cuid) external view returns (uint256 used) {
        return _holdings[slot][cuid].used;
    }

    /// @inheritdoc IContentTokenExchange
    function get_provider(string calldata cuid) external view returns (Provider memory provider) {
        return _providers[cuid];
    }

    /// @inheritdoc IContentTokenExchange
    function slot_owner(string calldata cuid, uint256 slot) external view returns (address owner) {
        return _slots[cuid][slot].owner;
    }

    /// @inheritdoc IContentTokenExchange
    function slot_info(string calldata cuid, uint256 slot)
        external
        view
        returns (address owner, address wallet, uint256 trCnt, uint256 balance, uint256 used)
    {
        SlotRecord storage record = _slots[cuid][slot];
        owner = record.owner;
        wallet = record.wallet;
        trCnt = record.trCnt;
        if (wallet != address(0)) {
            Holding storage holding = _holdings[wallet][cuid];
            (balance, used) = (holding.balance, holding.used);
        }
    }

    /// @inheritdoc IContentTokenExchange
    function releasable(string calldata cuid, address slot) external view returns (uint256 amount) {
        return _capped(
            _releaseOf(_holdings[slot][cuid].used - released_used[slot][cuid], _providers[cuid].releasePer),
            fees_collected[slot][cuid] - fees_released[slot][cuid]
        );
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

    /// @dev A purchase paid by `payer` for `slot`: checks, split, credit, fee bookkeeping, transfers.
    function _buy(address payer, address slot, string calldata cuid, uint256 xotnAmount)
        private
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived)
    {
        if (slot == address(0)) revert ZeroAddress();
        if (xotnAmount == 0) revert ZeroAmount();
        Provider storage provider = _registered(cuid);
        uint256 allowance = xotn.allowance(payer, address(this));
        if (allowance < xotnAmount) revert InsufficientAllowance(payer, allowance, xotnAmount);
        uint256 held = xotn.balanceOf(payer);
        if (held < xotnAmount) revert InsufficientXotn(payer, held, xotnAmount);

        (tokenAmount, platformFee, providerReceived) = _split(xotnAmount);
        Holding storage holding = _holdings[slot][cuid];
        holding.balance = SafeCast.toUint128(holding.balance + tokenAmount);
        if (platformFee > 0) fees_collected[slot][cuid] += platformFee;
        address providerOwner = provider.ownerAddr;
        emit ContentTokenPurchased(
            payer, slot, keccak256(bytes(cuid)), cuid, xotnAmount, tokenAmount, platformFee, providerReceived
        );

        if (platformFee > 0) xotn.safeTransferFrom(payer, treasury, platformFee);
        xotn.safeTransferFrom(payer, providerOwner, providerReceived);
    }

    /// @dev Moves `amount` of a slot's balance to its used_balances (the cuid is checked by the caller).
    function _spend(address slot, string calldata cuid, bytes32 cuidKey, uint256 amount) private {
        if (slot == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        Holding memory holding = _holdings[slot][cuid];
        uint256 balance = holding.balance;
        if (balance < amount) revert InsufficientBalance(slot, balance, amount);
        uint256 newBalance;
        unchecked {
            newBalance = balance - amount;
        }
        uint256 newUsed = uint256(holding.used) + amount;
        // One write of the packed word; the new balance is below the old one, so it fits.
        _holdings[slot][cuid] = Holding({balance: uint128(newBalance), used: SafeCast.toUint128(newUsed)});
        emit UsedBalanceIncreased(slot, cuidKey, cuid, amount, newBalance, newUsed);
    }

    /// @dev The smaller of `amount` and `cap`.
    function _capped(uint256 amount, uint256 cap) private pure returns (uint256) {
        return amount < cap ? amount : cap;
    }

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
