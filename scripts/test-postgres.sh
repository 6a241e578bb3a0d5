#!/usr/bin/env bash
# Runs a command (the test suite: `scripts/test-postgres.sh cargo test --workspace`) with a
# private PostgreSQL cluster for it: made in a temporary directory, listening on a free loopback
# port and a socket in that directory, named to the command by TRAWL_TEST_POSTGRES, and stopped
# and removed when the command ends, however it ends. The command's exit status is the script's.
#
# The cluster trades durability for speed (fsync off): it lives only as long as the tests.
# As root, the cluster runs as the `postgres` user, as PostgreSQL refuses to run as root.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGUMENT...]   (e.g. $0 cargo test --workspace)" >&2
    exit 2
fi

# initdb and pg_ctl: on the PATH, or in Debian's versioned directory.
find_tool() {
    if command -v "$1" >/dev/null 2>&1; then
        command -v "$1"
        return
    fi
    local candidate
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$candidate/$1" ]; then
            echo "$candidate/$1"
            return
        fi
    done
    echo "PostgreSQL's $1 is not installed (Debian: apt-get install -y postgresql)" >&2
    exit 1
}
INITDB=$(find_tool initdb)
PG_CTL=$(find_tool pg_ctl)

CLUSTER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/trawl-test-postgres.XXXXXX")
if [ "$(id -u)" -eq 0 ]; then
    RUN_AS=(runuser -u postgres --)
    chown postgres "$CLUSTER_DIR"
else
    RUN_AS=()
fi
USER_NAME=$("${RUN_AS[@]}" id -un)

stop_cluster() {
    "${RUN_AS[@]}" "$PG_CTL" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$CLUSTER_DIR"
}
trap stop_cluster EXIT

"${RUN_AS[@]}" "$INITDB" -D "$CLUSTER_DIR/data" -U "$USER_NAME" --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$CLUSTER_DIR/initdb.log" 2>&1 ||
    { cat "$CLUSTER_DIR/initdb.log" >&2; exit 1; }

# A free port: a random one in the unprivileged range that nothing answers on; should another
# process take it between the look and the start, the server fails to bind and we try again.
port_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
started=false
for _attempt in 1 2 3 4 5; do
    PORT=$((20000 + RANDOM % 40000))
    if port_answers "$PORT"; then
        continue
    fi
    if "${RUN_AS[@]}" "$PG_CTL" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $CLUSTER_DIR -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null; then
        started=true
        break
    fi
done
if [ "$started" != true ]; then
    echo "the test PostgreSQL cluster did not start:" >&2
    cat "$CLUSTER_DIR/server.log" >&2
    exit 1
fi

export TRAWL_TEST_POSTGRES="postgres://$USER_NAME@127.0.0.1:$PORT/postgres"
# A command restarting the cluster as a crash would (immediate shutdown, recovery from the
# write-ahead log), for the fault tests.
export TRAWL_TEST_POSTGRES_RESTART="${RUN_AS[*]} $PG_CTL -D $CLUSTER_DIR/data -l $CLUSTER_DIR/server.log -m immediate -w -t 60 restart"
echo "test PostgreSQL cluster at $TRAWL_TEST_POSTGRES" >&2
# Not exec: the trap stops the cluster after the command.
status=0
"$@" || status=$?
exit "$status"
