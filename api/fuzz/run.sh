#!/usr/bin/env bash
# Fuzzes a live broker from openapi.yaml with schemathesis: every check it has (server errors,
# status codes, content types, headers, response schemas, negative and positive data, ...), once
# with an admin key and once with a narrow one. Any failure fails the script.
#
#   SCHEMATHESIS   the schemathesis executable (default: .tmp/fuzz-venv/bin/schemathesis, which
#                  .ci/run installs: python3 -m venv + pip install schemathesis==4.32.5)
#   FUZZ_EXAMPLES  test cases per operation and phase (default 30)
#   FUZZ_WORKERS   concurrent requests (default 1: with more, Python 3.11's ast.parse, which
#                  hypothesis calls from every worker thread, fails now and then with
#                  "SystemError: AST constructor recursion depth mismatch")
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

SCHEMATHESIS="${SCHEMATHESIS:-$ROOT/.tmp/fuzz-venv/bin/schemathesis}"
EXAMPLES="${FUZZ_EXAMPLES:-30}"
WORKERS="${FUZZ_WORKERS:-1}"
if [ ! -x "$SCHEMATHESIS" ]; then
  echo "schemathesis not found at $SCHEMATHESIS; install it with:" >&2
  echo "  python3 -m venv .tmp/fuzz-venv && .tmp/fuzz-venv/bin/pip install schemathesis==4.32.5" >&2
  exit 2
fi

npm run build -w @miniqueue/api >/dev/null

WORK="$(mktemp -d)"
# The embedded PostgreSQL runs as another user when we are root: it must reach its directory.
chmod 0755 "$WORK"
REPORTS="$ROOT/artifacts/fuzz"
mkdir -p "$REPORTS"
BROKER_PID=""
cleanup() {
  if [ -n "$BROKER_PID" ] && kill -0 "$BROKER_PID" 2>/dev/null; then
    kill -TERM "$BROKER_PID"
    wait "$BROKER_PID" || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
BASE="http://127.0.0.1:$PORT"
ADMIN_KEY="mq_$(node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))")"

PUSH_KEY="$(node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))")"

# Rate limiting off: the fuzzer checks answers, not how many requests a key may make. GitHub
# sign-in is configured (against an address where nothing listens, which is never reached: the
# fuzzer has no state cookie), so its two routes answer as in production rather than 503.
# Push endpoints may be set, but only on loopback: whatever URL the fuzzer makes up, the broker
# posts nowhere else (anything else is refused when set, and again before every delivery).
MINIQUEUE_PUSH_SECRET_KEY="$PUSH_KEY" MINIQUEUE_PUSH_PUBLIC=false MINIQUEUE_PUSH_ALLOWED_NETWORKS=127.0.0.0/8,::1/128 \
  MINIQUEUE_PUSH_ALLOW_HTTP_LOOPBACK=true \
GITHUB_CLIENT_ID=fuzz GITHUB_CLIENT_SECRET=fuzz GITHUB_URL=http://127.0.0.1:9 \
  MINIQUEUE_DATA_DIR="$WORK/data" MINIQUEUE_BOOTSTRAP_ADMIN_KEY="$ADMIN_KEY" PORT="$PORT" HOST=127.0.0.1 \
  MINIQUEUE_RATE_LIMIT_ENABLED=false LOG_LEVEL=info \
  node --enable-source-maps api/dist/start.js >"$REPORTS/broker.log" 2>&1 &
BROKER_PID=$!
for _ in $(seq 1 120); do
  curl -fsS "$BASE/actuator/health" >/dev/null 2>&1 && break
  kill -0 "$BROKER_PID" 2>/dev/null || { echo "broker exited:" >&2; cat "$REPORTS/broker.log" >&2; exit 1; }
  sleep 0.5
done

api() { curl -fsS -X "$1" "$BASE$2" -H "Authorization: Bearer $ADMIN_KEY" -H 'Content-Type: application/json' ${3:+-d "$3"}; }
# Something to find: a topic and a queue with messages, which the narrow key may use.
api POST /api/v1/topics '{"name":"fuzz.topic"}' >/dev/null
api POST /api/v1/queues '{"name":"fuzz-queue","topic_name":"fuzz.topic"}' >/dev/null
api POST /api/v1/topics/fuzz.topic/messages/batch '{"messages":[{"payload":"a"},{"payload":"b"},{"payload":"c"}]}' >/dev/null
NARROW_KEY="$(api POST /api/v1/clients '{"name":"fuzz-narrow","scopes":["publish:fuzz.topic","consume:fuzz-queue"]}' \
  | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).api_key))")"

