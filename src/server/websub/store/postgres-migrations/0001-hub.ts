/** The hub's tables in PostgreSQL: the same model as the SQLite schema (times are epoch milliseconds). */
export default `
CREATE TABLE hub_subscriptions (
  id BIGSERIAL PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  callback_host TEXT NOT NULL,
  callback_address TEXT NOT NULL DEFAULT '',
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  expires_at BIGINT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  renewed_at BIGINT NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX hub_subscriptions_by_expiry ON hub_subscriptions (expires_at);
CREATE INDEX hub_subscriptions_by_host ON hub_subscriptions (callback_host);
CREATE INDEX hub_subscriptions_by_address ON hub_subscriptions (callback_address);

-- One pending intent per (topic, callback); a newer request bumps the revision.
CREATE TABLE hub_verifications (
  id BIGSERIAL PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  callback_host TEXT NOT NULL,
  callback_address TEXT NOT NULL DEFAULT '',
  client_key TEXT NOT NULL DEFAULT '',
  mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  revision INTEGER NOT NULL DEFAULT 1,
  due_at BIGINT NOT NULL,
  claim_token TEXT,
  claimed_until BIGINT,
  created_at BIGINT NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX hub_verifications_by_host ON hub_verifications (callback_host);
CREATE INDEX hub_verifications_by_client ON hub_verifications (client_key);

CREATE TABLE hub_contents (
  id BIGSERIAL PRIMARY KEY,
  topic TEXT NOT NULL,
  hash TEXT NOT NULL,
  content_type TEXT NOT NULL,
  body BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (topic, hash)
);

-- What the hub last distributed for each topic.
CREATE TABLE hub_topics (
  topic TEXT PRIMARY KEY,
  content_id BIGINT NOT NULL REFERENCES hub_contents (id),
  published_at BIGINT NOT NULL
);

-- At most one pending delivery per subscription: newer content replaces an undelivered older one in place.
CREATE TABLE hub_deliveries (
  id BIGSERIAL PRIMARY KEY,
  subscription_id BIGINT NOT NULL UNIQUE REFERENCES hub_subscriptions (id) ON DELETE CASCADE,
  content_id BIGINT NOT NULL REFERENCES hub_contents (id),
  due_at BIGINT NOT NULL,
  claim_token TEXT,
  claimed_until BIGINT,
  last_error TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX hub_deliveries_by_due ON hub_deliveries (due_at);
CREATE INDEX hub_deliveries_by_content ON hub_deliveries (content_id);

CREATE TABLE hub_denials (
  id BIGSERIAL PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  reason TEXT NOT NULL,
  due_at BIGINT NOT NULL,
  claim_token TEXT,
  claimed_until BIGINT,
  created_at BIGINT NOT NULL
);

-- The per-client rate limit, shared by every instance: one token bucket per client key.
CREATE TABLE hub_rate_buckets (
  key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at BIGINT NOT NULL
);
`;
