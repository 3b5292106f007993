// What the adapter does with each of the engine's models: which belong to a grant, which are
// single use, which carry a consumed mark, which are saved again under the same id, which name
// the reads the engine makes next.

// Models whose records belong to a grant: revoking the grant deletes them all. Not an
// authorization code, which is neither listed with its grant's records nor checked against the
// grant's revocation when written: the engine redeems a code only once it has found the code's
// Grant, which revocation deletes (and the tokens a redemption then writes are refused under the
// revoked grant), and a code lives a minute. Listing it cost six Redis commands per login
// (docs/decisions.md, 55).
export const GRANTABLE = new Set(['AccessToken', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PreAuthorizedCode', 'Grant']);

// Single-use models of a grant. Once consumed, such a record is kept only for reuse detection:
// a second use revokes the grant. A refresh token is consumed at each refresh (rotation), so
// without a cut every refresh would leave one record, and one grant index member, for the
// token's whole life (a day and more).
export const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PreAuthorizedCode']);
// Every model the engine consumes (single use without a grant to revoke among them): only their
// records can carry a consumed mark.
export const MARKED = new Set([...CONSUMABLE, 'PushedAuthorizationRequest']);
// Of those, the ones the engine saves again under the same id (a device code or a CIBA request
// when the owner answers): only their saves clear a mark. The others are saved once, under a new
// random id, which no mark can name yet.
export const RESAVED = new Set(['DeviceCode', 'BackchannelAuthenticationRequest']);

// Models whose records name the Grant, perhaps the Session, and the account the engine reads next
// (userinfo finds an AccessToken: its account's reads go out then, through ReadAccountAhead).
export const LEADS_TO_GRANT = new Set([...CONSUMABLE, 'AccessToken']);
