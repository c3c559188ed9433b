-- The schema of a fully migrated database (api/migrations/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
--
-- PostgreSQL database dump
--

--
-- Name: miniqueue_acked_partitions_drop(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_acked_partitions_drop(before timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.oid::regclass AS rel,
           substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz AS upper_bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'message_acked'::regclass AND c.oid <> 'message_acked_default'::regclass
  LOOP
    IF part.upper_bound <= before THEN
      EXECUTE format('DROP TABLE %s', part.rel);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  DELETE FROM message_acked_default WHERE acked_at < before;
  RETURN dropped;
END $$;

--
-- Name: miniqueue_acked_partitions_ensure(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_acked_partitions_ensure(from_ts timestamp with time zone, to_ts timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
  hour timestamptz := date_trunc('hour', from_ts, 'UTC');
  part text;
  created integer := 0;
BEGIN
  WHILE hour < to_ts LOOP
    part := 'message_acked_' || to_char(hour AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24');
    IF to_regclass(part) IS NULL
       AND NOT EXISTS (SELECT 1 FROM message_acked_default WHERE acked_at >= hour AND acked_at < hour + interval '1 hour') THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF message_acked FOR VALUES FROM (%L) TO (%L)',
                     part, hour, hour + interval '1 hour');
      created := created + 1;
    END IF;
    hour := hour + interval '1 hour';
  END LOOP;
  RETURN created;
END $$;

--
-- Name: miniqueue_fair_keys(text, text, integer, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_fair_keys(q text, after text, per_key integer, visits integer) RETURNS TABLE(group_key text, room integer, visit integer)
    LANGUAGE plpgsql
    AS $$
DECLARE
  cur text := after;
  nxt text;
  before_wrap boolean := after IS NOT NULL;
  held integer;
BEGIN
  visit := 0;
  WHILE visit < visits LOOP
    IF cur IS NULL THEN
      SELECT m.group_key INTO nxt FROM message m
       WHERE m.queue_name = q AND m.status = 'PENDING' AND m.group_key IS NOT NULL
       ORDER BY m.group_key LIMIT 1;
    ELSE
      SELECT m.group_key INTO nxt FROM message m
       WHERE m.queue_name = q AND m.status = 'PENDING' AND m.group_key IS NOT NULL AND m.group_key > cur
       ORDER BY m.group_key LIMIT 1;
    END IF;
    IF nxt IS NULL THEN
      EXIT WHEN NOT before_wrap;
      -- Past the last key: round to the first.
      before_wrap := false;
      cur := NULL;
      CONTINUE;
    END IF;
    -- Round again past where this claim started: every key was visited.
    EXIT WHEN NOT before_wrap AND after IS NOT NULL AND nxt > after;
    cur := nxt;
    visit := visit + 1;
    group_key := cur;
    IF per_key IS NULL THEN
      room := 2147483647;
    ELSE
      SELECT count(*) INTO held FROM (
        SELECT 1 FROM message m WHERE m.queue_name = q AND m.group_key = cur AND m.status = 'UNACKED' LIMIT per_key) h;
      room := per_key - held;
    END IF;
    RETURN NEXT;
  END LOOP;
END $$;

--
-- Name: miniqueue_filter_matches(jsonb, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_filter_matches(f jsonb, h jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
  v text;
  i integer;
BEGIN
  IF f ? 'and' THEN
    FOR i IN 0 .. jsonb_array_length(f -> 'and') - 1 LOOP
      IF NOT miniqueue_filter_matches(f -> 'and' -> i, h) THEN RETURN false; END IF;
    END LOOP;
    RETURN true;
  ELSIF f ? 'or' THEN
    FOR i IN 0 .. jsonb_array_length(f -> 'or') - 1 LOOP
      IF miniqueue_filter_matches(f -> 'or' -> i, h) THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
  ELSIF f ? 'not' THEN
    RETURN NOT miniqueue_filter_matches(f -> 'not', h);
  ELSIF f ? 'exists' THEN
    RETURN (h ? (f ->> 'header')) = (f -> 'exists')::boolean;
  END IF;
  v := h ->> (f ->> 'header');
  IF v IS NULL THEN
    RETURN false;
  ELSIF f ? 'equals' THEN
    RETURN v = f ->> 'equals';
  ELSIF f ? 'one_of' THEN
    RETURN (f -> 'one_of') ? v;
  ELSIF f ? 'prefix' THEN
    RETURN starts_with(v, f ->> 'prefix');
  END IF;
  RETURN false;
END $$;

--
-- Name: miniqueue_notify_auth(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_notify_auth() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: miniqueue_notify_monitor_presence(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_notify_monitor_presence() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('miniqueue_monitor_presence', NEW.instance_id);
  RETURN NULL;
END $$;

--
-- Name: miniqueue_notify_session_ended(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_notify_session_ended() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('miniqueue_auth', json_build_object('kind', 'session', 'id', OLD.id)::text);
  RETURN NULL;
END $$;

--
-- Name: miniqueue_notify_topology(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_notify_topology() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('miniqueue_topology', json_build_object(
    'kind', lower(TG_TABLE_NAME), 'op', TG_OP,
    'name', CASE WHEN TG_OP = 'DELETE' THEN OLD.name ELSE NEW.name END)::text);
  RETURN NULL;
END $$;

--
-- Name: miniqueue_notify_ws_members(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_notify_ws_members() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('miniqueue_ws_members', json_build_object(
      'op', 'INSERT', 'id', NEW.id, 'queue', NEW.queue_name, 'instance', NEW.instance_id)::text);
  ELSE
    PERFORM pg_notify('miniqueue_ws_members', json_build_object(
      'op', 'DELETE', 'id', OLD.id, 'queue', OLD.queue_name, 'instance', OLD.instance_id)::text);
  END IF;
  RETURN NULL;
END $$;

--
-- Name: miniqueue_rates_rollup(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_rates_rollup(from_ts timestamp with time zone, to_ts timestamp with time zone) RETURNS void
    LANGUAGE sql
    AS $$
  DELETE FROM queue_rate_minute WHERE minute >= date_bin('1 minute', from_ts, 'epoch') AND minute < to_ts;
  DELETE FROM topic_rate_minute WHERE minute >= date_bin('1 minute', from_ts, 'epoch') AND minute < to_ts;
  INSERT INTO queue_rate_minute (queue_name, minute, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth, depth_bucket)
  SELECT queue_name, date_bin('1 minute', bucket, 'epoch'), sum(enqueued), sum(delivered), sum(acked), sum(nacked), sum(dead),
         sum(redelivered), sum(replayed),
         (array_agg(depth ORDER BY bucket DESC) FILTER (WHERE depth IS NOT NULL))[1],
         max(bucket) FILTER (WHERE depth IS NOT NULL)
    FROM queue_rate
   WHERE bucket >= date_bin('1 minute', from_ts, 'epoch') AND bucket < to_ts
   GROUP BY 1, 2;
  INSERT INTO topic_rate_minute (topic_name, minute, published)
  SELECT topic_name, date_bin('1 minute', bucket, 'epoch'), sum(published)
    FROM topic_rate
   WHERE bucket >= date_bin('1 minute', from_ts, 'epoch') AND bucket < to_ts
   GROUP BY 1, 2;
$$;

--
-- Name: miniqueue_uuidv7(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.miniqueue_uuidv7() RETURNS uuid
    LANGUAGE sql PARALLEL SAFE
    AS $$
  SELECT encode(
           set_bit(set_bit(
             overlay(uuid_send(gen_random_uuid())
                     PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                     FROM 1 FOR 6),
             52, 1), 53, 1),
           'hex')::uuid
$$;

--
-- Name: client; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.client (
    id uuid NOT NULL,
    name text NOT NULL,
    scopes text[] NOT NULL,
    key_hash bytea NOT NULL,
    key_prefix text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone
);

--
-- Name: dashboard_session; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dashboard_session (
    id uuid NOT NULL,
    token_hash bytea NOT NULL,
    github_id bigint NOT NULL,
    login text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: history_replay; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.history_replay (
    id uuid NOT NULL,
    queue_name text NOT NULL,
    idempotency_key text,
    from_published_at timestamp with time zone NOT NULL,
    from_seq bigint NOT NULL,
    until_acked_at timestamp with time zone NOT NULL,
    cursor_available_at timestamp with time zone NOT NULL,
    cursor_seq bigint NOT NULL,
    replayed bigint DEFAULT 0 NOT NULL,
    finished_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: idempotency_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_key (
    owner text NOT NULL,
    key text NOT NULL,
    topic_name text NOT NULL,
    request_hash text NOT NULL,
    message_ids uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    queues text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    refused jsonb,
    refused_at timestamp with time zone
);

--
-- Name: login_code; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.login_code (
    code_hash bytea NOT NULL,
    github_id bigint NOT NULL,
    login text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: message; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.message (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    queue_name text NOT NULL,
    topic_name text NOT NULL,
    payload text NOT NULL,
    headers jsonb NOT NULL,
    status text NOT NULL,
    retry_count integer DEFAULT 0 NOT NULL,
    published_at timestamp with time zone NOT NULL,
    available_at timestamp with time zone NOT NULL,
    holder text,
    consumer_id text,
    unacked_at timestamp with time zone,
    lease_expires_at timestamp with time zone,
    nack_reason text,
    expired_count integer,
    ordering_key text,
    ordering_pos bigint,
    expires_at timestamp with time zone,
    priority smallint,
    group_key text,
    CONSTRAINT message_check1 CHECK (((status = 'UNACKED'::text) = ((lease_expires_at IS NOT NULL) AND (holder IS NOT NULL)))),
    CONSTRAINT message_ordering_check CHECK ((((ordering_key IS NULL) = (ordering_pos IS NULL)) AND ((status <> 'BLOCKED'::text) OR (ordering_key IS NOT NULL)))),
    CONSTRAINT message_priority_check CHECK (((priority >= 0) AND (priority <= 9))),
    CONSTRAINT message_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'UNACKED'::text, 'BLOCKED'::text])))
)
WITH (fillfactor='80', autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='10000', autovacuum_vacuum_cost_delay='0', autovacuum_vacuum_insert_scale_factor='0', autovacuum_vacuum_insert_threshold='100000', autovacuum_analyze_scale_factor='0.05');
ALTER TABLE ONLY public.message ALTER COLUMN group_key SET (n_distinct=-0.01);

--
-- Name: message_acked; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.message_acked (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    queue_name text NOT NULL,
    topic_name text NOT NULL,
    payload text NOT NULL,
    headers jsonb NOT NULL,
    retry_count integer NOT NULL,
    published_at timestamp with time zone NOT NULL,
    available_at timestamp with time zone NOT NULL,
    holder text,
    consumer_id text,
    unacked_at timestamp with time zone,
    acked_at timestamp with time zone NOT NULL,
    ordering_key text,
    expires_at timestamp with time zone,
    priority smallint,
    group_key text
)
PARTITION BY RANGE (acked_at);

--
-- Name: message_acked_default; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.message_acked_default (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    queue_name text NOT NULL,
    topic_name text NOT NULL,
    payload text NOT NULL,
    headers jsonb NOT NULL,
    retry_count integer NOT NULL,
    published_at timestamp with time zone NOT NULL,
    available_at timestamp with time zone NOT NULL,
    holder text,
    consumer_id text,
    unacked_at timestamp with time zone,
    acked_at timestamp with time zone NOT NULL,
    ordering_key text,
    expires_at timestamp with time zone,
    priority smallint,
    group_key text
);

--
-- Name: message_dead; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.message_dead (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    queue_name text NOT NULL,
    topic_name text NOT NULL,
    payload text NOT NULL,
    headers jsonb NOT NULL,
    retry_count integer NOT NULL,
    published_at timestamp with time zone NOT NULL,
    available_at timestamp with time zone NOT NULL,
    consumer_id text,
    unacked_at timestamp with time zone,
    dead_at timestamp with time zone NOT NULL,
    dead_reason text NOT NULL,
    nack_reason text,
    dead_detail text,
    ordering_key text,
    expires_at timestamp with time zone,
    priority smallint,
    group_key text,
    CONSTRAINT message_dead_dead_reason_check CHECK ((dead_reason = ANY (ARRAY['NACKED'::text, 'RETRIES_EXHAUSTED'::text, 'EXPIRED'::text, 'TTL_EXPIRED'::text, 'OVERFLOW'::text])))
);

--
-- Name: message_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.message_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: message_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.message_seq OWNED BY public.message.seq;

--
-- Name: ordering_group; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ordering_group (
    queue_name text NOT NULL,
    ordering_key text NOT NULL,
    next_pos bigint NOT NULL,
    live bigint NOT NULL,
    stalled boolean DEFAULT false NOT NULL,
    CONSTRAINT ordering_group_live_check CHECK ((live >= 0))
)
WITH (fillfactor='80');

--
-- Name: queue; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue (
    name text NOT NULL,
    topic_name text NOT NULL,
    ack_timeout_seconds integer NOT NULL,
    max_retries integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    acked_retention_hours integer,
    require_ordering_key boolean DEFAULT false NOT NULL,
    filter jsonb,
    max_messages bigint,
    max_bytes bigint,
    overflow text DEFAULT 'reject_publish'::text NOT NULL,
    single_active_consumer boolean DEFAULT false NOT NULL,
    max_deliveries_per_second integer,
    message_ttl_seconds integer,
    on_expiry text DEFAULT 'dead_letter'::text NOT NULL,
    dead_letter_topic text,
    dead_letter_keep boolean DEFAULT false NOT NULL,
    max_priority smallint,
    fairness text DEFAULT 'none'::text NOT NULL,
    max_in_flight_per_key integer,
    gated boolean GENERATED ALWAYS AS ((single_active_consumer OR (max_deliveries_per_second IS NOT NULL) OR (fairness = 'by_key'::text))) STORED,
    attention jsonb DEFAULT '{"muted": false, "backlog_growth": null, "dead_per_minute": null, "oldest_pending_seconds": null}'::jsonb NOT NULL,
    CONSTRAINT queue_ack_timeout_seconds_check CHECK (((ack_timeout_seconds >= 1) AND (ack_timeout_seconds <= 43200))),
    CONSTRAINT queue_acked_retention_hours_check CHECK (((acked_retention_hours >= 0) AND (acked_retention_hours <= 8760))),
    CONSTRAINT queue_attention_check CHECK ((jsonb_typeof(attention) = 'object'::text)),
    CONSTRAINT queue_dead_letter_topic_check CHECK ((dead_letter_topic <> topic_name)),
    CONSTRAINT queue_fairness_check CHECK ((fairness = ANY (ARRAY['none'::text, 'by_key'::text]))),
    CONSTRAINT queue_fairness_without_priority CHECK (((fairness = 'none'::text) OR (max_priority IS NULL))),
    CONSTRAINT queue_max_bytes_check CHECK ((max_bytes > 0)),
    CONSTRAINT queue_max_deliveries_per_second_check CHECK (((max_deliveries_per_second >= 1) AND (max_deliveries_per_second <= 100000))),
    CONSTRAINT queue_max_in_flight_per_key_check CHECK (((max_in_flight_per_key >= 1) AND (max_in_flight_per_key <= 10000))),
    CONSTRAINT queue_max_messages_check CHECK ((max_messages > 0)),
    CONSTRAINT queue_max_priority_check CHECK (((max_priority >= 1) AND (max_priority <= 9))),
    CONSTRAINT queue_max_retries_check CHECK (((max_retries >= 0) AND (max_retries <= 100))),
    CONSTRAINT queue_message_ttl_seconds_check CHECK (((message_ttl_seconds >= 1) AND (message_ttl_seconds <= 1209600))),
    CONSTRAINT queue_on_expiry_check CHECK ((on_expiry = ANY (ARRAY['dead_letter'::text, 'drop'::text]))),
    CONSTRAINT queue_overflow_check CHECK ((overflow = ANY (ARRAY['reject_publish'::text, 'reject_copy'::text, 'dead_letter_oldest'::text, 'drop_oldest'::text]))),
    CONSTRAINT queue_per_key_needs_fairness CHECK (((max_in_flight_per_key IS NULL) OR (fairness = 'by_key'::text)))
);

--
-- Name: queue_active_consumer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_active_consumer (
    queue_name text NOT NULL,
    holder text NOT NULL,
    consumer_id text NOT NULL,
    since timestamp with time zone NOT NULL,
    active_until timestamp with time zone NOT NULL
)
WITH (fillfactor='50');

--
-- Name: queue_counter; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_counter (
    queue_name text NOT NULL,
    shard smallint NOT NULL,
    acked bigint DEFAULT 0 NOT NULL,
    pending bigint DEFAULT 0 NOT NULL,
    unacked bigint DEFAULT 0 NOT NULL,
    dead bigint DEFAULT 0 NOT NULL,
    bytes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT queue_counter_shard_check CHECK (((shard >= 0) AND (shard <= 15)))
);

--
-- Name: queue_delivery_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_delivery_tokens (
    queue_name text NOT NULL,
    tokens double precision NOT NULL,
    refilled_at timestamp with time zone NOT NULL
)
WITH (fillfactor='50');

--
-- Name: queue_fair_turn; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_fair_turn (
    queue_name text NOT NULL,
    last_key text
)
WITH (fillfactor='50');

--
-- Name: queue_oldest_age_hour; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_oldest_age_hour (
    queue_name text NOT NULL,
    hour timestamp with time zone NOT NULL,
    total bigint NOT NULL
);

--
-- Name: queue_poller; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_poller (
    queue_name text NOT NULL,
    consumer_id text NOT NULL,
    seen_at timestamp with time zone NOT NULL
);

--
-- Name: queue_push; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_push (
    queue_name text NOT NULL,
    url text NOT NULL,
    max_in_flight integer NOT NULL,
    timeout_seconds integer NOT NULL,
    secret_sealed text NOT NULL,
    previous_secret_sealed text,
    previous_secret_until timestamp with time zone,
    secret_rotated_at timestamp with time zone DEFAULT now() NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    consecutive_failures integer DEFAULT 0 NOT NULL,
    last_error text,
    last_error_at timestamp with time zone,
    last_success_at timestamp with time zone,
    CONSTRAINT queue_push_consecutive_failures_check CHECK ((consecutive_failures >= 0)),
    CONSTRAINT queue_push_max_in_flight_check CHECK (((max_in_flight >= 1) AND (max_in_flight <= 100))),
    CONSTRAINT queue_push_timeout_seconds_check CHECK (((timeout_seconds >= 1) AND (timeout_seconds <= 60)))
);

--
-- Name: queue_rate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_rate (
    queue_name text NOT NULL,
    bucket timestamp with time zone NOT NULL,
    enqueued integer DEFAULT 0 NOT NULL,
    delivered integer DEFAULT 0 NOT NULL,
    acked integer DEFAULT 0 NOT NULL,
    nacked integer DEFAULT 0 NOT NULL,
    dead integer DEFAULT 0 NOT NULL,
    redelivered integer DEFAULT 0 NOT NULL,
    replayed integer DEFAULT 0 NOT NULL,
    depth integer
);

--
-- Name: queue_rate_minute; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_rate_minute (
    queue_name text NOT NULL,
    minute timestamp with time zone NOT NULL,
    enqueued integer DEFAULT 0 NOT NULL,
    delivered integer DEFAULT 0 NOT NULL,
    acked integer DEFAULT 0 NOT NULL,
    nacked integer DEFAULT 0 NOT NULL,
    dead integer DEFAULT 0 NOT NULL,
    redelivered integer DEFAULT 0 NOT NULL,
    replayed integer DEFAULT 0 NOT NULL,
    depth integer,
    depth_bucket timestamp with time zone,
    oldest_age_total bigint DEFAULT 0 NOT NULL
);

--
-- Name: rate_sample; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_sample (
    bucket timestamp with time zone NOT NULL
);

--
-- Name: schema_migration; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migration (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: topic; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.topic (
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: topic_rate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.topic_rate (
    topic_name text NOT NULL,
    bucket timestamp with time zone NOT NULL,
    published integer DEFAULT 0 NOT NULL
);

--
-- Name: topic_rate_minute; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.topic_rate_minute (
    topic_name text NOT NULL,
    minute timestamp with time zone NOT NULL,
    published integer DEFAULT 0 NOT NULL
);

--
-- Name: ws_consumer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ws_consumer (
    id text NOT NULL,
    queue_name text NOT NULL,
    instance_id text NOT NULL,
    owner_pid integer NOT NULL,
    owner_started timestamp with time zone NOT NULL,
    connected_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);

--
-- Name: ws_monitor; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ws_monitor (
    instance_id text NOT NULL,
    owner_pid integer NOT NULL,
    owner_started timestamp with time zone NOT NULL
);

--
-- Name: ws_ticket; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ws_ticket (
    ticket_hash bytea NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    scopes text[] NOT NULL,
    owner text NOT NULL,
    credential_id uuid NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    credential_hash bytea,
    CONSTRAINT ws_ticket_kind_check CHECK ((kind = ANY (ARRAY['client'::text, 'session'::text])))
);

--
-- Name: message_acked_default; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message_acked ATTACH PARTITION public.message_acked_default DEFAULT;

--
-- Name: message seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message ALTER COLUMN seq SET DEFAULT nextval('public.message_seq'::regclass);

--
-- Name: client client_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client
    ADD CONSTRAINT client_key_hash_key UNIQUE (key_hash);

--
-- Name: client client_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.client
    ADD CONSTRAINT client_pkey PRIMARY KEY (id);

--
-- Name: dashboard_session dashboard_session_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dashboard_session
    ADD CONSTRAINT dashboard_session_pkey PRIMARY KEY (id);

--
-- Name: dashboard_session dashboard_session_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dashboard_session
    ADD CONSTRAINT dashboard_session_token_hash_key UNIQUE (token_hash);

--
-- Name: history_replay history_replay_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history_replay
    ADD CONSTRAINT history_replay_pkey PRIMARY KEY (id);

--
-- Name: history_replay history_replay_queue_name_idempotency_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history_replay
    ADD CONSTRAINT history_replay_queue_name_idempotency_key_key UNIQUE (queue_name, idempotency_key);

--
-- Name: idempotency_key idempotency_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key
    ADD CONSTRAINT idempotency_key_pkey PRIMARY KEY (owner, key);

--
-- Name: login_code login_code_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_code
    ADD CONSTRAINT login_code_pkey PRIMARY KEY (code_hash);

--
-- Name: message_dead message_dead_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message_dead
    ADD CONSTRAINT message_dead_pkey PRIMARY KEY (id);

--
-- Name: message message_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message
    ADD CONSTRAINT message_pkey PRIMARY KEY (id);

--
-- Name: ordering_group ordering_group_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ordering_group
    ADD CONSTRAINT ordering_group_pkey PRIMARY KEY (queue_name, ordering_key);

--
-- Name: queue_active_consumer queue_active_consumer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_active_consumer
    ADD CONSTRAINT queue_active_consumer_pkey PRIMARY KEY (queue_name);

--
-- Name: queue_counter queue_counter_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_counter
    ADD CONSTRAINT queue_counter_pkey PRIMARY KEY (queue_name, shard);

--
-- Name: queue_delivery_tokens queue_delivery_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_delivery_tokens
    ADD CONSTRAINT queue_delivery_tokens_pkey PRIMARY KEY (queue_name);

--
-- Name: queue_fair_turn queue_fair_turn_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_fair_turn
    ADD CONSTRAINT queue_fair_turn_pkey PRIMARY KEY (queue_name);

--
-- Name: queue_oldest_age_hour queue_oldest_age_hour_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_oldest_age_hour
    ADD CONSTRAINT queue_oldest_age_hour_pkey PRIMARY KEY (queue_name, hour);

--
-- Name: queue queue_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue
    ADD CONSTRAINT queue_pkey PRIMARY KEY (name);

--
-- Name: queue_poller queue_poller_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_poller
    ADD CONSTRAINT queue_poller_pkey PRIMARY KEY (queue_name, consumer_id);

--
-- Name: queue_push queue_push_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_push
    ADD CONSTRAINT queue_push_pkey PRIMARY KEY (queue_name);

--
-- Name: queue_rate_minute queue_rate_minute_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_rate_minute
    ADD CONSTRAINT queue_rate_minute_pkey PRIMARY KEY (queue_name, minute);

--
-- Name: queue_rate queue_rate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_rate
    ADD CONSTRAINT queue_rate_pkey PRIMARY KEY (queue_name, bucket);

--
-- Name: rate_sample rate_sample_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_sample
    ADD CONSTRAINT rate_sample_pkey PRIMARY KEY (bucket);

--
-- Name: schema_migration schema_migration_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (name);

--
-- Name: topic topic_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.topic
    ADD CONSTRAINT topic_pkey PRIMARY KEY (name);

--
-- Name: topic_rate_minute topic_rate_minute_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.topic_rate_minute
    ADD CONSTRAINT topic_rate_minute_pkey PRIMARY KEY (topic_name, minute);

--
-- Name: topic_rate topic_rate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.topic_rate
    ADD CONSTRAINT topic_rate_pkey PRIMARY KEY (topic_name, bucket);

--
-- Name: ws_consumer ws_consumer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ws_consumer
    ADD CONSTRAINT ws_consumer_pkey PRIMARY KEY (id);

--
-- Name: ws_monitor ws_monitor_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ws_monitor
    ADD CONSTRAINT ws_monitor_pkey PRIMARY KEY (instance_id);

--
-- Name: ws_ticket ws_ticket_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ws_ticket
    ADD CONSTRAINT ws_ticket_pkey PRIMARY KEY (ticket_hash);

--
-- Name: client_active_name_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX client_active_name_idx ON public.client USING btree (name) WHERE (revoked_at IS NULL);

--
-- Name: dashboard_session_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dashboard_session_expires_idx ON public.dashboard_session USING btree (expires_at);

--
-- Name: history_replay_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX history_replay_created_idx ON public.history_replay USING btree (created_at);

--
-- Name: idempotency_key_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_key_created_idx ON public.idempotency_key USING btree (created_at);

--
-- Name: login_code_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX login_code_expires_idx ON public.login_code USING btree (expires_at);

--
-- Name: message_acked_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_id_idx ON ONLY public.message_acked USING btree (id);

--
-- Name: message_acked_default_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_default_id_idx ON public.message_acked_default USING btree (id);

--
-- Name: message_acked_queue_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_queue_idx ON ONLY public.message_acked USING btree (queue_name, available_at, seq);

--
-- Name: message_acked_default_queue_name_available_at_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_default_queue_name_available_at_seq_idx ON public.message_acked_default USING btree (queue_name, available_at, seq);

--
-- Name: message_acked_published_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_published_idx ON ONLY public.message_acked USING btree (queue_name, published_at, seq);

--
-- Name: message_acked_default_queue_name_published_at_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_acked_default_queue_name_published_at_seq_idx ON public.message_acked_default USING btree (queue_name, published_at, seq);

--
-- Name: message_blocked_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_blocked_idx ON public.message USING btree (queue_name, available_at, seq) WHERE (status = 'BLOCKED'::text);

--
-- Name: message_claim_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_claim_idx ON public.message USING btree (queue_name, available_at, seq) WHERE (status = 'PENDING'::text);

--
-- Name: message_dead_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_at_idx ON public.message_dead USING btree (dead_at);

--
-- Name: message_dead_position_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_position_idx ON public.message_dead USING btree (available_at, seq);

--
-- Name: message_dead_published_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_published_idx ON public.message_dead USING btree (queue_name, published_at, seq);

--
-- Name: message_dead_queue_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_queue_idx ON public.message_dead USING btree (queue_name, available_at, seq);

--
-- Name: message_dead_queue_reason_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_queue_reason_idx ON public.message_dead USING btree (queue_name, dead_reason, available_at, seq);

--
-- Name: message_dead_reason_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_dead_reason_idx ON public.message_dead USING btree (dead_reason, available_at, seq);

--
-- Name: message_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_expires_idx ON public.message USING btree (expires_at) WHERE (expires_at IS NOT NULL);

--
-- Name: message_fair_claim_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_fair_claim_idx ON public.message USING btree (queue_name, group_key, available_at, seq) WHERE ((status = 'PENDING'::text) AND (group_key IS NOT NULL));

--
-- Name: message_fair_held_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_fair_held_idx ON public.message USING btree (queue_name, group_key) WHERE ((status = 'UNACKED'::text) AND (group_key IS NOT NULL));

--
-- Name: message_lease_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_lease_idx ON public.message USING btree (lease_expires_at) WHERE (status = 'UNACKED'::text);

--
-- Name: message_ordering_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_ordering_idx ON public.message USING btree (queue_name, ordering_key, ordering_pos) WHERE (ordering_key IS NOT NULL);

--
-- Name: message_priority_claim_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_priority_claim_idx ON public.message USING btree (queue_name, priority DESC, available_at, seq) WHERE ((status = 'PENDING'::text) AND (priority IS NOT NULL));

--
-- Name: message_published_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX message_published_idx ON public.message USING btree (queue_name, published_at, seq) WHERE (status <> 'UNACKED'::text);

--
-- Name: ordering_group_stalled_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ordering_group_stalled_idx ON public.ordering_group USING btree (queue_name) WHERE stalled;

--
-- Name: queue_oldest_age_hour_hour_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_oldest_age_hour_hour_idx ON public.queue_oldest_age_hour USING btree (hour);

--
-- Name: queue_rate_bucket_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_rate_bucket_idx ON public.queue_rate USING btree (bucket);

--
-- Name: queue_rate_minute_minute_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_rate_minute_minute_idx ON public.queue_rate_minute USING btree (minute);

--
-- Name: queue_topic_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_topic_idx ON public.queue USING btree (topic_name);

--
-- Name: topic_rate_bucket_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX topic_rate_bucket_idx ON public.topic_rate USING btree (bucket);

--
-- Name: topic_rate_minute_minute_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX topic_rate_minute_minute_idx ON public.topic_rate_minute USING btree (minute);

--
-- Name: ws_consumer_instance_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ws_consumer_instance_idx ON public.ws_consumer USING btree (instance_id);

--
-- Name: ws_consumer_queue_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ws_consumer_queue_idx ON public.ws_consumer USING btree (queue_name);

--
-- Name: ws_ticket_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ws_ticket_expires_idx ON public.ws_ticket USING btree (expires_at);

--
-- Name: message_acked_default_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.message_acked_id_idx ATTACH PARTITION public.message_acked_default_id_idx;

--
-- Name: message_acked_default_queue_name_available_at_seq_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.message_acked_queue_idx ATTACH PARTITION public.message_acked_default_queue_name_available_at_seq_idx;

--
-- Name: message_acked_default_queue_name_published_at_seq_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.message_acked_published_idx ATTACH PARTITION public.message_acked_default_queue_name_published_at_seq_idx;

--
-- Name: client client_key_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER client_key_changed AFTER DELETE OR UPDATE OF key_hash, revoked_at, scopes ON public.client FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_auth();

--
-- Name: dashboard_session dashboard_session_ended; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER dashboard_session_ended AFTER DELETE ON public.dashboard_session FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_session_ended();

--
-- Name: queue queue_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER queue_changed AFTER INSERT OR DELETE ON public.queue FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_topology();

--
-- Name: topic topic_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER topic_changed AFTER INSERT OR DELETE ON public.topic FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_topology();

--
-- Name: ws_consumer ws_consumer_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ws_consumer_changed AFTER INSERT OR DELETE ON public.ws_consumer FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_ws_members();

--
-- Name: ws_monitor ws_monitor_present; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ws_monitor_present AFTER INSERT ON public.ws_monitor FOR EACH ROW EXECUTE FUNCTION public.miniqueue_notify_monitor_presence();

--
-- Name: history_replay history_replay_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history_replay
    ADD CONSTRAINT history_replay_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue_active_consumer queue_active_consumer_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_active_consumer
    ADD CONSTRAINT queue_active_consumer_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue_counter queue_counter_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_counter
    ADD CONSTRAINT queue_counter_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue queue_dead_letter_topic_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue
    ADD CONSTRAINT queue_dead_letter_topic_fkey FOREIGN KEY (dead_letter_topic) REFERENCES public.topic(name) ON DELETE SET NULL;

--
-- Name: queue_delivery_tokens queue_delivery_tokens_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_delivery_tokens
    ADD CONSTRAINT queue_delivery_tokens_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue_fair_turn queue_fair_turn_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_fair_turn
    ADD CONSTRAINT queue_fair_turn_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue_push queue_push_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_push
    ADD CONSTRAINT queue_push_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- Name: queue queue_topic_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue
    ADD CONSTRAINT queue_topic_name_fkey FOREIGN KEY (topic_name) REFERENCES public.topic(name) ON DELETE RESTRICT;

--
-- Name: ws_consumer ws_consumer_queue_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ws_consumer
    ADD CONSTRAINT ws_consumer_queue_name_fkey FOREIGN KEY (queue_name) REFERENCES public.queue(name) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
