#!/bin/sh
# The official redis image is built with protected mode off (its network is the containers');
# Debian's redis-server has it on: turned off here the same way for redis-server, whatever else the
# command says.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
