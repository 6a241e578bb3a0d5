#!/usr/bin/env bash
# Serves a real forum engine on loopback, seeds it with the synthetic community, crawls it with
# trawl (no engine-specific configuration) and judges the crawl against the engine's database.
#
# usage: scripts/real-forums/run.sh ENGINE
#   ENGINE: flaskbb | machina | spirit | lbforum | simpleforum | mhonarc
# environment (all optional):
#   REAL_FORUMS_DIR  venvs, seeded databases and results   (default target/real-forums)
#   SEED             the community's seed                  (default 7)
#   PORT             loopback port              (default 8731 flaskbb, 8732 machina, 8733 spirit,
#                                                8734 lbforum, 8735 simpleforum, 8736 mhonarc)
#   SAMPLES          pages `trawl learn` samples           (default: trawl's own)
#   MAX_PAGES        bound on each crawl                   (default 4000)
#   STRATEGIES       crawls to run and judge               (default "plan bfs")
#   TRAWL            the trawl binary                      (default target/release/trawl)
#   PYTHON312        a Python >= 3.12 for FlaskBB          (default: python3.12, or pyenv's)
#   PYTHON36         a Python 3.6 for lbforum and django-simple-forum, whose Django 1.9/1.10
#                    predate Python 3.7                     (default: python3.6, or pyenv's)
# MHonArc is Debian's `mhonarc` package (apt-get install -y mhonarc, installed here when missing
# and run as root); it builds static archives that the standard library's server serves.
# Everything it contacts is 127.0.0.1; the server stops by itself after LIFETIME seconds even if
# this script is killed, and every wait below is bounded.
set -euo pipefail

ENGINE=${1:?usage: run.sh flaskbb|machina|spirit|lbforum|simpleforum|mhonarc}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${REAL_FORUMS_DIR:-$ROOT/target/real-forums}
SEED=${SEED:-7}
SAMPLES=${SAMPLES:-}
MAX_PAGES=${MAX_PAGES:-4000}
STRATEGIES=${STRATEGIES:-plan bfs}
TRAWL=${TRAWL:-$ROOT/target/release/trawl}
LIFETIME=${LIFETIME:-1800}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

runs_python312() {
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1
}

find_python312() {
    if [ -n "${PYTHON312:-}" ]; then echo "$PYTHON312"; return; fi
    # pyenv puts shims on PATH that exist but refuse to run, so each candidate is tried.
    local pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
    for candidate in python3.14 python3.13 python3.12 "$pyenv_root"/versions/3.1[234]*/bin/python3; do
        if runs_python312 "$candidate"; then command -v "$candidate"; return; fi
    done
    echo "FlaskBB 2.2.0 needs Python >= 3.12; set PYTHON312" >&2
    exit 1
}

find_python36() {
    if [ -n "${PYTHON36:-}" ]; then echo "$PYTHON36"; return; fi
    local pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
    for candidate in python3.6 "$pyenv_root"/versions/3.6*/bin/python3; do
        if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 6))' >/dev/null 2>&1; then
            command -v "$candidate"; return
        fi
    done
    echo "lbforum 2.0.1 (Django 1.10) and django-simple-forum 0.0.7 (Django 1.9) need Python 3.6; set PYTHON36" >&2
    exit 1
}

case "$ENGINE" in
    flaskbb)
        PORT=${PORT:-8731}
        VENV=$DIR/venv-flaskbb
        BASE_PYTHON=$(find_python312)
        SITE=$HERE/flaskbb_site.py
        ENGINE_DB=$DIR/flaskbb-data/flaskbb.sqlite
        ;;
    machina)
        PORT=${PORT:-8732}
        VENV=$DIR/venv-machina
        BASE_PYTHON=python3
        SITE=$HERE/machina_site.py
        ENGINE_DB=$DIR/machina-data/machina.sqlite
        ;;
    spirit)
        PORT=${PORT:-8733}
        VENV=$DIR/venv-spirit
        BASE_PYTHON=python3
        SITE=$HERE/spirit_site.py
        ENGINE_DB=$DIR/spirit-data/spirit.sqlite
        ;;
    lbforum)
        PORT=${PORT:-8734}
        VENV=$DIR/venv-lbforum
        BASE_PYTHON=$(find_python36)
        SITE=$HERE/lbforum_site.py
        ENGINE_DB=$DIR/lbforum-data/lbforum.sqlite
        ;;
    simpleforum)
        PORT=${PORT:-8735}
        VENV=$DIR/venv-simpleforum
        BASE_PYTHON=$(find_python36)
        SITE=$HERE/simpleforum_site.py
        ENGINE_DB=$DIR/simpleforum-data/simpleforum.sqlite
        ;;
    mhonarc)
        PORT=${PORT:-8736}
        VENV=
        SITE=$HERE/mhonarc_site.py
        # The archive's "database" is its mbox files and the pages built from them.
        ENGINE_DB=$DIR/mhonarc-data
        ;;
    *) echo "unknown engine $ENGINE (flaskbb, machina, spirit, lbforum, simpleforum or mhonarc)" >&2
       exit 2 ;;
