// Retention periods are set in days (config `retention`, fractions allowed so tests can run them
// in seconds); the store takes TTLs in whole seconds. What each period covers: docs/data.md.

export const DAY_SECONDS = 86_400;

/** A retention period as a TTL: whole seconds, at least one (0 days: gone within a second). */
export const retentionSeconds = (days: number): number => Math.max(1, Math.round(days * DAY_SECONDS));
