# Sourced by ./run-tests: make sure a headless Chromium and its driver are there for the web page's browser
# tests (Debian's chromium and chromium-driver packages), installing them where we may (as root with apt-get).
# Without them the browser tests are skipped, and pytest's summary says why.
if ! { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing chromium and chromium-driver for the browser tests (first run only) ..." >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; } \
            || echo "Could not install chromium; the browser tests will be skipped." >&2
    fi
fi
