#!/usr/bin/env python3
# Calls a generated plugin's kind interface through the C ABI (ctypes), the way the host
# does, and checks the scaffold's trivial answer. Args: SO KIND.
import ctypes as C
import json
import sys

so, kind = sys.argv[1], sys.argv[2]
WRITE = C.CFUNCTYPE(C.c_int32, C.c_void_p, C.POINTER(C.c_char), C.c_size_t)


class Sink(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("ctx", C.c_void_p), ("write", WRITE)]


class Entry(C.Structure):
    _fields_ = [("struct_size", C.c_uint32), ("abi", C.c_uint32 * 2)] + [
        (f, C.c_void_p) for f in
        ("descriptor", "init", "deinit", "create", "destroy", "last_error", "get_interface")]


lib = C.CDLL(so)
entry = Entry.in_dll(lib, "sbx_entry")
assert C.CFUNCTYPE(C.c_int32, C.c_void_p)(entry.init)(None) == 0, "init failed"
instance = C.c_void_p()
create = C.CFUNCTYPE(C.c_int32, C.c_char_p, C.POINTER(C.c_void_p))(entry.create)
assert create(b"{}", C.byref(instance)) == 0, "create failed"
table = C.CFUNCTYPE(C.c_void_p, C.c_char_p)(entry.get_interface)(f"sbx.{kind}/1".encode())
functions = C.cast(table, C.POINTER(C.c_void_p))  # [0] holds struct_size and padding
CALL = C.CFUNCTYPE(C.c_int32, C.c_void_p, C.c_char_p, C.POINTER(Sink))


def call(slot, request):
    chunks = []
    write = WRITE(lambda ctx, data, n: chunks.append(C.string_at(data, n)) or 0)
    sink = Sink(C.sizeof(Sink), None, write)
    assert CALL(functions[slot])(instance, request.encode(), C.byref(sink)) == 0, request
    return json.loads(b"".join(chunks))


if kind == "executor":
    assert call(1, "{}") == {"status": "XX", "error": "not implemented"}
elif kind == "injector":
    assert call(1, "{}") == {"active": False}
    teardown = C.CFUNCTYPE(C.c_int32, C.c_void_p, C.c_char_p)(functions[2])
    assert teardown(instance, b"null") == 0
    assert call(3, "{}") == {"removed": []}
elif kind == "stub":
    request = '{"slots":{"count":{"type":"int"}},"count":3,"seed":1}'
    assert call(1, request) == {"input_sets": [{}, {}, {}]}
elif kind == "metrics":
    assert call(1, '{"phase":"run"}') == {}
else:
    answer = call(1, '{"series":[1, 2.5 ]}')
    assert answer["value"] == 2.5 and answer["insufficient_data"] is True, answer
    assert call(1, '{"series":[]}')["value"] is None
