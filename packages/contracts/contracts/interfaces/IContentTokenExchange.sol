// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/**
 * @title IContentTokenExchange
 * @notice The Slotgate content-token exchange ("dex"): provider registration per cuid, purchase of
 *         content tokens with XOTN (15% platform / 85% provider), spending (`increase_used`), release
 *         settlement per cuid, and the slot registry (`buy_slot`, owner change by the owner's wallet).
 * @dev Roles:
 *      - platform: the contract owner (two-step ownership). Registers providers, sets the per-cuid
 *        release flag, sets the treasury; may also record spending, release and record slot owners.
 *      - provider: the `ownerAddr` of a cuid's registration. May record spending and release for its
 *        own cuid.
 *      - payer: whoever calls `buy_content_token`; XOTN is only ever pulled from `msg.sender` under the
 *        allowance `msg.sender` gave this contract, so nobody can spend another holder's XOTN.
 *      Content tokens are 1:1 with XOTN wei: paying `x` XOTN wei issues `x` content-token units.
 */
interface IContentTokenExchange {
    /// @notice Registration of one cuid.
    /// @param clientId the provider's client application id (spec 2.5 `client_id`)
    /// @param ownerAddr the provider wallet that receives 85% of purchases and the release settlement
    /// @param releasePer settlement ratio in percent (0-100): the share of the platform fee on newly used balances paid on release
    /// @param registered true once the cuid is registered
    struct Provider {
        string clientId;
        address ownerAddr;
        uint8 releasePer;
        bool registered;
    }

    // ---------------------------------------------------------------- events

    /**
     * @notice A provider registered a cuid.
     * @param cuidKey keccak256 of the cuid (indexed for filtering)
     * @param cuid the content unique identifier
     * @param clientId the provider's client id
     * @param ownerAddr the provider wallet that receives revenue
     * @param releasePer the settlement ratio in percent
     */
    event ProviderRegistered(
        bytes32 indexed cuidKey, string cuid, string clientId, address indexed ownerAddr, uint8 releasePer
    );

    /**
     * @notice The platform changed a cuid's revenue wallet or settlement ratio.
     * @param cuidKey keccak256 of the cuid
     * @param cuid the content unique identifier
     * @param ownerAddr the new revenue wallet
     * @param releasePer the new settlement ratio in percent
     */
    event ProviderUpdated(bytes32 indexed cuidKey, string cuid, address indexed ownerAddr, uint8 releasePer);

    /**
     * @notice The platform switched release settlement on or off for a cuid (`_cuid_releaseTokenEnabled`).
     * @param cuidKey keccak256 of the cuid
     * @param cuid the content unique identifier
     * @param enabled the new flag value
     */
    event ReleaseEnabledChanged(bytes32 indexed cuidKey, string cuid, bool enabled);

    /**
     * @notice The platform treasury (receiver of the 15% fee, payer of release settlements) changed.
     * @param previousTreasury the old treasury
     * @param newTreasury the new treasury
     */
    event TreasuryChanged(address indexed previousTreasury, address indexed newTreasury);

    /**
     * @notice Content tokens were bought for a slot.
     * @param payer the account whose XOTN paid (always `msg.sender` of the purchase)
     * @param slot the slot address credited with content tokens
     * @param cuidKey keccak256 of the cuid
     * @param cuid the content unique identifier
     * @param xotnPaid XOTN wei paid in total (= platformFee + providerReceived)
     * @param tokenAmount content-token units issued to the slot
     * @param platformFee XOTN wei sent to the treasury (floor of 15%)
     * @param providerReceived XOTN wei sent to the provider (the rest, at least 85%)
     */
    event ContentTokenPurchased(
        address indexed payer,
        address indexed slot,
        bytes32 indexed cuidKey,
        string cuid,
        uint256 xotnPaid,
        uint256 tokenAmount,
        uint256 platformFee,
        uint256 providerReceived
    );

    /**
     * @notice Content tokens of a slot were spent: balance fell and used_balances rose by `amount`.
     * @param slot the slot address
     * @param cuidKey keccak256 of the cuid
     * @param cuid the content unique identifier
     * @param amount content-token units moved from balance to used_balances
     * @param balance the slot's balance afterwards
     * @param usedBalance the slot's used_balances afterwards
     */
    event UsedBalanceIncreased(
        address indexed slot, bytes32 indexed cuidKey, string cuid, uint256 amount, uint256 balance, uint256 usedBalance
    );

    /**
     * @notice Used balances of a slot were settled to the provider.
     * @param slot the slot address
     * @param cuidKey keccak256 of the cuid
     * @param providerOwner the provider wallet paid
     * @param cuid the content unique identifier
     * @param settledUsed used units settled by this release (used_balances minus what earlier releases settled)
     * @param releasedAmount XOTN wei paid from the treasury: floor(settledUsed * 15 * releasePer / 10000)
     */
    event UsedBalanceReleased(
        address indexed slot,
        bytes32 indexed cuidKey,
        address indexed providerOwner,
        string cuid,
        uint256 settledUsed,
        uint256 releasedAmount
    );

    /**
     * @notice The recorded owner of a slot changed (`previousOwner` is zero when the slot was first bought).
     * @param slot the slot number within the cuid
     * @param previousOwner the owner before (zero for `buy_slot`)
     * @param newOwner the owner now
     * @param cuid the content unique identifier the slot belongs to
     */
    event SlotOwnerChanged(
        uint256 indexed slot, address indexed previousOwner, address indexed newOwner, string cuid
    );

    // ---------------------------------------------------------------- errors

    /// @notice The caller is not the platform (the owner).
    /// @param caller the rejected `msg.sender`
    error NotPlatform(address caller);
    /// @notice The caller is neither the platform nor the cuid's provider wallet.
    /// @param caller the rejected `msg.sender`
    error NotPlatformOrProvider(address caller);
    /// @notice `buy_slot` was called by neither the platform nor the wallet being recorded.
    /// @param caller the rejected `msg.sender`
    error NotPlatformOrSelf(address caller);
    /// @notice A zero address was given where an account is required.
    error ZeroAddress();
    /// @notice A zero amount was given.
    error ZeroAmount();
    /// @notice The cuid is empty or longer than 64 bytes.
    error InvalidCuid();
    /// @notice The client id is empty or longer than 128 bytes.
    error InvalidClientId();
    /// @notice release_per must be 0-100.
    /// @param releasePer the rejected value
    error ReleasePerOutOfRange(uint256 releasePer);
    /// @notice The cuid is registered already.
    /// @param cuid the cuid
    error CuidAlreadyRegistered(string cuid);
    /// @notice The cuid is not registered.
    /// @param cuid the cuid
    error UnknownCuid(string cuid);
    /// @notice The payer's XOTN allowance to this contract is short.
    /// @param payer the payer (`msg.sender`)
    /// @param allowance the allowance it gave
    /// @param needed the amount needed
    error InsufficientAllowance(address payer, uint256 allowance, uint256 needed);
    /// @notice The payer holds too little XOTN.
    /// @param payer the payer (`msg.sender`)
    /// @param balance its XOTN balance
    /// @param needed the amount needed
    error InsufficientXotn(address payer, uint256 balance, uint256 needed);
    /// @notice The slot holds fewer content tokens than the amount to spend.
    /// @param slot the slot address
    /// @param balance its balance for the cuid
    /// @param needed the amount asked
    error InsufficientBalance(address slot, uint256 balance, uint256 needed);
    /// @notice Release is disabled for the cuid (`_cuid_releaseTokenEnabled[cuid]` is false).
    /// @param cuid the cuid
    error ReleaseDisabled(string cuid);
    /// @notice The treasury's XOTN balance or allowance to this contract cannot fund the release.
    /// @param treasury the treasury
    /// @param available min(balance, allowance) of the treasury
    /// @param needed the release amount
    error ReleaseFundingShort(address treasury, uint256 available, uint256 needed);
    /// @notice The slot has an owner already.
    /// @param slot the slot number
    /// @param owner its owner
    error SlotAlreadyOwned(uint256 slot, address owner);
    /// @notice The slot has no owner yet.
    /// @param slot the slot number
    error SlotNotOwned(uint256 slot);
    /// @notice Only the slot's current owner may change its owner.
    /// @param caller the rejected `msg.sender`
    /// @param owner the current owner
    error NotSlotOwner(address caller, address owner);

    // ---------------------------------------------------------------- platform

    /**
     * @notice Registers a cuid for a provider (spec `init_permission_provider`). Platform only.
     * @dev One provider (client id) may register several cuids; a cuid is registered once.
     * @param clientId the provider's client id (1-128 bytes)
     * @param cuid the content unique identifier (1-64 bytes)
     * @param releasePer settlement ratio in percent, 0-100
     * @param ownerAddr the provider wallet receiving 85% of purchases and settlements
     */
    function init_permission_provider(
        string calldata clientId,
        string calldata cuid,
        uint8 releasePer,
        address ownerAddr
    ) external;

    /**
     * @notice Changes a registered cuid's revenue wallet and settlement ratio. Platform only.
     * @param cuid the registered cuid
     * @param releasePer new settlement ratio in percent, 0-100
     * @param ownerAddr new provider wallet
     */
    function update_provider(string calldata cuid, uint8 releasePer, address ownerAddr) external;

    /**
     * @notice Sets `_cuid_releaseTokenEnabled[cuid]`. Platform only. False by default.
     * @param cuid the registered cuid
     * @param enabled whether `release_used_balance` may run for the cuid
     */
    function set_release_enabled(string calldata cuid, bool enabled) external;

    /**
     * @notice Sets the treasury that receives the 15% platform fee and funds release settlements. Platform only.
     * @param newTreasury the new treasury, not zero
     */
    function set_treasury(address newTreasury) external;

    // ---------------------------------------------------------------- purchase and spending

    /**
     * @notice Buys content tokens of `cuid` for `slot`, paying `xotnAmount` XOTN from `msg.sender`.
     * @dev The payer must have approved this contract for at least `xotnAmount`. Split:
     *      platformFee = floor(xotnAmount * 15 / 100) to the treasury, providerReceived =
     *      xotnAmount - platformFee to the provider; the two always add up to xotnAmount.
     *      tokenAmount = xotnAmount (1:1).
     * @param slot the slot address to credit
     * @param cuid the registered cuid
     * @param xotnAmount XOTN wei to pay, greater than zero
     * @return tokenAmount content-token units issued
     * @return platformFee XOTN wei sent to the treasury
     * @return providerReceived XOTN wei sent to the provider
     */
    function buy_content_token(address slot, string calldata cuid, uint256 xotnAmount)
        external
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived);

    /**
     * @notice Records spending: moves `amount` of the slot's balance to its used_balances.
     * @dev Platform or the cuid's provider wallet. used_balances never decreases.
     * @param slot the slot address
     * @param cuid the registered cuid
     * @param amount content-token units to consume, greater than zero and at most the balance
     */
    function increase_used(address slot, string calldata cuid, uint256 amount) external;

    /**
     * @notice Settles the provider's share of a slot's newly used balance (spec `release_used_balance`).
     * @dev Platform or the cuid's provider wallet, only while `_cuid_releaseTokenEnabled[cuid]` is true.
     *      The provider receives `releasePer` percent of the platform fee (15%) on the used balance not
     *      settled before: floor((used_balances - settled) * 15 * releasePer / 10000) XOTN wei, paid from
     *      the treasury under the allowance the treasury gave this contract. All used balance is then
     *      marked settled, so the same used amount is never paid twice. A release never exceeds the fee
     *      the platform took on the same tokens, so buying and spending one's own tokens cannot drain
     *      the treasury.
     * @param cuid the registered cuid
     * @param slot the slot address
     * @return releasedAmount XOTN wei paid to the provider (zero when nothing new was used)
     */
    function release_used_balance(string calldata cuid, address slot) external returns (uint256 releasedAmount);

    // ---------------------------------------------------------------- slot registry

    /**
     * @notice Records `aaAddress` as the owner of slot number `slot` of `cuid`.
     * @dev Callable by the platform or by `aaAddress` itself, and only for a slot without an owner.
     * @param aaAddress the owner's ERC-4337 wallet
     * @param slot the slot number (metadata index) within the cuid
     * @param cuid the registered cuid
     */
    function buy_slot(address aaAddress, uint256 slot, string calldata cuid) external;

    /**
     * @notice Gives slot `slot` of `cuid` to `newOwner`. Only the current owner's wallet may call it
     *         (spec 4.9: a UserOperation from the owner's wallet).
     * @param cuid the cuid
     * @param slot the slot number
     * @param newOwner the new owner, not zero
     */
    function change_slot_owner(string calldata cuid, uint256 slot, address newOwner) external;

    // ---------------------------------------------------------------- views

    /**
     * @notice The tuple (balance, used_balances) of a slot for a cuid (spec `balance_adex`).
     * @param slot the slot address
     * @param cuid the cuid
     * @return balance content tokens currently held
     * @return used total consumed, cumulative and never decreasing
     */
    function balance_adex(address slot, string calldata cuid) external view returns (uint256 balance, uint256 used);

    /**
     * @notice The registration of a cuid (`registered` is false for an unknown cuid).
     * @param cuid the cuid
     * @return provider the registration
     */
    function get_provider(string calldata cuid) external view returns (Provider memory provider);

    /**
     * @notice The recorded owner of slot number `slot` of `cuid` (zero when none).
     * @param cuid the cuid
     * @param slot the slot number
     * @return owner the owner wallet
     */
    function slot_owner(string calldata cuid, uint256 slot) external view returns (address owner);

    /**
     * @notice What `release_used_balance(cuid, slot)` would pay now, ignoring the flag and funding:
     *         floor((used_balances - settled) * 15 * releasePer / 10000).
     * @param cuid the cuid
     * @param slot the slot address
     * @return amount XOTN wei
     */
    function releasable(string calldata cuid, address slot) external view returns (uint256 amount);

    /**
     * @notice The split of a purchase of `xotnAmount` XOTN wei.
     * @param xotnAmount XOTN wei paid
     * @return tokenAmount content-token units issued
     * @return platformFee floor(xotnAmount * 15 / 100)
     * @return providerReceived xotnAmount - platformFee
     */
    function quote(uint256 xotnAmount)
        external
        pure
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived);
}
