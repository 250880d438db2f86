import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server";

// A throwaway nginx (Debian's) as a round-robin reverse proxy over several Sundown instances, set up as
// docs/deploying.md asks of a proxy: it passes on the Host the client sent (with its port, which Next's
// server-action Origin check compares), appends the client to X-Forwarded-For and says the scheme in
// X-Forwarded-Proto. A request an instance could not take (refused connection, reset, timeout) goes to the
// next one; nginx does that only for idempotent methods, so a POST is never sent twice.

export const NGINX_BIN = process.env.NGINX_BIN ?? "/usr/sbin/nginx";

/** The response header naming the instances nginx tried for a request, the one that answered last. */
export const UPSTREAM_HEADER = "x-upstream";

export interface ThrowawayNginx {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function configuration(dir: string, port: number, upstreamPorts: number[]): string {
  const servers = upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join("\n");
  // Under root the workers would run as nobody, who cannot write the temporary directory.
  const user = process.getuid?.() === 0 ? "user root;" : "";
  return `
daemon off;
${user}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream sundown {
${servers}
    keepalive 16;
    keepalive_timeout 60s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://sundown;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout;
      # For the tests: which instance answered (after a failover, the last of the list).
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

async function listening(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts nginx proxying round-robin to 127.0.0.1 at each of `upstreamPorts`, on `port` (a free one by default:
 * pass one chosen beforehand when the instances must know the public address before the proxy starts).
 */
export async function startNginx(upstreamPorts: number[], port?: number): Promise<ThrowawayNginx> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "sundown-nginx-"));
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, configuration(dir, port, upstreamPorts));
  const errorLog = path.join(dir, "error.log");
  const errors = () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
  // -e: the log nginx opens before it has read the configuration, which would be /var/log/nginx otherwise.
  const child: ChildProcess = spawn(NGINX_BIN, ["-p", dir, "-c", config, "-e", errorLog], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d));
  child.stderr!.on("data", (d: Buffer) => (output += d));
  const deadline = Date.now() + 15_000;
  while (!(await listening(url))) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output}\n${errors()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${url}:\n${output}\n${errors()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    stop: () =>
      new Promise((resolve) => {
        const finish = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return finish();
        child.once("exit", finish);
        // SIGTERM is nginx's fast shutdown: the master stops its workers and exits.
        child.kill("SIGTERM");
      }),
  };
}
