// The login_flow suite again, unchanged, with Signet on a real three-master Redis Cluster (started
// once for the file by the harness): every multi-key step must keep to one hash slot or be split.
import { runSuitesOn } from '../support/signet_harness.js';

runSuitesOn('cluster');
await import('../integration/login_flow.test.js');