# Ids that exist, for the operations that address one message (hooks.py puts them in): the
# messages above, and dead messages of a queue the narrow key may not consume.
api POST /api/v1/topics '{"name":"fuzz.dead"}' >/dev/null
api POST /api/v1/queues '{"name":"fuzz-dead","topic_name":"fuzz.dead"}' >/dev/null
api POST /api/v1/topics/fuzz.dead/messages/batch '{"messages":[{"payload":"d1"},{"payload":"d2"},{"payload":"d3"},{"payload":"d4"}]}' >/dev/null
field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log($1))"; }
DEAD_IDS=""
for _ in 1 2 3 4; do
  id="$(api POST /api/v1/queues/fuzz-dead/consume | field 'JSON.parse(s).message_id')"
  api POST "/api/v1/messages/$id/nack" '{"requeue":false}' >/dev/null
  DEAD_IDS="$DEAD_IDS${DEAD_IDS:+,}$id"
done
LIVE_IDS="$(api GET /api/v1/queues/fuzz-queue/messages | field "JSON.parse(s).items.map(m=>m.message_id).join(',')")"
export FUZZ_MESSAGE_IDS="$LIVE_IDS,$DEAD_IDS"
export FUZZ_DEAD_IDS="$DEAD_IDS"

export SCHEMATHESIS_HOOKS=hooks
export PYTHONPATH="$ROOT/api/fuzz${PYTHONPATH:+:$PYTHONPATH}"
export FUZZ_PROTECTED_CLIENTS="bootstrap-admin,fuzz-narrow"

# What the broker answered, from its request log lines: "N requests: 200 x12, 400 x30, ...".
answered() {
  node -e '
    const counts = {};
    let total = 0;
    for (const line of require("fs").readFileSync(process.argv[1], "utf8").split("\n").slice(Number(process.argv[2]))) {
      const status = /"res":\{"status":(\d+)\}/.exec(line)?.[1];
      if (status) { counts[status] = (counts[status] ?? 0) + 1; total += 1; }
    }
    console.log(`${total} requests: ${Object.entries(counts).map(([s, n]) => `${s} x${n}`).join(", ")}`);
  ' "$REPORTS/broker.log" "$1"
}

status=0
fuzz() {
  local who="$1" key="$2"
  local from
  from="$(wc -l <"$REPORTS/broker.log")"
  echo "== schemathesis as $who (its full output: $REPORTS/$who.log)"
  # Its console output goes to a file and is printed whole only when something failed, so a
  # passing run adds two lines to the build log rather than two hundred.
  if "$SCHEMATHESIS" --config-file api/fuzz/schemathesis.toml run openapi.yaml --url "$BASE" -H "Authorization: Bearer $key" \
    --checks all --phases examples,coverage,fuzzing --max-examples "$EXAMPLES" --workers "$WORKERS" \
    --request-timeout 30 --max-response-time 25 --max-redirects 0 --seed 20261201 --generation-database none --no-color --output-sanitize true \
    --report junit,ndjson --report-junit-path "$REPORTS/$who.junit.xml" --report-ndjson-path "$REPORTS/$who.ndjson" \
    >"$REPORTS/$who.log" 2>&1; then
    echo "== fuzz cases as $who: $(grep -E '^ *[0-9]+ generated' "$REPORTS/$who.log" | tr -s ' ' || echo 'count not found')"
  else
    cat "$REPORTS/$who.log"
    status=1
  fi
  echo "== the broker answered the $who run: $(answered "$from")"
}
fuzz narrow "$NARROW_KEY"
fuzz admin "$ADMIN_KEY"

# Bodies the generator never makes: nested far past any schema, anonymous and with a key. Each must
# be 400 from the shape check (never a 500, a stack overflow, or seconds of event loop).
nested_body() {
  local depth="$1" path="$2"
  shift 2
  node -e "const d=Number(process.argv[1]);process.stdout.write('['.repeat(d)+']'.repeat(d))" "$depth" |
    curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -X POST "$BASE$path" -H 'Content-Type: application/json' "$@" --data-binary @- ||
    echo "no answer"
}
for depth in 3500 32000; do
  for answer in "anonymous $(nested_body "$depth" /api/v1/auth/exchange)" \
    "admin $(nested_body "$depth" /api/v1/topics -H "Authorization: Bearer $ADMIN_KEY")"; do
    if [ "${answer#* }" != 400 ]; then
      echo "A body nested $depth levels deep (${answer%% *}) answered ${answer#* }, not 400" >&2
      status=1
    fi
  done
done
echo "== nested bodies: checked"

if grep -E '"level":(50|60)' "$REPORTS/broker.log" >/dev/null; then
  echo "The broker logged errors during fuzzing (see $REPORTS/broker.log)" >&2
  status=1
fi
if grep -E '(^|[^A-Za-z0-9_-])(mq|mqs|lc|wst|mqwh)_[A-Za-z0-9_-]{43,}' "$REPORTS/broker.log" >/dev/null; then
  echo "A secret reached the broker's log during fuzzing (see $REPORTS/broker.log)" >&2
  status=1
fi
exit $status
