// The signet-signature header of a webhook: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>.
// verifyWebhookSignature uses node:crypto only, so a service can copy it as it is.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * True when `header` signs exactly `rawBody` (the bytes received, before any JSON parsing) with
 * `secret`, at a time within `toleranceSeconds` of now. The tolerance refuses a replayed old
 * request; a receiver also dedupes by the signet-event-id header (delivery is at least once).
 */
export function verifyWebhookSignature(secret: string, header: string, rawBody: string, nowUnixSeconds: number, toleranceSeconds = 300): boolean {
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't') t = value;
    else if (name === 'v1' && value) signatures.push(value);
  }
  if (!t || !/^\d{1,12}$/.test(t) || Math.abs(nowUnixSeconds - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  // Any v1 may match, each compared in constant time: a header may carry one per secret while
  // a secret is rotated.
  let valid = false;
  for (const signature of signatures) {
    if (!/^[0-9a-f]{64}$/i.test(signature)) continue;
    if (timingSafeEqual(Buffer.from(signature, 'hex'), expected)) valid = true;
  }
  return valid;
}
