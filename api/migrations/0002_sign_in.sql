-- People signed in with GitHub, and the one-time secrets that travel in URLs. All of it lives here,
-- not in an instance's memory, so any instance redeems what another issued. Only SHA-256 hashes of
-- secrets are stored: a database leak does not leak working credentials.

-- A dashboard session. The role is not stored: it is derived from MINIQUEUE_ADMINS on every
-- request, so removing an admin takes effect without waiting for the session to end.
CREATE TABLE dashboard_session (
  id          uuid PRIMARY KEY,
  token_hash  bytea NOT NULL UNIQUE,
  github_id   bigint NOT NULL,
  login       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX dashboard_session_expires_idx ON dashboard_session (expires_at);

-- The code the sign-in redirect carries to the dashboard. The session is made only when the code
-- is exchanged, so a session token never exists outside the exchange response.
CREATE TABLE login_code (
  code_hash   bytea PRIMARY KEY,
  github_id   bigint NOT NULL,
  login       text NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX login_code_expires_idx ON login_code (expires_at);

-- A WebSocket ticket carries the principal that asked for it.
CREATE TABLE ws_ticket (
  ticket_hash    bytea PRIMARY KEY,
  name           text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('client', 'session')),
  scopes         text[] NOT NULL,
  owner          text NOT NULL,
  credential_id  uuid NOT NULL,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX ws_ticket_expires_idx ON ws_ticket (expires_at);

-- A session that ends (logout, or swept after expiry) is announced on miniqueue_auth like a changed
-- client, so every instance drops what it cached and closes that session's sockets.
CREATE FUNCTION miniqueue_notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('miniqueue_auth', json_build_object('kind', 'session', 'id', OLD.id)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER dashboard_session_ended AFTER DELETE ON dashboard_session
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_session_ended();
