// Signs a wallet in to the account API as a browser would: challenge, signature, session
// cookie kept in the returned agent.
import type { LocalAccount } from 'viem';
import { UserAgent } from './user_agent.js';

export async function signInToAccount(issuer: string, wallet: LocalAccount) {
  const agent = new UserAgent();
  const challenge = await agent.postJson(`${issuer}/account/challenge`, { address: wallet.address });
  if (challenge.status !== 200) throw new Error(`account challenge answered ${challenge.status}: ${JSON.stringify(challenge.json)}`);
  const message = challenge.json.challenge as string;
  const session = await agent.postJson(`${issuer}/account/session`, { signature: await wallet.signMessage({ message }), message });
  if (session.status !== 200) throw new Error(`account session answered ${session.status}: ${JSON.stringify(session.json)}`);
  return { agent, challenge: challenge.json, session: session.json };
}
