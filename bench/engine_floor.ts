// The engine's floor: the very Signet server (same engine configuration, same Redis adapter,
// same account model) started from the same environment, whose login interaction finishes
// at once for a fixed account, with no challenge, signature or chain read. What a login costs
// here is what the engine and the store cost; what Signet adds is measured against it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Address } from 'viem';
import { runSignet } from '../src/app/run_signet.js';
import { type RunningSignet, startServer } from '../src/app/server.js';
import { subjectOf } from '../src/domain/identity/subject.js';
import { finishInteraction } from '../src/features/interaction/finish_interaction.js';

const INTERACTION = /^\/interaction\/([\w-]+)$/;

/** Signet's own server, but a GET of the interaction finishes it at once for the fixed account. */
function finishingAtOnce(running: RunningSignet): RunningSignet {
  const account = subjectOf(running.chainId, process.env.BENCH_FIXED_IDENTITY as Address);
  const { provider } = running.signet;
  const signetHandler = running.signet.app.callback();

  const finishAtOnce = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: account, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    grant.addOIDCClaims(['given_name', 'email']);
    const grantId = await grant.save();
    const returnTo = await finishInteraction(details, { login: { accountId: account }, consent: { grantId } });
    res.writeHead(303, { location: returnTo, 'content-length': '0' }).end();
  };

  running.server.removeAllListeners('request');
  running.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && INTERACTION.test(req.url ?? '')) {
      finishAtOnce(req, res).catch((error: unknown) => {
        console.error('engine floor interaction failed', error);
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    void signetHandler(req, res);
  });
  return running;
}

// The same entry as production (logger, metrics, settings), only the interaction differs.
runSignet(async (config, logger, metrics) => finishingAtOnce(await startServer(config, logger, { metrics })));
