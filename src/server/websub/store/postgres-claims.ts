/**
 * Which rows one claim takes, in SQL shared by the verification, delivery and denial
 * queues: due and unclaimed (or their lease over), at most so many per host, earliest
 * first, locked with FOR UPDATE SKIP LOCKED so that instances claiming at once never
 * take the same row nor wait for each other.
 */

/**
 * The ids a claim may take: due and unclaimed, at most `perHost` per host counting
 * claims still held there, earliest first. `$1` now, `$2` per host, `$3` limit.
 */
function perHostCandidates(items: string, due: string): string {
  return `busy AS (SELECT host, COUNT(*) AS n FROM (${items}) i WHERE claim_token IS NOT NULL AND claimed_until > $1 GROUP BY host),
    candidates AS (
      SELECT i.id, i.due_at, ROW_NUMBER() OVER (PARTITION BY i.host ORDER BY i.due_at, i.id) + COALESCE(busy.n, 0) AS slot
      FROM (${items}) i LEFT JOIN busy ON busy.host = i.host WHERE ${due})`;
}
const CLAIMABLE = 'due_at <= $1 AND (claim_token IS NULL OR claimed_until <= $1)';

/**
 * The `picked` rows of one claim: due, unclaimed (or lease over) rows of `table` within each
 * host's slots, locked with SKIP LOCKED. $1 now, $2 slots per host, $3 how many at most.
 */
export function pickedPerHost(table: string, items: string): string {
  return `WITH ${perHostCandidates(items, CLAIMABLE)},
    picked AS (SELECT t.id FROM ${table} t JOIN candidates c ON c.id = t.id
               WHERE c.slot <= $2 AND t.due_at <= $1 AND (t.claim_token IS NULL OR t.claimed_until <= $1)
               ORDER BY c.due_at, c.id LIMIT $3 FOR UPDATE OF t SKIP LOCKED)`;
}
