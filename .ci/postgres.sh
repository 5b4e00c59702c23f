#!/usr/bin/env bash
# Starts a PostgreSQL server for the tests that need one and prints the
# address of a database they may make databases from:
#   postgres://skid:skid@127.0.0.1:PORT/skid_test
# Installs the Debian package `postgresql` where it is missing, makes a
# cluster where there is none, starts it, and makes the role and database
# once (the role may make roles: tests run a server under a role of
# least privilege). Run as root (CI is); prints nothing and exits non-zero
# on failure.
# Only the address goes to standard output: what the tools say on the way
# (pg_ctlcluster's "Removed stale pid file.", say) goes to standard error,
# and the server started holds no descriptor of standard output open.
set -euo pipefail
{
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null 2>&1
  fi
  first() { pg_lsclusters -h | head -n 1 | awk "{print \$$1}"; }
  if [ -z "$(first 1)" ]; then
    ver=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
    pg_createcluster "$ver" main >/dev/null
  fi
  ver=$(first 1); name=$(first 2); port=$(first 3)
  if [ "$(first 4)" != online ]; then
    pg_ctlcluster "$ver" "$name" start
  fi
  as_postgres() { su postgres -c "psql -p $port -qtAc \"$1\""; }
  for _ in $(seq 50); do as_postgres "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
  [ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'skid'")" = 1 ] ||
    as_postgres "CREATE ROLE skid LOGIN PASSWORD 'skid' CREATEDB CREATEROLE" >/dev/null
  [ "$(as_postgres "SELECT rolcreaterole FROM pg_roles WHERE rolname = 'skid'")" = t ] ||
    as_postgres "ALTER ROLE skid CREATEROLE" >/dev/null
  [ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname = 'skid_test'")" = 1 ] ||
    as_postgres "CREATE DATABASE skid_test OWNER skid" >/dev/null
} 1>&2
echo "postgres://skid:skid@127.0.0.1:$port/skid_test"
