"""The history SQL port through clickhouse-connect (PyPI), for sql-port-python.int.spec.ts.

Reads one JSON object on stdin: host, port, token, database, examples ([{sql, params}]) and refused
(statements). Writes one JSON object on stdout: each example's rows (times as Unix milliseconds),
the error code each refused statement got, and the error code of a client with a wrong token.
"""

import json
import sys
from datetime import date, datetime, timezone

import clickhouse_connect
from clickhouse_connect.driver.exceptions import DatabaseError


def plain(value):
    """A value as JSON can carry it: times as Unix milliseconds (UTC when the type names no zone)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return round(value.timestamp() * 1000)
    if isinstance(value, date):
        return value.isoformat()
    return value


def code_of(err):
    return str(getattr(err, "code", None) or "")


def main():
    job = json.load(sys.stdin)
    connect = dict(host=job["host"], port=job["port"], username="default", database=job["database"])
    client = clickhouse_connect.get_client(password=job["token"], **connect)
    out = {"version": client.server_version, "answers": [], "refused": [], "wrong_token": None}
    for example in job["examples"]:
        result = client.query(example["sql"], parameters=example["params"] or None)
        out["answers"].append([{k: plain(v) for k, v in row.items()} for row in result.named_results()])
    for sql in job["refused"]:
        try:
            client.command(sql)
            out["refused"].append({"sql": sql, "code": None})
        except DatabaseError as err:
            out["refused"].append({"sql": sql, "code": code_of(err)})
    try:
        clickhouse_connect.get_client(password=job["wrong_token"], **connect).query("SELECT 1")
    except DatabaseError as err:
        out["wrong_token"] = code_of(err)
    client.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
