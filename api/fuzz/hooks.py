"""Schemathesis hooks for MiniQueue's fuzzing run (loaded through SCHEMATHESIS_HOOKS).

The fuzzer authenticates with keys of its own. Rotating, revoking or changing the scopes of one
of those clients would lock the rest of the run out, so a generated request that names one of
them is pointed at a client that does not exist instead: the operation is still fuzzed, only
never on itself.

Random UUIDs name no message, so operations that read or delete one message would only ever be
fuzzed on their 404. Every other well-formed id is replaced with one that exists (run.sh makes
them): for reading, any message (the narrow key may read some and not others); for deleting a
dead message, the next dead one not yet deleted (a case refused before it reaches the handler,
for its method or its credential, leaves it for the next).

The bulk operations on dead letters by filter (replay or delete everything matching) would take
those dead messages with them when the filter names no queue, or theirs: they are pointed at the
fuzzed queue instead, where they still replay or delete what they find.
"""
import os
import re

import schemathesis

def _names(variable):
    return [name.strip().lower() for name in os.environ.get(variable, "").split(",") if name.strip()]


PROTECTED = set(_names("FUZZ_PROTECTED_CLIENTS"))
SELF_LOCKING = {"rotateClient", "deleteClient", "updateClient"}
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
MESSAGE_IDS = _names("FUZZ_MESSAGE_IDS")
DEAD_IDS = _names("FUZZ_DEAD_IDS")
calls = {"getMessage": 0, "deleteDeadLetter": 0}
BULK_BY_FILTER = {"replayDeadLetters", "deleteDeadLetters"}
DEAD_QUEUE = "fuzz-dead"


def _existing_id(operation_id):
    """Every other call an id that exists, or None (the generated id stays)."""
    calls[operation_id] += 1
    if calls[operation_id] % 2:
        return None
    if operation_id == "getMessage":
        return MESSAGE_IDS[(calls[operation_id] // 2) % len(MESSAGE_IDS)] if MESSAGE_IDS else None
    return DEAD_IDS[0] if DEAD_IDS else None


@schemathesis.hook
def before_call(context, case, kwargs):
    operation_id = case.operation.definition.raw.get("operationId")
    parameters = case.path_parameters or {}
    if operation_id in BULK_BY_FILTER:
        if isinstance(case.body, dict) and str(case.body.get("queue", DEAD_QUEUE)).lower() == DEAD_QUEUE:
            case.body["queue"] = "fuzz-queue"
    elif operation_id in SELF_LOCKING:
        name = parameters.get("name")
        if isinstance(name, str) and name.lower() in PROTECTED:
            case.path_parameters["name"] = "fuzz-nobody"
    elif operation_id in calls:
        generated = parameters.get("id")
        if isinstance(generated, str) and UUID.match(generated):
            existing = _existing_id(operation_id)
            if existing:
                case.path_parameters["id"] = existing


@schemathesis.hook
def after_call(context, case, response):
    if case.operation.definition.raw.get("operationId") != "deleteDeadLetter" or response.status_code != 204:
        return
    deleted = (case.path_parameters or {}).get("id")
    if deleted in DEAD_IDS:
        DEAD_IDS.remove(deleted)
