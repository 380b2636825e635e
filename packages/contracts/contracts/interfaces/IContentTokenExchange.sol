// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/**
 * @title IContentTokenExchange
 * @notice The Slotgate content-token exchange ("dex"): provider registration per cuid, purchase of
 *         content tokens with XOTN (15% platform / 85% provider), spending (`increase_used`), release
 *         settlement per cuid, and the slot registry (`buy_slot`, owner change by the owner's wallet).
 * @dev Roles (three platform keys, so no single hot key holds them all):
 *      - owner: the platform's governance key (two-step ownership; a multisig in production). Appoints
 *        the operator and the spend recorder, sets the treasury, changes a provider's revenue wallet.
 *        It may also act as the operator.
 *      - operator: the platform's service key. Registers providers, sets the per-cuid release flag,
 *        records slot owners (`buy_slot`), buys for a slot within the slot's consent (`buy_for`) and
 *        releases.
 *      - spend recorder: the platform's key that records spending (`increase_used`,
 *        `increase_used_batch`).
 *      - provider: the `ownerAddr` of a cuid's registration. May record spending and release for its
 *        own cuid.
 *      - payer: whoever calls `buy_content_token` pays from its own XOTN. The only other way XOTN
 *        leaves a slot through this contract is `buy_for`, and only within the `purchase_allowance`
 *        the slot gave for that cuid (`approve_purchases`): a provider can never spend what a user
 *        made available to another provider's cuid.
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

    /// @notice A slot of a cuid as the registry records it.
    /// @param owner the owner's user wallet (W_SALT); zero while the slot is not registered
    /// @param wallet the slot wallet: the account that holds the slot's content tokens, for all its life
    /// @param trCnt how many times the slot changed owner (`change_slot_owner`)
    struct SlotRecord {
        address owner;
        address wallet;
        uint32 trCnt;
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
     * @notice The owner appointed a new operator (the platform's service key).
     * @param previousOperator the old operator
     * @param newOperator the new operator
     */
    event OperatorChanged(address indexed previousOperator, address indexed newOperator);

    /**
     * @notice The owner appointed a new spend recorder.
     * @param previousRecorder the old spend recorder
     * @param newRecorder the new spend recorder
     */
    event SpendRecorderChanged(address indexed previousRecorder, address indexed newRecorder);

    /**
     * @notice A slot set how much XOTN the operator may spend from it on content tokens of one cuid.
     * @param slot the slot (the wallet that called `approve_purchases`)
     * @param cuidKey keccak256 of the cuid
     * @param cuid the content unique identifier the consent is for
     * @param amount the XOTN wei `buy_for` may spend from now on
     */
    event PurchaseAllowanceSet(address indexed slot, bytes32 indexed cuidKey, string cuid, uint256 amount);

    /**
     * @notice The slot wallet's slot changed owner: every consent it gave (`approve_purchases`, any cuid)
     *         has ended, and `purchase_allowance` answers 0 until the new owner consents.
     * @param slot the slot wallet
     * @param ownerEpoch its owner epoch from now on (`owner_epoch`)
     */
    event PurchaseConsentsEnded(address indexed slot, uint256 ownerEpoch);

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
    /// @notice The caller is neither the operator nor the owner.
    /// @param caller the rejected `msg.sender`
    error NotOperator(address caller);
    /// @notice The caller is neither the spend recorder nor the cuid's provider wallet.
    /// @param caller the rejected `msg.sender`
    error NotSpendRecorderOrProvider(address caller);
    /// @notice `buy_for` asked for more than the slot consented to spend on this cuid.
    /// @param slot the slot
    /// @param cuid the cuid
    /// @param allowance the slot's remaining `purchase_allowance` for the cuid
    /// @param needed the amount asked
    error InsufficientPurchaseAllowance(address slot, string cuid, uint256 allowance, uint256 needed);
    /// @notice A batch is empty or its arrays differ in length.
    /// @param slots the number of slots
    /// @param amounts the number of amounts
    error InvalidBatch(uint256 slots, uint256 amounts);
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
    /// @param payer the payer (`msg.sender`, or the slot of `buy_for`)
    /// @param allowance the allowance it gave
    /// @param needed the amount needed
    error InsufficientAllowance(address payer, uint256 allowance, uint256 needed);
    /// @notice The payer holds too little XOTN.
    /// @param payer the payer (`msg.sender`, or the slot of `buy_for`)
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
    /// @notice Only the slot's wallet or its current owner may change its owner.
    /// @param caller the rejected `msg.sender`
    /// @param owner the current owner
    error NotSlotOwner(address caller, address owner);
    /// @notice The wallet already backs another slot (a slot wallet backs exactly one slot).
    /// @param wallet the slot wallet
    error SlotWalletInUse(address wallet);

    // ---------------------------------------------------------------- platform

    /**
     * @notice Appoints the operator (the platform's service key). Owner only.
     * @param newOperator the new operator, not zero
     */
    function set_operator(address newOperator) external;

    /**
     * @notice Appoints the spend recorder. Owner only.
     * @param newRecorder the new spend recorder, not zero
     */
    function set_spend_recorder(address newRecorder) external;

    /**
     * @notice Registers a cuid for a provider (spec `init_permission_provider`). Operator (or owner).
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
     * @notice Changes a registered cuid's revenue wallet and settlement ratio. Owner only.
     * @param cuid the registered cuid
     * @param releasePer new settlement ratio in percent, 0-100
     * @param ownerAddr new provider wallet
     */
    function update_provider(string calldata cuid, uint8 releasePer, address ownerAddr) external;

    /**
     * @notice Sets `_cuid_releaseTokenEnabled[cuid]`. Operator (or owner). False by default.
     * @param cuid the registered cuid
     * @param enabled whether `release_used_balance` may run for the cuid
     */
    function set_release_enabled(string calldata cuid, bool enabled) external;

    /**
     * @notice Sets the treasury that receives the 15% platform fee and funds release settlements. Owner only.
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
     * @notice The calling slot consents that the operator spends up to `amount` XOTN wei of its XOTN on
     *         content tokens of `cuid` for it (`buy_for`), and on no other cuid, until its slot changes
     *         owner (`change_slot_owner` ends every consent of the wallet). Replaces the earlier consent
     *         for that cuid (0 withdraws it).
     * @dev The slot must also have approved this contract on the XOTN token (any amount, e.g.
     *      unlimited: XOTN leaves a slot through this contract only by the slot's own
     *      `buy_content_token` or within this consent).
     * @param cuid the registered cuid the consent is for
     * @param amount XOTN wei `buy_for` may spend from the calling slot on this cuid
     */
    function approve_purchases(string calldata cuid, uint256 amount) external;

    /**
     * @notice XOTN wei the operator may still spend from `slot` on content tokens of `cuid` (`buy_for`):
     *         what the slot consented to under its current owner, less what `buy_for` spent.
     * @dev Consents are kept per owner epoch of the slot wallet: `change_slot_owner` starts a new epoch,
     *      so a consent never outlives the owner that gave it.
     * @param slot the slot wallet
     * @param cuid the cuid
     * @return amount XOTN wei
     */
    function purchase_allowance(address slot, string calldata cuid) external view returns (uint256 amount);

    /**
     * @notice How many times the slot `wallet` backs changed owner (equal to that slot's `trCnt`; 0 for a
     *         wallet that backs no slot). Consents given under an earlier epoch no longer count.
     * @param wallet the wallet
     * @return epoch its owner epoch
     */
    function owner_epoch(address wallet) external view returns (uint256 epoch);

    /**
     * @notice Buys content tokens of `cuid` for `slot`, paid by `slot` itself, within the consent the slot
     *         gave for that cuid: one transaction, nothing held in between. Operator (or owner) only.
     * @dev Reduces `purchase_allowance(slot, cuid)` by `xotnAmount`, then splits and credits exactly like
     *      {buy_content_token} with `slot` as the payer.
     * @param slot the slot that pays and is credited
     * @param cuid the registered cuid
     * @param xotnAmount XOTN wei to pay, greater than zero and at most the slot's consent for the cuid
     * @return tokenAmount content-token units issued
     * @return platformFee XOTN wei sent to the treasury
     * @return providerReceived XOTN wei sent to the provider
     */
    function buy_for(address slot, string calldata cuid, uint256 xotnAmount)
        external
        returns (uint256 tokenAmount, uint256 platformFee, uint256 providerReceived);

    /**
     * @notice Records spending: moves `amount` of the slot's balance to its used_balances.
     * @dev Spend recorder or the cuid's provider wallet. used_balances never decreases.
     * @param slot the slot address
     * @param cuid the registered cuid
     * @param amount content-token units to consume, greater than zero and at most the balance
     */
    function increase_used(address slot, string calldata cuid, uint256 amount) external;

    /**
     * @notice Records the spending of several slots of one cuid in one transaction: for each i, moves
     *         `amounts[i]` of `slots[i]`'s balance to its used_balances and emits the same
     *         `UsedBalanceIncreased` event as {increase_used}.
     * @dev Spend recorder or the cuid's provider wallet. All or nothing: one slot with too small a balance
     *      (or a zero amount or address) reverts the whole batch. A slot may appear more than once.
     * @param cuid the registered cuid
     * @param slots the slot addresses
     * @param amounts content-token units to consume, one per slot
     */
    function increase_used_batch(string calldata cuid, address[] calldata slots, uint256[] calldata amounts) external;

    /**
     * @notice Settles the provider's share of a slot's newly used balance (spec `release_used_balance`).
     * @dev Operator (or owner) or the cuid's provider wallet, only while `_cuid_releaseTokenEnabled[cuid]`
     *      is true. The provider receives `releasePer` percent of the platform fee (15%) on the used
     *      balance not settled before: floor((used_balances - settled) * 15 * releasePer / 10000) XOTN wei,
     *      capped by the fees the treasury actually collected on purchases for this slot and cuid minus
     *      what earlier releases paid (`fees_collected - fees_released`), paid from the treasury under the
     *      allowance the treasury gave this contract. All used balance is then marked settled, so the
     *      same used amount is never paid twice. The cap makes a release never exceed the fee the
     *      platform took for the slot: purchases too small to carry a fee (6 wei or less) release
     *      nothing, and buying and spending one's own tokens cannot drain the treasury.
     * @param cuid the registered cuid
     * @param slot the slot address
     * @return releasedAmount XOTN wei paid to the provider (zero when nothing new was used)
     */
    function release_used_balance(string calldata cuid, address slot) external returns (uint256 releasedAmount);

    // ---------------------------------------------------------------- slot registry

    /**
     * @notice Registers slot number `slot` of `cuid`: `aaAddress` owns it, `slotWallet` holds its
     *         content tokens; its transfer count starts at 0.
     * @dev Operator (or owner) only, and only for a slot not registered yet (a wallet cannot claim a
     *      slot number for itself); a wallet backing another slot is refused (`SlotWalletInUse`).
     * @param aaAddress the owner's user wallet (ERC-4337, W_SALT)
     * @param slot the slot number (metadata index) within the cuid
     * @param cuid the registered cuid
     * @param slotWallet the slot wallet (ERC-4337) that holds the slot's content tokens
     */
    function buy_slot(address aaAddress, uint256 slot, string calldata cuid, address slotWallet) external;

    /**
     * @notice Gives slot `slot` of `cuid` to `newOwner` and counts the transfer (`trCnt` + 1). Callable
     *         by the slot's wallet (a sale: one UserOperation from the slot wallet that also hands its
     *         owner key over) or by the current owner's wallet (spec 4.9). Starts a new owner epoch of
     *         the slot wallet: every consent it gave (`approve_purchases`) ends (`PurchaseConsentsEnded`).
     * @param cuid the cuid
     * @param slot the slot number
     * @param newOwner the new owner's user wallet, not zero
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
     * @notice Everything about slot number `slot` of `cuid` in one read (all zero when not registered).
     * @param cuid the cuid
     * @param slot the slot number
     * @return owner the owner's user wallet
     * @return wallet the slot wallet
     * @return trCnt how many times the slot changed owner
     * @return balance content tokens the slot wallet holds for the cuid
     * @return used the slot wallet's used_balances for the cuid
     */
    function slot_info(string calldata cuid, uint256 slot)
        external
        view
        returns (address owner, address wallet, uint256 trCnt, uint256 balance, uint256 used);

    /**
     * @notice What `release_used_balance(cuid, slot)` would pay now, ignoring the flag and funding:
     *         floor((used_balances - settled) * 15 * releasePer / 10000), capped by
     *         `fees_collected - fees_released` of the slot and cuid.
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
