#!/bin/sh
# predict()'s matching of answers, in the stock lua5.4 (tools/setup installs it).
command -v lua5.4 >/dev/null || { echo "FAIL: lua5.4 is not installed (tools/setup)"; exit 1; }
exec lua5.4 tests/lessons/predict_match_test.lua lessons/lib/predict.lua
