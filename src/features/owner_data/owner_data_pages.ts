// The owner's data page (server-rendered, kept out of /openapi.json): who read the data, the
// download of everything, and the erasure, whose wallet signature the page script asks for.
import { z } from 'zod';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import { sessionCallers, toSignIn } from '../../domain/owner_sessions/session_callers.js';
import type { RenderPage } from '../../http/pages.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';

export type OwnerDataPagesDeps = {
  /** The chains served: the page shows the session's chain's identity, and its issuer's claims where Signet issues them. */
  onChain: ChainSet<ServedChain & { issuer?: unknown }>;
  renderPage: RenderPage;
  sessions: AccountSessions;
  history: AccessHistory;
  names: DisplayNames;
  demoWallet: boolean;
  retention: { historyDays: number; historyEntries: number; receiptDays: number; endedGrantDays: number };
};

const PAGE_SIZE = 50;
const word = z.string().max(512).optional().catch(undefined);

export function ownerDataPages(deps: OwnerDataPagesDeps): AnyRoute[] {
  const { visitor } = sessionCallers(deps.sessions);
  return [
    route({
      method: 'get',
      path: '/account/data',
      summary: 'Who read the data, the download of everything, and the erasure',
      tag: 'Account pages',
      auth: visitor,
      query: z.object({ cursor: word, client: word }),
      responses: { 200: { description: 'The page' } },
      undocumented: true,
      async handle({ ctx, query, caller: session }) {
        if (!session) return toSignIn(ctx);
        const client = query.client || undefined;
        // Another chain's history is kept under its CAIP-10 id.
        const chain = deps.onChain.named(session.chain_id);
        const { issuer } = chain;
        const named = chain.identityKey(session.identity);
        const [page, all] = await Promise.all([
          deps.history
            .page(named, { cursor: query.cursor, limit: PAGE_SIZE, client_id: client })
            .catch(() => deps.history.page(named, { limit: PAGE_SIZE, client_id: client })),
          deps.history.all(named),
        ]);
        const services = [...new Map(all.map((entry) => [entry.client_id, { id: entry.client_id, name: entry.client_name }])).values()];
        deps.renderPage(ctx, 'account/data', {
          identity: session.identity,
          wallet: session.wallet,
          chainId: chain.chainId,
          chainName: deps.onChain.several ? chain.name : undefined,
          demoWallet: deps.demoWallet,
          names: deps.names,
          notice: undefined,
          entries: page.entries,
          nextCursor: page.next_cursor,
          services,
          client,
          issuesClaims: issuer !== undefined,
          ...deps.retention,
        });
        return {};
      },
    }),
  ];
}
