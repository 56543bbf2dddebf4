#!/usr/bin/env bash
# Remake the README's report images with kansa's own commands:
#   docs/riichi_outcomes.png  from `kansa stats`
#   docs/report.png           a screenshot of `kansa report` in headless Chromium
# Needs the corpus (../shared/corpus, or $KANSA_CORPUS), chromium and, for the
# Japanese player names, a CJK font (Debian: fonts-noto-cjk).
# Usage: docs/make-images.sh   (runs .venv/bin/kansa; set KANSA to run another command,
#        e.g. KANSA="python -m kansa")
set -euo pipefail
cd "$(dirname "$0")/.."
KANSA=${KANSA:-.venv/bin/kansa}
CORPUS=${KANSA_CORPUS:-../shared/corpus}/tenhou_xml
mkdir -p out
$KANSA stats "$CORPUS" --out out/stats
cp out/stats/riichi_outcomes.png docs/riichi_outcomes.png
$KANSA report "$CORPUS" -o out/report.html --title "kansa report: Tenhou corpus"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size=1280,1700 \
    --screenshot=docs/report.png "file://$PWD/out/report.html" 2>/dev/null
echo "wrote docs/riichi_outcomes.png and docs/report.png"
