#!/usr/bin/env bash
echo "coverage reports are not available offline (remote_coverage_tools is a local shim)" >&2
exit 1
