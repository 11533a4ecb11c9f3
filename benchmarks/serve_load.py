"""Load test of ``lingualite serve``: N concurrent clients send ``POST /encode`` (or OpenAI's
``POST /v1/embeddings``, ``--route v1``) for T seconds.

Starts the server (``python -m lingualite serve``, a separate process) once per ``--max-batch`` value, so
micro-batching on (64) and off (1) are measured in ONE run on the same sentences; or targets a running
server with ``--url``. Each client, a coroutine with its own ``httpx.AsyncClient`` (one pool shared by 200
clients costs O(clients^2) per request in httpcore 1.0's pool bookkeeping, which would measure the load
generator instead of the server), sends one request at a time,
``--texts`` short real sentences per request (from ``DATA_DIR/prepared/*/test.tsv``, both columns, or
``--input``), for a warm-up and then ``--seconds`` measured seconds. Reports requests/s, sentences/s, latency
p50/p95/p99 (ms), errors, mean texts per encoder call (from ``/health``) and the server's peak RSS
(``VmHWM``, read with psutil's process handle; sampled RSS where /proc is missing), and the CPU used by the
server, by the clients and by every other process in the window (psutil): on a shared machine a run where
others took CPU is visible as such.

    python benchmarks/serve_load.py --model onnx-int8:/work/models/distill-usem-onnx --max-batch 64,1

writes ``benchmarks/results/serve_load.json`` and ``.md``. The clients run on the same machine as the server
and take part of its CPU: the numbers are a floor for what a separate client machine would see.

**Poisoned requests** (``--poison 0.05``): every 20th request of each client (offset per client, so poisoned
and good requests are in flight together and share micro-batches) carries a text that breaks lingualite's
text rule (``--poison-kind surrogate``: ``"\\ud800"``, the JSON escape of a lone surrogate, as in issue #33;
``nul``: ``"\\u0000"``). Reported: the success rate of the GOOD requests (the promise: 100%), and the status
codes the poisoned ones got (the promise: all 422)::

    python benchmarks/serve_load.py --model use-m --max-batch 64 --clients 20 --seconds 5 --poison 0.05 \\
        --out benchmarks/results/serve_poison

**Routes** (``--route encode,v1``): the same load on ``/encode`` (``{"texts": [...]}``) and on OpenAI's
``/v1/embeddings`` (``{"input": [...]}``, float vectors, the usage counted by the model's tokenizer), against
the same server, one after the other, ``--rounds`` times in turn (encode, v1, encode, v1, ...), so that a
change in what else the machine runs falls on both routes. The table gives one row per round and route, and
the mean requests/s of each route with the ratio v1 / encode::

    python benchmarks/serve_load.py --model use-m --max-batch 64 --route encode,v1 --rounds 2 \\
        --clients 40 --seconds 5 --warmup 1 --out benchmarks/results/serve_v1
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np
import psutil

from lingualite.config.parsing import default_data_dir


def _sentences(path: Path | None, prepared: Path, n: int = 5000) -> list[str]:
    if path is not None:
        pool = [line.strip() for line in path.open(encoding="utf-8") if line.strip()]
    else:
        pool = sorted(
            {
                col.strip()
                for f in sorted(prepared.glob("*/test.tsv"))
                for line in f.open(encoding="utf-8")
                for col in line.split("\t")[:2]
                if 20 <= len(col.strip()) <= 160
            }
        )
    if not pool:
        raise SystemExit(f"no sentences found in {path or prepared}")
    random.Random(0).shuffle(pool)
    return pool[:n]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(args: argparse.Namespace, max_batch: int) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "lingualite", "serve", "--model", args.model, "--port", str(port)]
    cmd += ["--max-batch", str(max_batch), "--max-wait-ms", str(args.max_wait_ms)]
    cmd += ["--threads", str(args.threads)] if args.threads else []
    env = {k: v for k, v in os.environ.items() if k != "LINGUALITE_API_KEY"} | {"HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(cmd, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with code {proc.returncode}: {' '.join(cmd)}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    proc.terminate()
    raise SystemExit("the server did not answer /health within 300 s")


def _peak_rss_mb(proc: psutil.Process, sampled: float) -> float:
    try:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return sampled / 2**20


def _cpu_seconds(proc: psutil.Process | None) -> float:
    if proc is None:
        return float("nan")
    times = proc.cpu_times()
    return times.user + times.system


async def _watch(pid: int | None, measure_from: float, stop_at: float, out: dict[str, float]) -> None:
    """Sampled peak RSS of the server, and CPU seconds of the server and of this process in the window."""
    server, me = (psutil.Process(pid) if pid is not None else None), psutil.Process()
    await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
    server0, me0, all0 = _cpu_seconds(server), _cpu_seconds(me), _busy_seconds()
    while time.monotonic() < stop_at:
        if server is not None:
            out["rss"] = max(out.get("rss", 0.0), server.memory_info().rss)
        await asyncio.sleep(0.25)
    out["server"], out["client"] = _cpu_seconds(server) - server0, _cpu_seconds(me) - me0
    out["other"] = _busy_seconds() - all0 - out["client"] - (0.0 if server is None else out["server"])


def _busy_seconds() -> float:
    """CPU seconds all processes of the machine spent busy (to see whether anything else took CPU)."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


