// The embedded demo's entry (`npm start`): the production start plus a local chain, the demo
// website and wallet when nothing else is configured; prints what it set up.
import { runSignet } from '../app/run_signet.js';
import { startDemoServer } from './demo_server.js';

runSignet(startDemoServer, { printSummary: true });