esac
if [ "$ENGINE" = mhonarc ]; then
    DATA=$ENGINE_DB
    SEEDED_MARK=$DATA/www/archives/index.html
    SITE_PYTHON=python3
else
    DATA=$(dirname "$ENGINE_DB")
    SEEDED_MARK=$ENGINE_DB
    SITE_PYTHON=$VENV/bin/python
fi
OUT=$DIR/results-$ENGINE
mkdir -p "$OUT"

# 1. Install (idempotent): a venv with the pinned versions, marked done by a stamp file that
#    names the requirements it was made from.
if [ "$ENGINE" = mhonarc ]; then
    if ! command -v mhonarc >/dev/null; then
        apt-get update -qq && apt-get install -y -qq mhonarc
    fi
    mhonarc -v | head -1
else
REQUIREMENTS=$HERE/requirements-$ENGINE.txt
STAMP=$VENV/.installed-$(sha1sum "$REQUIREMENTS" | cut -c1-12)
if [ ! -f "$STAMP" ]; then
    rm -rf "$VENV"
    "$BASE_PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --no-deps -r "$REQUIREMENTS"
    if [ "$ENGINE" = flaskbb ]; then
        SITE_PACKAGES=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        "$VENV/bin/python" "$HERE/defer_annotations.py" "$SITE_PACKAGES/flaskbb" \
            "$SITE_PACKAGES/portal" "$SITE_PACKAGES/conversations"
    fi
    touch "$STAMP"
fi
fi

# 2. Seed (idempotent per seed and per community/seeder version).
SEED_STAMP=$DATA/.seeded-$SEED-$(cat "$HERE/community.py" "$SITE" | sha1sum | cut -c1-12)
if [ ! -f "$SEED_STAMP" ] || [ ! -f "$SEEDED_MARK" ]; then
    rm -rf "$DATA"
    mkdir -p "$DATA"
    "$SITE_PYTHON" "$SITE" seed "$DATA" "$SEED"
    touch "$SEED_STAMP"
fi

# 3. Serve on loopback with a bounded lifetime, stopped when this script exits.
URL=http://127.0.0.1:$PORT/
"$SITE_PYTHON" "$SITE" serve "$DATA" "$PORT" "$LIFETIME" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
    if curl -s -o /dev/null --max-time 2 "$URL"; then break; fi
    sleep 1
done
curl -s -o /dev/null --max-time 5 "$URL" || { echo "server did not answer; see $OUT/server.log" >&2; exit 1; }
# An answer from a server left on the port by someone else would judge the wrong forum.
kill -0 "$SERVER_PID" 2>/dev/null || { echo "server exited (port $PORT taken?); see $OUT/server.log" >&2; exit 1; }

# 4. Learn once (no configuration), then crawl with each strategy, export and judge.
"$TRAWL" learn "$URL" ${SAMPLES:+--samples "$SAMPLES"} --delay-ms 0 --out "$OUT/plan.json"
"$TRAWL" plan show "$OUT/plan.json" >"$OUT/plan.txt"
for STRATEGY in $STRATEGIES; do
    DB=$OUT/crawl-$STRATEGY.db
    rm -f "$DB" "$DB-wal" "$DB-shm"
    if [ "$STRATEGY" = plan ]; then
        "$TRAWL" crawl "$URL" --db "$DB" --plan "$OUT/plan.json" --delay-ms 0 --max-pages "$MAX_PAGES"
    else
        "$TRAWL" crawl "$URL" --db "$DB" --strategy "$STRATEGY" --delay-ms 0 --max-pages "$MAX_PAGES"
    fi
    "$TRAWL" export --db "$DB" pages >"$OUT/pages-$STRATEGY.jsonl"
    "$TRAWL" export --db "$DB" threads >"$OUT/threads-$STRATEGY.jsonl"
    echo "== $ENGINE, strategy $STRATEGY"
    python3 "$HERE/judge.py" "$ENGINE" "$ENGINE_DB" "$OUT/pages-$STRATEGY.jsonl" \
        "$OUT/threads-$STRATEGY.jsonl" --json "$OUT/judge-$STRATEGY.json" | tee "$OUT/judge-$STRATEGY.txt"
done
