# Sourced by ./run-bot and ./run-tests: make sure .venv exists and holds the
# engine library and the bot with its test extras (both editable), installing
# only when one of their pyproject.toml files changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

find_python() {
    for py in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [ -n "$py" ] || continue
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$py"; return 0
        fi
    done
    echo "Python 3.11 or newer is needed (set PYTHON=/path/to/python)." >&2
    return 1
}

if [ ! -x "$venv/bin/python" ]; then
    py="$(find_python)"
    echo "Creating a virtual environment in .venv with $py ..." >&2
    "$py" -m venv "$venv"
fi
stamp="$venv/.installed"
want="$(cat "$root/pyproject.toml" "$root/packages/draughts-engine/pyproject.toml" | cksum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "Installing dependencies into .venv (first run only) ..." >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet -e "$root/packages/draughts-engine" -e "$root[test]" >&2
    echo "$want" > "$stamp"
fi
PY="$venv/bin/python"
cd "$root"
