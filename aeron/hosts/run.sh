#!/usr/bin/env bash
# wiremsg on Aeron between hosts: network namespaces on this machine (root needed).
#
# Three hosts, wm-a (10.77.0.1), wm-b (.2) and wm-c (.3), each a network namespace
# with a veth into a bridge that lives in a fourth namespace (the switch): no traffic
# leaves the namespaces this script creates. Every process starts its own embedded
# media driver with its own Aeron directory (under a scratch TMPDIR). The publisher
# (`aeron_hosts publish`) runs on wm-a; the subscribers (`aeron_hosts subscribe`) on
# wm-b and wm-c regenerate the session from its seed and check every message, byte
# for byte, and their books against the publisher's check; a lost, duplicated,
# reordered or misread message fails the run, naming it.
#
# Runs, each a few seconds:
#   unicast (MDC, control-mode=dynamic, fc=min with a group of 2) at 0, 1 and 5 %
#   random loss on the receiving side (the receiving drivers' `loss` interceptor);
#   multicast on the bridge at 0 and 5 % loss;
#   late joiner and restart at 1 % loss: a subscriber on wm-b from the start, a
#   late joiner on wm-b served from a snapshot, and one on wm-c killed mid-run and
#   restarted from a snapshot, recording the stream; `wiremsg cat` then prints the
#   recording without the Rust types;
#   versions at 1 % loss: a version 2 publisher, a version 1 subscriber on wm-b and a
#   version 2 one on wm-c, which records (printed by `wiremsg cat` too).
#
# Usage: aeron/hosts/run.sh [--release] [--count N] [--rate R] [--only NAME]
# Prints a Markdown table of the figures; exits non-zero if any check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

PROFILE=debug
COUNT=100000
RATE=50000
ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --release) PROFILE=release ;;
        --count) COUNT="$2"; shift ;;
        --rate) RATE="$2"; shift ;;
        --only) ONLY="$2"; shift ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: needs root (network namespaces)" >&2
    exit 2
fi

export CMAKE="${CMAKE:-$(bash .ci/setup-aeron)}"
PROFILE_FLAG=()
[ "$PROFILE" = release ] && PROFILE_FLAG=(--release)
cargo build --locked "${PROFILE_FLAG[@]}" -p wiremsg-aeron --bin aeron_hosts >&2
cargo build --locked "${PROFILE_FLAG[@]}" -p wiremsg-cli --bin wiremsg >&2
BIN="$PWD/target/$PROFILE/aeron_hosts"
WIREMSG="$PWD/target/$PROFILE/wiremsg"
LIBDIR="$(dirname "$(find "target/$PROFILE/build" -path '*rusteron-media-driver-*/out/build/lib/libaeron_driver.so' | head -n1)")"
[ -n "$LIBDIR" ] && [ -d "$LIBDIR" ] || { echo "run.sh: Aeron's libraries not found" >&2; exit 1; }
LIBDIR="$PWD/$LIBDIR"

# Names unique to this run, so that runs side by side do not meet.
TAG="wm$$"
NS_SW="$TAG-sw"
HOSTS=(a b c)
declare -A ADDR=([a]=10.77.0.1 [b]=10.77.0.2 [c]=10.77.0.3)
WORK="$(mktemp -d /tmp/wiremsg-hosts.XXXXXX)"
PIDS=()

