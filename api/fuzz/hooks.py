"""Schemathesis hooks for MiniQueue's fuzzing run (loaded through SCHEMATHESIS_HOOKS).

The fuzzer authenticates with keys of its own. Rotating or revoking one of those clients would
lock the rest of the run out, so a generated request that names one of them is pointed at a
client that does not exist instead: the operation is still fuzzed, only never on itself.
"""
import os

import schemathesis

PROTECTED = {name.strip().lower() for name in os.environ.get("FUZZ_PROTECTED_CLIENTS", "").split(",") if name.strip()}
SELF_LOCKING = {"rotateClient", "deleteClient"}


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.definition.raw.get("operationId") not in SELF_LOCKING:
        return
    name = (case.path_parameters or {}).get("name")
    if isinstance(name, str) and name.lower() in PROTECTED:
        case.path_parameters["name"] = "fuzz-nobody"
