-- A change of a client's scopes alone is announced as such ("change": "scopes"): every instance
-- then closes only the sockets the new scopes no longer allow, rather than all of the client's.
-- A new key, a revocation or a deletion is still "change": "credential", which ends them all.
-- (Instances that do not read "change" end them all either way, which is safe.)
CREATE OR REPLACE FUNCTION miniqueue_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('miniqueue_auth', json_build_object(
    'kind', 'client',
    'id', OLD.id,
    'change', CASE
                WHEN TG_OP = 'UPDATE' AND NEW.key_hash = OLD.key_hash
                     AND NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at THEN 'scopes'
                ELSE 'credential'
              END)::text);
  RETURN NULL;
END $$;
