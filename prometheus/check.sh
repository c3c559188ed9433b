#!/usr/bin/env bash
# Checks the Prometheus config, the alert rules and the alert unit tests with promtool.
# --syntax-only: the scrape credentials file exists only inside the running Prometheus container.
set -euo pipefail
cd "$(dirname "$0")"
promtool check config --syntax-only prometheus.yml
promtool check rules alerts.yml
promtool test rules alerts.test.yml