cleanup() {
    local rc=$?
    # Each background pid is a `timeout` (see `on`): its child, then it.
    for pid in "${PIDS[@]}"; do
        pkill -KILL -P "$pid" 2>/dev/null || true
        kill -9 "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    for h in "${HOSTS[@]}"; do ip netns del "$TAG-$h" 2>/dev/null || true; done
    ip netns del "$NS_SW" 2>/dev/null || true
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$NS_SW"
ip -n "$NS_SW" link set lo up
ip -n "$NS_SW" link add br0 type bridge
ip -n "$NS_SW" link set br0 type bridge mcast_snooping 0
ip -n "$NS_SW" link set br0 up
for h in "${HOSTS[@]}"; do
    ns="$TAG-$h"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip link add "v$TAG$h" type veth peer name "s$TAG$h"
    ip link set "v$TAG$h" netns "$ns"
    ip link set "s$TAG$h" netns "$NS_SW"
    ip -n "$ns" link set "v$TAG$h" name eth0
    ip -n "$ns" addr add "${ADDR[$h]}/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$NS_SW" link set "s$TAG$h" master br0
    ip -n "$NS_SW" link set "s$TAG$h" up
done

# on HOST LOSS ARGS...: runs aeron_hosts on HOST, its driver losing LOSS of the
# data frames it receives (0: none), bounded in time.
# Called in the background (`on ... &`): it execs, so `$!` is the `timeout` whose
# only child is aeron_hosts.
on() {
    local host="$1" loss="$2"
    shift 2
    local env=(LD_LIBRARY_PATH="$LIBDIR" TMPDIR="$WORK")
    if [ "$loss" != 0 ]; then
        env+=(AERON_UDP_CHANNEL_INCOMING_INTERCEPTORS=loss
            "AERON_UDP_CHANNEL_TRANSPORT_BINDINGS_LOSS_ARGS=rate=$loss|seed=$((RANDOM + 1))|recv-msg-mask=0x2")
    fi
    exec ip netns exec "$TAG-$host" env "${env[@]}" timeout 120 "$BIN" "$@"
}

field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"; }
fail() { echo "run.sh: FAILED: $*" >&2; exit 1; }

SESSION=(--count "$COUNT" --symbols 300 --seed 11 --timeout-secs 30)
TERM4=term-length=4194304
CONTROL="${ADDR[a]}:40400"
SNAP_CONTROL="${ADDR[a]}:40410"
ROWS=()

# row RUN LOSS NAME RESULT PUB_RESULT: one line of the table.
row() {
    local run="$1" loss="$2" name="$3" r="$4" p="$5"
    local good span rate
    good="$(field "$r" good)"
    span="$(field "$r" span_ns)"
    rate=$((good * 1000000000 / (span > 0 ? span : 1)))
    ROWS+=("| $run | $loss | $name | $good | $rate | $(us "$(field "$r" p50)") | $(us "$(field "$r" p99)") | $(us "$(field "$r" p999)") | $(field "$r" lost) | $(field "$r" duplicates) | $(field "$r" naks_sent) | $(field "$p" retransmits_sent) |")
}
us() { awk -v ns="$1" 'BEGIN { if (ns >= 1000000) printf "%.1f ms", ns / 1e6; else printf "%.0f µs", ns / 1e3 }'; }

# check_full NAME RESULT PUB_RESULT: a subscriber from the start saw every message.
check_full() {
    local good
    good="$(field "$2" good)"
    [ "$good" = "$COUNT" ] || fail "$1 checked $good messages of $COUNT"
    [ "$(field "$2" books_equal)" = 1 ] || fail "$1: books differ"
    [ "$(field "$3" digest)" != "" ] || fail "no publisher result"
}

# fan_out RUN LOSS PUB_CHANNEL SUB_CHANNEL_B SUB_CHANNEL_C
fan_out() {
    local run="$1" loss="$2" pub="$3" sub_b="$4" sub_c="$5"
    [ -z "$ONLY" ] || [ "$ONLY" = "$run" ] || return 0
    echo "== $run, loss $loss" >&2
    on b "$loss" subscribe --name "$run-b" --channel "$sub_b" "${SESSION[@]}" >"$WORK/b.out" &
    local pid_b=$!
    PIDS+=("$pid_b")
    on c "$loss" subscribe --name "$run-c" --channel "$sub_c" "${SESSION[@]}" >"$WORK/c.out" &
    local pid_c=$!
    PIDS+=("$pid_c")
    (on a 0 publish --channel "$pub" --rate "$RATE" --linger-secs 2 "${SESSION[@]}") >"$WORK/a.out" ||
        fail "$run: the publisher failed"
    wait "$pid_b" || fail "$run: subscriber on wm-b failed (see above)"
    wait "$pid_c" || fail "$run: subscriber on wm-c failed (see above)"
    local p rb rc
    p="$(grep '^RESULT' "$WORK/a.out")"
    rb="$(grep '^RESULT' "$WORK/b.out")"
    rc="$(grep '^RESULT' "$WORK/c.out")"
    check_full "$run-b" "$rb" "$p"
    check_full "$run-c" "$rc" "$p"
    if [ "$loss" != 0 ]; then
        # Loss was injected, and Aeron repaired it.
        [ "$(field "$p" retransmits_sent)" -gt 0 ] || fail "$run: no retransmits at $loss loss"
        [ $(($(field "$rb" naks_sent) + $(field "$rc" naks_sent))) -gt 0 ] || fail "$run: no NAKs"
    fi
    row "$run" "$loss" "wm-b" "$rb" "$p"
    row "$run" "$loss" "wm-c" "$rc" "$p"
}

for loss in 0 0.01 0.05; do
    fan_out unicast "$loss" \
        "aeron:udp?control=$CONTROL|control-mode=dynamic|fc=min,g:/2|$TERM4" \
        "aeron:udp?endpoint=${ADDR[b]}:40401|control=$CONTROL" \
        "aeron:udp?endpoint=${ADDR[c]}:40401|control=$CONTROL"
done

MCAST=239.255.77.1:40456
for loss in 0 0.05; do
    fan_out multicast "$loss" \
        "aeron:udp?endpoint=$MCAST|interface=${ADDR[a]}|fc=min,g:/2|$TERM4" \
        "aeron:udp?endpoint=$MCAST|interface=${ADDR[b]}" \
        "aeron:udp?endpoint=$MCAST|interface=${ADDR[c]}"
done

# check_cat FILE FIRST LAST: `wiremsg cat` prints the recording without the Rust
# types: its schema frame, the messages FIRST..LAST in order, then the check.
check_cat() {
    local file="$1" first="$2" last="$3"
    "$WIREMSG" cat "$file" >"$WORK/cat.out" 2>"$WORK/cat.err" ||
        fail "wiremsg cat failed on the recording: $(cut -c1-200 "$WORK/cat.err")"
    tr -d , <"$WORK/cat.err" | grep -q "wiremsg: $((last - first + 3)) frames (1 schema) .* 0 bad" ||
        fail "wiremsg cat: $(cut -c1-200 "$WORK/cat.err")"
    awk -v first="$first" -v last="$last" '
        / t[1-6] v[12] / { if (!match($0, /sequence: [0-9]+/)) exit 1
            n = substr($0, RSTART + 10, RLENGTH - 10) + 0
            if (n != first + seen) { print "sequence " n " where " first + seen " was expected"; exit 1 }
            seen++ }
        / t101 v1 BookCheck / { check = 1 }
        END { if (seen != last - first + 1 || !check) { print seen " messages, check " check; exit 1 } }
    ' "$WORK/cat.out" || fail "wiremsg cat: the recording's messages are not $first..$last and the check"
    echo "wiremsg cat on wm-c's recording: $(cat "$WORK/cat.err")" >&2
    grep -m1 ' t2 v' "$WORK/cat.out" | cut -c1-200 >&2
}

# Late joiner and restart: 1 % loss at every subscriber.
if [ -z "$ONLY" ] || [ "$ONLY" = late ]; then
    run=late loss=0.01
    echo "== $run, loss $loss" >&2
    LATE_COUNT=$((COUNT * 2))
    LSESSION=(--count "$LATE_COUNT" --symbols 300 --seed 12 --timeout-secs 30)
    sub() { echo "aeron:udp?endpoint=${ADDR[$1]}:$2|control=$CONTROL"; }
    snap() { echo "aeron:udp?endpoint=${ADDR[$1]}:$2|control=$SNAP_CONTROL"; }
    on b "$loss" subscribe --name full-b --channel "$(sub b 40401)" "${LSESSION[@]}" >"$WORK/b.out" &
    pid_b=$!
    PIDS+=("$pid_b")
    on c "$loss" subscribe --name killed-c --channel "$(sub c 40401)" "${LSESSION[@]}" \
        >"$WORK/c0.out" 2>"$WORK/c0.err" &
    pid_c0=$!
    PIDS+=("$pid_c0")
    on a 0 publish --channel "aeron:udp?control=$CONTROL|control-mode=dynamic|fc=min,g:/2,t:1s|$TERM4" \
        --snapshot-channel "aeron:udp?control=$SNAP_CONTROL|control-mode=dynamic|term-length=16777216" \
        --rate "$RATE" --snapshot-ms 200 --linger-secs 2 "${LSESSION[@]}" >"$WORK/a.out" &
    pid_a=$!
    PIDS+=("$pid_a")
    seconds="$(awk -v n="$LATE_COUNT" -v r="$RATE" 'BEGIN { print n / r }')"
    # A late joiner on wm-b a quarter of the way in; wm-c killed at a third and
    # restarted from a snapshot half a second later, recording.
    sleep "$(awk -v s="$seconds" 'BEGIN { print s / 4 }')"
    on b "$loss" subscribe --name late-b --channel "$(sub b 40402)" --snapshot-channel "$(snap b 40412)" \
        "${LSESSION[@]}" >"$WORK/late.out" &
    pid_late=$!
    PIDS+=("$pid_late")
    sleep "$(awk -v s="$seconds" 'BEGIN { print s / 12 }')"
    # SIGKILL to the subscriber process itself (the child of that `timeout`): its
    # embedded driver dies with it, as a crashed host's would.
    pkill -KILL -P "$pid_c0" || fail "wm-c's subscriber ended before it was killed"
    wait "$pid_c0" 2>/dev/null || true
    sleep 0.5
    on c "$loss" subscribe --name restarted-c --channel "$(sub c 40401)" --snapshot-channel "$(snap c 40411)" \
        --record "$WORK/c.frames" "${LSESSION[@]}" >"$WORK/c.out" &
    pid_c=$!
    PIDS+=("$pid_c")
    wait "$pid_a" || fail "late: the publisher failed"
    wait "$pid_b" || fail "late: the subscriber on wm-b failed"
    wait "$pid_late" || fail "late: the late joiner on wm-b failed"
    wait "$pid_c" || fail "late: the restarted subscriber on wm-c failed"
    p="$(grep '^RESULT' "$WORK/a.out")"
    rb="$(grep '^RESULT' "$WORK/b.out")"
    rl="$(grep '^RESULT' "$WORK/late.out")"
    rc="$(grep '^RESULT' "$WORK/c.out")"
    COUNT_SAVED=$COUNT
    COUNT=$LATE_COUNT
    check_full full-b "$rb" "$p"
    COUNT=$COUNT_SAVED
    for name in late-b restarted-c; do
        r="$rl"
        [ "$name" = restarted-c ] && r="$rc"
        s="$(field "$r" snapshot_sequence)"
        good="$(field "$r" good)"
        [ "$s" -gt 0 ] || fail "$name did not start from a snapshot"
        # From the snapshot's sequence number on: every message, no gap, no duplicate.
        [ "$good" = $((LATE_COUNT - s)) ] || fail "$name checked $good messages after snapshot $s of $LATE_COUNT"
        [ "$(field "$r" books_equal)" = 1 ] || fail "$name: books differ"
        echo "$name: snapshot after message $s, then $good messages checked ($(field "$r" covered) live messages it covered)" >&2
    done
    [ "$(field "$p" snapshots)" -gt 0 ] || fail "no snapshot was published"
    echo "snapshots: $(field "$p" snapshots), the last $(field "$p" snapshot_bytes) bytes ($(field "$p" resting_orders) orders resting at the end)" >&2
    row late "$loss" "wm-b, from the start" "$rb" "$p"
    row late "$loss" "wm-b, late joiner" "$rl" "$p"
    row late "$loss" "wm-c, restarted" "$rc" "$p"

    # The recording on wm-c, printed without the Rust types.
    check_cat "$WORK/c.frames" $(($(field "$rc" snapshot_sequence) + 1)) "$LATE_COUNT"
fi

# Versions across hosts: a version 2 publisher (the add-order message with `firm`
# appended) on wm-a, a subscriber built with version 1 on wm-b and one with version
# 2 on wm-c, which records; 1 % loss.
if [ -z "$ONLY" ] || [ "$ONLY" = versions ]; then
    run=versions loss=0.01
    echo "== $run, loss $loss" >&2
    VSESSION=(--count "$COUNT" --symbols 300 --seed 13 --timeout-secs 30 --feed-version 2)
    on b "$loss" subscribe --name v1-reader-b --reader-version 1 \
        --channel "aeron:udp?endpoint=${ADDR[b]}:40401|control=$CONTROL" "${VSESSION[@]}" >"$WORK/b.out" &
    pid_b=$!
    PIDS+=("$pid_b")
    on c "$loss" subscribe --name v2-reader-c --reader-version 2 --record "$WORK/v.frames" \
        --channel "aeron:udp?endpoint=${ADDR[c]}:40401|control=$CONTROL" "${VSESSION[@]}" >"$WORK/c.out" &
    pid_c=$!
    PIDS+=("$pid_c")
    (on a 0 publish --channel "aeron:udp?control=$CONTROL|control-mode=dynamic|fc=min,g:/2|$TERM4" \
        --rate "$RATE" --linger-secs 2 "${VSESSION[@]}") >"$WORK/a.out" || fail "versions: the publisher failed"
    wait "$pid_b" || fail "versions: the version 1 subscriber on wm-b failed"
    wait "$pid_c" || fail "versions: the version 2 subscriber on wm-c failed"
    p="$(grep '^RESULT' "$WORK/a.out")"
    rb="$(grep '^RESULT' "$WORK/b.out")"
    rc="$(grep '^RESULT' "$WORK/c.out")"
    check_full v1-reader-b "$rb" "$p"
    check_full v2-reader-c "$rc" "$p"
    row versions "$loss" "wm-b, reads with v1" "$rb" "$p"
    row versions "$loss" "wm-c, reads with v2" "$rc" "$p"
    check_cat "$WORK/v.frames" 1 "$COUNT"
    grep -q ' t2 v2 AddOrder {.* firm: [0-9]' "$WORK/cat.out" || fail "wiremsg cat: no version 2 add with its firm"
fi

echo
echo "| run | loss | subscriber | messages checked | msg/s | p50 | p99 | p99.9 | lost | duplicated | NAKs sent | retransmits (publisher) |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
echo "run.sh: every message checked on every host, books equal" >&2