POISON = {"surrogate": "\ud800", "nul": "\x00"}
ROUTES = {"encode": ("/encode", "texts", "vectors"), "v1": ("/v1/embeddings", "input", "data")}


async def _load(url: str, texts: list[str], args: argparse.Namespace, pid: int | None, route: str) -> dict:
    path, field, answer = ROUTES[route]
    latencies: list[float] = []
    errors: list[str] = []
    poisoned: collections.Counter[str] = collections.Counter()
    watched: dict[str, float] = {}
    every = round(1 / args.poison) if args.poison > 0 else 0

    async def send_loop(i: int, http: httpx.AsyncClient) -> None:
        j, n = i * 7919, i
        while (t0 := time.monotonic()) < stop_at:  # requests that END in the window count
            batch = [texts[(j + m) % len(texts)] for m in range(args.texts)]
            j, n = j + args.texts, n + 1
            poison = every > 0 and n % every == 0
            if poison:
                batch[0] = f"{batch[0]} {POISON[args.poison_kind]}"
            # json.dumps with ensure_ascii: a lone surrogate travels as its JSON escape (httpx's json= cannot)
            body = json.dumps({field: batch}).encode()
            try:
                res = await http.post(path, content=body, headers={"content-type": "application/json"})
                ok = res.status_code == 200 and len(res.json()[answer]) == len(batch)
                failure = None if ok else f"HTTP {res.status_code}: {res.text[:200]}"
                status = str(res.status_code)
            except httpx.HTTPError as exc:
                failure = status = f"{type(exc).__name__}: {exc}"
            t1 = time.monotonic()
            if not measure_from <= t1 <= stop_at:
                continue  # finished during the warm-up or after the measured window
            if poison:
                poisoned[status] += 1
            elif failure:
                errors.append(failure)
            else:
                latencies.append(t1 - t0)

    tls = ssl.create_default_context()  # one for all clients: each client would load the CA file again
    async with contextlib.AsyncExitStack() as stack:
        http = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=120, verify=tls))
            for _ in range(args.clients)
        ]
        before = (await http[0].get("/health")).json()["batching"]
        start = time.monotonic()
        measure_from, stop_at = start + args.warmup, start + args.warmup + args.seconds
        await asyncio.gather(
            _watch(pid, measure_from, stop_at, watched), *(send_loop(i, c) for i, c in enumerate(http))
        )
        after = (await http[0].get("/health")).json()
    calls = after["batching"]["encoder_calls"] - before["encoder_calls"]
    lat = np.asarray(latencies) * 1000 if latencies else np.zeros(1)
    return {
        "model": after["model"],
        "route": path,
        "requests_per_second": len(latencies) / args.seconds,
        "sentences_per_second": len(latencies) * args.texts / args.seconds,
        "latency_ms_p50": float(np.percentile(lat, 50)),
        "latency_ms_p95": float(np.percentile(lat, 95)),
        "latency_ms_p99": float(np.percentile(lat, 99)),
        "requests": len(latencies),
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "good_success_rate": len(latencies) / max(len(latencies) + len(errors), 1),
        "poisoned_requests": dict(poisoned),
        "isolated_failures": after["batching"].get("failed_requests", 0) - before.get("failed_requests", 0),
        "mean_texts_per_encoder_call": (after["batching"]["texts"] - before["texts"]) / max(calls, 1),
        "server_cpu_percent": 100 * watched["server"] / args.seconds if pid is not None else None,
        "client_cpu_percent": 100 * watched["client"] / args.seconds,
        "other_processes_cpu_percent": 100 * watched["other"] / args.seconds,
        "peak_rss_mb": None if pid is None else _peak_rss_mb(psutil.Process(pid), watched.get("rss", 0.0)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", help="Model spec to serve (a folder, onnx-int8:FOLDER, ...).")
    parser.add_argument("--url", help="Target a running server instead of starting one.")
    parser.add_argument("--max-batch", default="64,1", help="Comma-separated values: one server run each.")
    parser.add_argument("--max-wait-ms", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="Measured seconds per run.")
    parser.add_argument("--warmup", type=float, default=3.0, help="Seconds of load before measuring.")
    parser.add_argument("--texts", type=int, default=1, help="Sentences per request.")
    parser.add_argument("--input", type=Path, default=None, help="Text file, one sentence per line.")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--threads", type=int, default=None, help="Server encoder threads.")
    parser.add_argument("--poison", type=float, default=0.0, help="Share of poisoned requests (0.05: 5%%).")
    parser.add_argument("--poison-kind", choices=sorted(POISON), default="surrogate")
    parser.add_argument("--route", default="encode", help="Comma-separated: encode, v1 (/v1/embeddings).")
    parser.add_argument("--rounds", type=int, default=1, help="Times each route is measured, in turn.")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/serve_load"))
    args = parser.parse_args()
    if not args.model and not args.url:
        parser.error("give --model (start a server) or --url (a running one)")
    texts = _sentences(args.input, (args.data_dir or default_data_dir()) / "prepared")
    routes = args.route.split(",")
    if not set(routes) <= set(ROUTES):
        parser.error(f"--route: choose from {', '.join(ROUTES)}")
    rows = []
    for max_batch in [None] if args.url else [int(v) for v in args.max_batch.split(",")]:
        proc, url = (None, args.url) if args.url else _start_server(args, max_batch)
        try:
            for round_ in range(1, args.rounds + 1):
                for route in routes:
                    row = asyncio.run(_load(url, texts, args, None if proc is None else proc.pid, route))
                    rows.append({"max_batch": max_batch, "round": round_, **row})
                    _report(rows[-1])
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=30)
    settings = {
        "routes": routes,
        "rounds": args.rounds,
        "clients": args.clients,
        "seconds": args.seconds,
        "warmup_seconds": args.warmup,
        "texts_per_request": args.texts,
        "max_wait_ms": args.max_wait_ms,
        "poison": args.poison,
        "poison_kind": args.poison_kind if args.poison else None,
        "sentences_pool": len(texts),
        "cpu_count": os.cpu_count(),
        "command": " ".join(sys.argv),
    }
    _write(args.out, rows, settings)


def _report(row: dict) -> None:
    print(
        f"max_batch {row['max_batch']} {row['route']} round {row['round']}: {row['requests_per_second']:.0f} req/s, "
        f"p50 {row['latency_ms_p50']:.1f} ms, p99 {row['latency_ms_p99']:.1f} ms, errors {row['errors']}, good "
        f"requests {row['good_success_rate']:.1%} successful, poisoned {row['poisoned_requests']}",
        file=sys.stderr,
        flush=True,
    )


def _route_summary(rows: list[dict]) -> list[str]:
    """Mean requests/s per route (over the rounds) for each max_batch, and v1 / encode when both ran."""
    lines = []
    for max_batch in dict.fromkeys(r["max_batch"] for r in rows):
        means = {}
        for route in dict.fromkeys(r["route"] for r in rows):
            rates = [
                r["requests_per_second"] for r in rows if r["max_batch"] == max_batch and r["route"] == route
            ]
            means[route] = sum(rates) / len(rates)
        shown = ", ".join(f"{route} {mean:.1f} req/s" for route, mean in means.items())
        ratio = ""
        if {"/encode", "/v1/embeddings"} <= set(means):
            ratio = f"; /v1/embeddings / /encode = {means['/v1/embeddings'] / means['/encode']:.3f}"
        lines.append(f"- max_batch {max_batch}: mean over rounds: {shown}{ratio}")
    return lines


def _write(out: Path, rows: list[dict], settings: dict) -> None:
    from lingualite.core.io_utils import write_json, write_text

    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out.with_suffix(".json"), {"settings": settings, "rows": rows})
    head = [
        "model",
        "route",
        "round",
        "max_batch",
        "clients",
        "req/s",
        "sent/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "errors",
    ]
    head += ["texts/call", "server CPU %", "client CPU %", "others CPU %", "peak RSS MB"]
    head += ["good ok %", "poisoned (status: n)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [
            r["model"],
            r["route"],
            str(r["round"]),
            "–" if r["max_batch"] is None else str(r["max_batch"]),
            str(settings["clients"]),
            f"{r['requests_per_second']:.0f}",
            f"{r['sentences_per_second']:.0f}",
            f"{r['latency_ms_p50']:.1f}",
            f"{r['latency_ms_p95']:.1f}",
            f"{r['latency_ms_p99']:.1f}",
            str(r["errors"]),
            f"{r['mean_texts_per_encoder_call']:.1f}",
            "–" if r["server_cpu_percent"] is None else f"{r['server_cpu_percent']:.0f}",
            f"{r['client_cpu_percent']:.0f}",
            f"{r['other_processes_cpu_percent']:.0f}",
            "–" if r["peak_rss_mb"] is None else f"{r['peak_rss_mb']:.0f}",
            f"{100 * r['good_success_rate']:.1f}",
            ", ".join(f"{k}: {v}" for k, v in sorted(r["poisoned_requests"].items())) or "–",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    if len({r["route"] for r in rows}) > 1 or settings["rounds"] > 1:
        lines += ["", *_route_summary(rows)]
    lines += ["", f"Command: `python {settings['command']}`"]
    write_text(out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
