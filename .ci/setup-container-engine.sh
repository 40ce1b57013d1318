#!/usr/bin/env bash
# Provides a local container engine for verification and candidate containers: installs Debian's docker.io, starts dockerd by hand
# (no systemd; host networking untouched) and makes the standard Debian base image without any registry.
# Idempotent: every step checks first and says whether it acted. Run as root. See docs in
# packages/openeval/src/judge/verification/README.md.
#
#   OPENEVAL_ENGINE_ROOT   state folder (default /var/lib/openeval-engine): data root, pid file, log
#   OPENEVAL_BASE_IMAGE    base image name the Dockerfile starts FROM (default debian:bookworm-slim)
#   DOCKER_HOST            unix socket to serve (default unix:///var/run/docker.sock)
set -euo pipefail

ROOT="${OPENEVAL_ENGINE_ROOT:-/var/lib/openeval-engine}"
BASE_IMAGE="${OPENEVAL_BASE_IMAGE:-debian:bookworm-slim}"
HOST="${DOCKER_HOST:-unix:///var/run/docker.sock}"
SOCKET="${HOST#unix://}"
# A CLI of another version may shadow Debian's in PATH (seen: /usr/local/bin/docker 28.x); use the packaged one.
DOCKER=/usr/bin/docker

say() { printf '[setup-container-engine] %s\n' "$*"; }
elapsed() { echo "$(( $(date +%s%N) / 1000000 - $1 ))ms"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

if [[ "$HOST" != unix://* ]]; then
  say "DOCKER_HOST=$HOST is not a local unix socket; this script only sets up a local engine. Nothing done."
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  say "must run as root (it installs packages and starts dockerd)"; exit 1
fi

# 1. Packages --------------------------------------------------------------------------------------------------
start=$(now_ms)
missing=()
for package in docker.io debootstrap; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if (( ${#missing[@]} > 0 )); then
  say "installing ${missing[*]} with apt-get"
  apt-get update -qq
  # Recommends (apparmor, needrestart, cgroupfs-mount…) are not needed for a hand-started daemon.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  say "installed ${missing[*]} in $(elapsed "$start")"
else
  say "docker.io and debootstrap already installed ($($DOCKER --version))"
fi

# 2. dockerd -----------------------------------------------------------------------------------------------------
ping_engine() { curl -sf --max-time 2 --unix-socket "$SOCKET" http://localhost/_ping >/dev/null 2>&1; }
# A live process, not a zombie left by a killed daemon whose parent has not reaped it.
alive() { [[ -r "/proc/$1/stat" ]] && [[ "$(awk '{ print $3 }' "/proc/$1/stat")" != Z ]]; }
start=$(now_ms)
if ping_engine; then
  say "an engine already answers on $SOCKET; not starting another"
else
  mkdir -p "$ROOT/docker" "$(dirname "$SOCKET")"
  if [[ -f "$ROOT/dockerd.pid" ]] && alive "$(cat "$ROOT/dockerd.pid")"; then
    say "dockerd $(cat "$ROOT/dockerd.pid") is running but not answering yet; waiting for it"
  else
    rm -f "$ROOT/dockerd.pid"
    # No bridge, no iptables rules, no ip_forward: the host's networking stays as it was. Containers get only `lo`
    # (and run with NetworkMode none anyway); image builds use the host network (networkmode=host).
    setsid nohup dockerd --host "$HOST" --data-root "$ROOT/docker" \
      --pidfile "$ROOT/dockerd.pid" --iptables=false --ip-forward=false --bridge=none \
      >>"$ROOT/dockerd.log" 2>&1 </dev/null &
    say "started dockerd (log: $ROOT/dockerd.log, data root: $ROOT/docker)"
  fi
  for _ in $(seq 1 150); do ping_engine && break; sleep 0.2; done
  if ! ping_engine; then
    say "dockerd did not answer on $SOCKET within 30 s; last log lines:"; tail -n 20 "$ROOT/dockerd.log" >&2; exit 1
  fi
  say "engine answers on $SOCKET after $(elapsed "$start")"
fi

# 3. Base image --------------------------------------------------------------------------------------------------
# The product never downloads a base image itself; it builds FROM "$BASE_IMAGE". Where a registry is reachable one
# may `docker pull` it; here (no registry) it is made from the Debian mirror apt already uses.
start=$(now_ms)
if DOCKER_HOST="$HOST" $DOCKER image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  say "base image $BASE_IMAGE present ($(DOCKER_HOST="$HOST" $DOCKER image inspect -f '{{.Id}}' "$BASE_IMAGE"))"
else
  sources=/etc/apt/sources.list.d/debian.sources
  mirror=$(awk '/^URIs:/ { print $2; exit }' "$sources" 2>/dev/null || true)
  [[ -n "$mirror" ]] || mirror=$(awk '/^deb / { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
  if [[ -z "$mirror" ]]; then say "cannot find the Debian mirror in $sources or /etc/apt/sources.list"; exit 1; fi
  # The state folder exists only if this script started the engine; an engine that already answered skipped that.
  mkdir -p "$ROOT"
  rootfs=$(mktemp -d "$ROOT/rootfs.XXXXXX")
  trap 'rm -rf "$rootfs"' EXIT
  say "building $BASE_IMAGE with debootstrap (minbase, bookworm) from the host's Debian mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$ROOT/debootstrap.log" 2>&1 \
    || { say "debootstrap failed; see $ROOT/debootstrap.log"; tail -n 20 "$ROOT/debootstrap.log" >&2; exit 1; }
  # The image's apt uses the same sources as the host (including security updates).
  rm -f "$rootfs/etc/apt/sources.list"
  if [[ -f "$sources" ]]; then cp "$sources" "$rootfs/etc/apt/sources.list.d/debian.sources"; else cp /etc/apt/sources.list "$rootfs/etc/apt/sources.list"; fi
  # Mirror snapshots carry expired Valid-Until dates; like the host, do not reject them. Keep images small.
  printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'Acquire::Check-Date "false";' \
    'APT::Install-Recommends "false";' 'APT::Install-Suggests "false";' >"$rootfs/etc/apt/apt.conf.d/99openeval"
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d" && chmod +x "$rootfs/usr/sbin/policy-rc.d"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/*
  tar --numeric-owner -C "$rootfs" -c . | DOCKER_HOST="$HOST" $DOCKER import \
    --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' \
    --message "openeval: debootstrap minbase bookworm (no registry)" - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"; trap - EXIT
  say "imported $BASE_IMAGE ($(DOCKER_HOST="$HOST" $DOCKER image inspect -f '{{.Id}}' "$BASE_IMAGE")) in $(elapsed "$start")"
fi

say "ready: DOCKER_HOST=$HOST; build the verification and candidate images with: npx openeval image"
