-- A WebSocket ticket remembers the hash of the very credential (API key or session token) that asked
-- for it, and is redeemed only while that credential is still the client's key or the live session.
-- Rotating a key keeps the client's id, so checking the id alone let tickets minted with the old key
-- open sockets after the rotation; comparing the hash also covers a ticket minted by an instance that
-- had not yet heard of the rotation (its cache still knew the old key).
ALTER TABLE ws_ticket ADD COLUMN credential_hash bytea;

-- Tickets live 30 seconds. Those issued before this migration name no credential and are refused.
DELETE FROM ws_ticket;
